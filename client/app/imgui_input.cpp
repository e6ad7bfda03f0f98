#include "client/app/imgui_input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>

namespace sr::client {

ImGuiInput::ImGuiInput(Window& window) : window_(window) {
  ImGuiIO& io = ImGui::GetIO();
  io.BackendPlatformName = "stackrace (GLFW events from the main thread)";
  io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
  // ImGui reads these indices in io.KeysDown[], which holds GLFW key codes.
  io.KeyMap[ImGuiKey_Tab] = GLFW_KEY_TAB;
  io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
  io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
  io.KeyMap[ImGuiKey_UpArrow] = GLFW_KEY_UP;
  io.KeyMap[ImGuiKey_DownArrow] = GLFW_KEY_DOWN;
  io.KeyMap[ImGuiKey_PageUp] = GLFW_KEY_PAGE_UP;
  io.KeyMap[ImGuiKey_PageDown] = GLFW_KEY_PAGE_DOWN;
  io.KeyMap[ImGuiKey_Home] = GLFW_KEY_HOME;
  io.KeyMap[ImGuiKey_End] = GLFW_KEY_END;
  io.KeyMap[ImGuiKey_Insert] = GLFW_KEY_INSERT;
  io.KeyMap[ImGuiKey_Delete] = GLFW_KEY_DELETE;
  io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
  io.KeyMap[ImGuiKey_Space] = GLFW_KEY_SPACE;
  io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;
  io.KeyMap[ImGuiKey_Escape] = GLFW_KEY_ESCAPE;
  io.KeyMap[ImGuiKey_KeyPadEnter] = GLFW_KEY_KP_ENTER;
  io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
  io.KeyMap[ImGuiKey_C] = GLFW_KEY_C;
  io.KeyMap[ImGuiKey_V] = GLFW_KEY_V;
  io.KeyMap[ImGuiKey_X] = GLFW_KEY_X;
  io.KeyMap[ImGuiKey_Y] = GLFW_KEY_Y;
  io.KeyMap[ImGuiKey_Z] = GLFW_KEY_Z;
  io.GetClipboardTextFn = &ImGuiInput::get_clipboard;
  io.SetClipboardTextFn = &ImGuiInput::set_clipboard;
  io.ClipboardUserData = this;
}

const char* ImGuiInput::get_clipboard(void* user) {
  auto* self = static_cast<ImGuiInput*>(user);
  self->clipboard_ = self->window_.clipboard();
  return self->clipboard_.c_str();
}

void ImGuiInput::set_clipboard(void* user, const char* text) {
  static_cast<ImGuiInput*>(user)->window_.set_clipboard(text != nullptr ? text : "");
}

void ImGuiInput::events(const std::vector<InputEvent>& events) {
  ImGuiIO& io = ImGui::GetIO();
  constexpr int kKeys = IM_ARRAYSIZE(io.KeysDown);
  // Taps of the last frame are over.
  for (int key : keys_tapped_) io.KeysDown[key] = false;
  keys_tapped_.clear();
  std::vector<int> pressed;  // in this batch
  for (const InputEvent& e : events) {
    switch (e.type) {
      case InputType::kKey:
        if (e.key < 0 || e.key >= kKeys) break;
        if (e.action == GLFW_PRESS) {
          io.KeysDown[e.key] = true;
          pressed.push_back(e.key);
          keys_tapped_.erase(std::remove(keys_tapped_.begin(), keys_tapped_.end(), e.key), keys_tapped_.end());
        } else if (e.action == GLFW_RELEASE) {
          // Pressed in this same batch: held for this frame, released after it.
          if (std::find(pressed.begin(), pressed.end(), e.key) != pressed.end()) {
            keys_tapped_.push_back(e.key);
          } else {
            io.KeysDown[e.key] = false;
          }
        }
        break;
      case InputType::kChar: io.AddInputCharacter(e.codepoint); break;
      case InputType::kMouseButton:
        if (e.key < 0 || e.key >= static_cast<int>(mouse_down_.size())) break;
        mouse_down_[static_cast<std::size_t>(e.key)] = e.action == GLFW_PRESS;
        if (e.action == GLFW_PRESS) mouse_pressed_[static_cast<std::size_t>(e.key)] = true;
        break;
      case InputType::kScroll:
        io.MouseWheelH += static_cast<float>(e.x);
        io.MouseWheel += static_cast<float>(e.y);
        break;
      case InputType::kFocus: io.AddFocusEvent(e.on); break;
      default: break;
    }
  }
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

void ImGuiInput::new_frame(double now_s) {
  ImGuiIO& io = ImGui::GetIO();
  const WindowState& s = window_.state();
  io.DisplaySize = ImVec2(static_cast<float>(s.width), static_cast<float>(s.height));
  if (s.width > 0 && s.height > 0) {
    io.DisplayFramebufferScale = ImVec2(static_cast<float>(s.fb_width) / static_cast<float>(s.width),
                                        static_cast<float>(s.fb_height) / static_cast<float>(s.height));
  }
  io.DeltaTime = last_s_ > 0 && now_s > last_s_ ? static_cast<float>(now_s - last_s_) : 1.0f / 60.0f;
  last_s_ = now_s;
  for (std::size_t i = 0; i < mouse_down_.size(); ++i) {
    io.MouseDown[i] = mouse_down_[i] || mouse_pressed_[i];
    mouse_pressed_[i] = false;
  }
  io.MousePos = s.cursor_known && (s.cursor_inside || s.focused)
                    ? ImVec2(static_cast<float>(s.cursor_x), static_cast<float>(s.cursor_y))
                    : ImVec2(-FLT_MAX, -FLT_MAX);
}

void ImGuiInput::end_frame() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.ConfigFlags & ImGuiConfigFlags_NoMouseCursorChange) return;
  const int shape = io.MouseDrawCursor ? ImGuiMouseCursor_None : ImGui::GetMouseCursor();
  if (shape == cursor_shape_) return;  // posted only on a change: each post wakes the main thread
  cursor_shape_ = shape;
  window_.set_cursor_shape(shape);
}

}  // namespace sr::client
