// The window's events on their way from the main thread, which receives them from GLFW, to the render thread, which
// runs the game (client/README.md, "Threads"). Each event is stamped when it is pushed, that is in the GLFW
// callback, the moment it arrives, whatever the render thread is doing. Thread-safe; no GLFW: the clock is given,
// so the unit tests drive it by hand.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace sr::client {

enum class InputType : std::uint8_t {
  kKey,              // key, action, mods (GLFW codes)
  kChar,             // codepoint: text typed
  kMouseButton,      // key = the button, action, mods
  kCursorPos,        // x, y: window coordinates
  kScroll,           // x, y: wheel offsets
  kCursorEnter,      // on: the cursor entered (true) or left the window
  kFocus,            // on: the window gained (true) or lost the focus
  kIconify,          // on: minimised (true) or restored
  kWindowSize,       // x, y: the window's size in screen coordinates
  kFramebufferSize,  // x, y: in pixels
  kContentScale,     // x: the monitor's DPI scale for the window
  kRefreshRate,      // x: the refresh rate of the window's monitor (Hz; 0 unknown)
  kFullscreen,       // on: the window is fullscreen now
  kPads,             // pads: the first gamepad's inputs (PadInput bits), on: one is connected
  kExposed,          // the window must be drawn again
  kClose,            // the user asked to close the window
};

struct InputEvent {
  InputType type = InputType::kKey;
  int key = 0, action = 0, mods = 0;
  unsigned codepoint = 0;
  double x = 0, y = 0;
  bool on = false;
  std::uint32_t pads = 0;
  double time_s = 0;  // stamped by InputQueue::push
};

// A key event as the game reads it.
struct KeyEvent {
  int key = 0;     // GLFW key code
  int action = 0;  // GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT
  int mods = 0;
  double time_s = 0;  // when the main thread received it (seconds on the glfwGetTime clock)
};

[[nodiscard]] inline KeyEvent key_event_of(const InputEvent& e) { return {e.key, e.action, e.mods, e.time_s}; }

class InputQueue {
 public:
  using Clock = std::function<double()>;  // seconds; glfwGetTime() in the game

  explicit InputQueue(Clock clock) : clock_(std::move(clock)) {}

  // Any thread (the main thread's GLFW callbacks): stamps `e` with the clock now, appends it, and wakes wait_until.
  void push(InputEvent e);
  // Ends a wait_until now, without an event (the game must stop, a gamepad changed).
  void wake();

  // Every event pushed since the last call, in the order pushed.
  [[nodiscard]] std::vector<InputEvent> take();
  // Whether a key event (or a change of the gamepad) waits to be taken: those end a frame's wait at once.
  [[nodiscard]] bool has_keys() const;
  // Whether any event was pushed since the last call (the pacer's "input seen"); taken events count.
  [[nodiscard]] bool take_input_seen();

  // Waits until the clock passes `deadline_s`, or less: returns as soon as a key waits (has_keys()), input was seen
  // (pushed since the last take_input_seen()), or wake() was called since the last wait.
  void wait_until(double deadline_s);

 private:
  Clock clock_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<InputEvent> events_;
  bool keys_ = false;
  bool seen_ = false;
  bool woken_ = false;
};

}  // namespace sr::client
