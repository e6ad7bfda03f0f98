// The GLFW window: creation with an OpenGL 3.3 core context, fullscreen toggle, content scale, key events stamped
// with glfwGetTime() in the callback, the moment GLFW delivers them (not once per frame), and waiting for events
// between frames (frame pacing, client/README.md).
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

struct GLFWwindow;

namespace sr::client {

struct KeyEvent {
  int key = 0;     // GLFW key code
  int action = 0;  // GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT
  int mods = 0;
  double time_s = 0;  // glfwGetTime() when the callback ran
};

struct WindowOptions {
  std::string title = "stackrace";
  int width = 1280, height = 720;
  bool fullscreen = false;
  bool vsync = true;
  bool resizable = true;
};

class Window {
 public:
  Window() = default;
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  // Initialises GLFW, opens the window, makes its context current and loads OpenGL through glad. Returns ok or an
  // error sentence (for example when there is no display). Install our callbacks before ImGui's, which chain them.
  [[nodiscard]] sr::Status<std::string> open(const WindowOptions& options);
  void close();

  [[nodiscard]] GLFWwindow* handle() const { return window_; }
  [[nodiscard]] bool should_close() const;
  void toggle_fullscreen();
  void set_vsync(bool on);
  [[nodiscard]] bool fullscreen() const { return fullscreen_; }
  [[nodiscard]] bool focused() const;
  [[nodiscard]] bool iconified() const;
  // The refresh rate of the monitor the window is on (fullscreen) or of the primary monitor; 0 when unknown.
  [[nodiscard]] double refresh_hz() const;

  // Waits up to `timeout_s` for events (none: returns at once); any event ends the wait. The next poll delivers it.
  static void wait_events(double timeout_s);
  // Whether any input or window event (keys, text, mouse, focus, size, exposure) arrived since the last call.
  [[nodiscard]] bool take_input_seen();

  // Key events since the last call, in the order they happened.
  [[nodiscard]] std::vector<KeyEvent> take_key_events();
  [[nodiscard]] bool has_key_events() const { return !keys_.empty(); }

  // The monitor's DPI scale for this window (1 on a standard display).
  [[nodiscard]] float content_scale() const;
  void size(int& w, int& h) const;
  void framebuffer_size(int& w, int& h) const;
  [[nodiscard]] static double now_s();
  // Human-readable OpenGL renderer and version strings.
  [[nodiscard]] std::string gl_description() const;

 private:
  static void key_callback(GLFWwindow* w, int key, int scancode, int action, int mods);
  // The callbacks below only note that something happened (ImGui's, installed after ours, chain to them).
  static void note_input(GLFWwindow* w);

  GLFWwindow* window_ = nullptr;
  bool glfw_ready_ = false;
  bool fullscreen_ = false;
  int windowed_x_ = 100, windowed_y_ = 100, windowed_w_ = 1280, windowed_h_ = 720;
  std::vector<KeyEvent> keys_;
  bool input_seen_ = false;
};

}  // namespace sr::client
