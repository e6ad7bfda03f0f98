// Dear ImGui's platform side on the render thread: the window's events (keys, text, mouse, focus, sizes) given to
// ImGui's IO, in place of imgui_impl_glfw, whose callbacks and NewFrame call GLFW functions that only the main
// thread may call (client/README.md, "Threads"). Same behaviour as that backend (ImGui 1.86): a click or a key tap
// shorter than a frame still counts as held for one frame; the mouse is known while it is over the window or the
// window has the focus; the cursor shape and the clipboard go through the main thread.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "client/platform/window.h"

namespace sr::client {

class ImGuiInput {
 public:
  // Sets up ImGui's IO (key map, clipboard, backend flags). An ImGui context must exist.
  explicit ImGuiInput(Window& window);

  // The events a frame took, in order (before ImGui::NewFrame).
  void events(const std::vector<InputEvent>& events);
  // Display size, time step, mouse position and buttons (before ImGui::NewFrame, after events()).
  void new_frame(double now_s);
  // The mouse cursor shape ImGui asks for (after ImGui::Render).
  void end_frame();

 private:
  static const char* get_clipboard(void* user);
  static void set_clipboard(void* user, const char* text);

  Window& window_;
  std::string clipboard_;  // kept alive for ImGui between get_clipboard calls
  std::array<bool, 5> mouse_down_{};
  std::array<bool, 5> mouse_pressed_{};  // pressed since the last frame
  std::vector<int> keys_tapped_;         // pressed and released since the last frame: released after it
  double last_s_ = -1;
  int cursor_shape_ = 0;
};

}  // namespace sr::client
