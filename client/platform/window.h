// The GLFW window, used from two threads (client/README.md, "Threads"):
//   the main thread opens and closes it and runs its events (run_events): GLFW calls our callbacks there, each one
//     pushes an InputEvent stamped at that moment onto the input queue; it also reads the gamepads (GLFW has no
//     gamepad events) and runs what the render thread posts (fullscreen, clipboard, cursor shape);
//   the render thread owns the OpenGL context and draws; it knows the window only through the events it takes
//     (take_events keeps focused(), size() and the rest up to date) and never calls a main-thread-only GLFW function.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "client/platform/input_queue.h"
#include "client/platform/render_context.h"
#include "client/platform/window_state.h"
#include "common/result.h"

struct GLFWwindow;
struct GLFWcursor;

namespace sr::client {

struct WindowOptions {
  std::string title = "stackrace";
  int width = 1280, height = 720;
  bool fullscreen = false;
  bool resizable = true;
};

class Window {
 public:
  // ImGui's mouse cursor shapes (ImGuiMouseCursor_Arrow .. _NotAllowed), made on the main thread.
  static constexpr int kCursorShapes = 9;
  static constexpr double kPlayingPollS = 0.001;  // the longest wait for events while playing (set_playing)
  static constexpr double kPadPollS = 0.016;      // a connected gamepad is read this often when not playing

  Window();
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // --- main thread
  // Initialises GLFW, opens the window, loads OpenGL through glad, and leaves no context current (the render thread
  // takes it). Returns ok or an error sentence (for example when there is no display).
  [[nodiscard]] sr::Status<std::string> open(const WindowOptions& options);
  void close();
  // Handles events until `stop()` is true, waiting for them in between: until an event comes, or at most
  // kPlayingPollS while playing with a gamepad connected or a shared X connection (see set_playing), else kPadPollS
  // while a gamepad is connected. Call stop_events() (any
  // thread) to have `stop` checked again.
  void run_events(const std::function<bool()>& stop);

  // --- any thread
  [[nodiscard]] static double now_s();
  // Wakes run_events to check its `stop` again.
  static void stop_events();
  // A game, race or replay moves: a connected gamepad is read every kPlayingPollS. Also matters when the render thread
  // draws through GLFW's own context (no RenderContext): Xlib is then shared by both threads, and the render thread's
  // OpenGL calls (the swap) may read waiting events from the connection into Xlib's queue while the main thread sleeps
  // on the connection, which then stays silent. So while playing the main thread waits at most kPlayingPollS at a time,
  // and otherwise each swap wakes it.
  void set_playing(bool on) { playing_.store(on); }
  [[nodiscard]] InputQueue& events() { return queue_; }

  // --- render thread
  // Makes an OpenGL context for the window current on the calling thread: a RenderContext on an X connection of its
  // own, else (not X11/GLX, or STACKRACE_GLFW_CONTEXT=1 in the environment) GLFW's. `on` false: releases it.
  void make_current(bool on);
  // Which context make_current chose, in words (for the log).
  [[nodiscard]] const std::string& context_kind() const { return context_kind_; }
  // Swaps; with GLFW's context and when not playing, then wakes the main thread (set_playing).
  void swap_buffers();
  // Every event since the last call, in order; the state below follows them.
  [[nodiscard]] std::vector<InputEvent> take_events();
  [[nodiscard]] const WindowState& state() const { return state_; }
  [[nodiscard]] bool should_close() const { return state_.close_requested; }
  // The game asked first (App::close_requested) and the player keeps playing: the request is forgotten.
  void cancel_close();
  [[nodiscard]] bool fullscreen() const { return state_.fullscreen; }
  [[nodiscard]] bool focused() const { return state_.focused; }
  [[nodiscard]] bool iconified() const { return state_.iconified; }
  // The refresh rate of the monitor the window is on (fullscreen) or of the primary monitor; 0 when unknown.
  [[nodiscard]] double refresh_hz() const { return state_.refresh_hz; }
  // The monitor's DPI scale for this window (1 on a standard display).
  [[nodiscard]] float content_scale() const { return state_.content_scale; }
  void size(int& w, int& h) const;
  void framebuffer_size(int& w, int& h) const;
  // The swap interval of the current context (the render thread's).
  void set_vsync(bool on);
  // Done by the main thread soon after; the events tell when (kFullscreen, sizes).
  void toggle_fullscreen();
  // ImGui's cursor shape (ImGuiMouseCursor_*; -1 hides the cursor), set by the main thread.
  void set_cursor_shape(int shape);
  // The clipboard, through the main thread: set at once, read waiting for it (up to 0.25 s, else "").
  void set_clipboard(std::string text);
  [[nodiscard]] std::string clipboard();
  // Human-readable OpenGL renderer and version strings (a context must be current).
  [[nodiscard]] std::string gl_description() const;

 private:
  static Window* self(GLFWwindow* w);
  void push(InputEvent e) { queue_.push(e); }
  // Main thread: runs what the render thread posted; reads the pads when one is connected.
  void run_posted();
  void read_pads();
  void post(std::function<void()> fn);
  void do_toggle_fullscreen();

  GLFWwindow* window_ = nullptr;
  bool glfw_ready_ = false;
  InputQueue queue_;

  // Render thread.
  WindowState state_;
  RenderContext own_context_;
  std::string context_kind_;
  std::atomic<bool> shared_connection_{true};  // drawing through GLFW's context (and X connection)

  // Main thread.
  bool fullscreen_ = false;
  int windowed_x_ = 100, windowed_y_ = 100, windowed_w_ = 1280, windowed_h_ = 720;
  std::array<GLFWcursor*, kCursorShapes> cursors_{};
  int cursor_shape_ = 0;
  std::uint32_t pads_ = 0;
  bool pad_connected_ = false;
  std::atomic<bool> playing_{false};

  std::mutex posted_mutex_;
  std::vector<std::function<void()>> posted_;
};

}  // namespace sr::client
