// Input routing: key events and gamepads to the game, our race or the menus, and each frame's navigation (our own
// key events, and ImGui's keyboard and gamepad navigation, held while a race is played).
#include "client/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // NavId / NavDisableHighlight: see nav_inputs()

#include <algorithm>
#include <iterator>

namespace sr::client {

MenuNav App::read_nav() {
  MenuNav nav;
  // Menus take one key per frame, so several presses that arrived together (a fast typist, a slow frame) each act.
  std::vector<std::pair<int, bool>> frame_keys;
  if (!menu_keys_.empty()) {
    frame_keys.push_back(menu_keys_.front());
    menu_keys_.pop_front();
  }
  auto any = [&](int key, int pad, bool repeats) {
    for (const auto& [k, repeat] : frame_keys) {
      if (k == key && (repeats || !repeat)) return true;
    }
    return pads_.pressed(pad);
  };
  nav.up = any(GLFW_KEY_UP, GLFW_GAMEPAD_BUTTON_DPAD_UP, true);
  nav.down = any(GLFW_KEY_DOWN, GLFW_GAMEPAD_BUTTON_DPAD_DOWN, true);
  nav.left = any(GLFW_KEY_LEFT, GLFW_GAMEPAD_BUTTON_DPAD_LEFT, true);
  nav.right = any(GLFW_KEY_RIGHT, GLFW_GAMEPAD_BUTTON_DPAD_RIGHT, true);
  nav.accept = any(GLFW_KEY_ENTER, GLFW_GAMEPAD_BUTTON_A, false) || any(GLFW_KEY_KP_ENTER, -1, false);
  nav.back = any(GLFW_KEY_ESCAPE, GLFW_GAMEPAD_BUTTON_B, false);
  nav.page_up = any(GLFW_KEY_PAGE_UP, GLFW_GAMEPAD_BUTTON_LEFT_BUMPER, true);
  nav.page_down = any(GLFW_KEY_PAGE_DOWN, GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER, true);
  for (const auto& [k, repeat] : frame_keys) {
    if (!repeat) nav.presses.push_back(k);
  }
  nav.suppressed = nav_suppressed_;
  return nav;
}

void App::input(const std::vector<InputEvent>& events, double now_s) {
  nav_suppressed_ = false;
  if (window_.events().take_input_seen()) pacer_.input_seen(now_s);  // frames keep coming a moment: ImGui settles
  int win_w = 0, win_h = 0;
  window_.size(win_w, win_h);
  scale_menus_to_window(fonts_, window_.content_scale(), static_cast<float>(win_h));  // before ImGui's NewFrame
  pads_.new_frame();
  for (const InputEvent& e : events) {
    if (e.type == InputType::kKey) key(key_event_of(e));
    if (e.type == InputType::kPads) pad_changes(pads_.update(e.pads, e.on), e.time_s);
  }
  // Losing focus mid-game pauses it (GLFW has already released the held keys). Only on the change, so a window
  // that starts unfocused (a test harness focusing it a moment later) is not paused.
  const bool focused = window_.focused();
  if (was_focused_ && !focused) view().focus_lost(now_s);
  was_focused_ = focused;
  apply_sound_settings(focused);
  (void)net_poll(now_s);  // what arrived is drawn in this frame anyway
  view().tick(now_s);
}

void App::key(const KeyEvent& ev) {
  if (ev.action == GLFW_PRESS && ev.key == GLFW_KEY_F11) {
    window_.toggle_fullscreen();
    return;
  }
  if (ev.action == GLFW_PRESS && ev.key == GLFW_KEY_F12) {
    screenshot_requested_ = true;
    return;
  }
  if (view().capture_key(ev)) {
    nav_suppressed_ = true;
    return;
  }
  if (ev.action != GLFW_RELEASE && !view().playing() && menu_keys_.size() < 16) {
    menu_keys_.emplace_back(ev.key, ev.action == GLFW_REPEAT);
  }
  view().key(ev);
}

void App::pad_changes(const std::vector<PadChange>& changes, double when_s) {
  for (const auto& c : changes) {
    if (view().capture_pad(c)) {
      nav_suppressed_ = true;
      continue;
    }
    view().pad(c, when_s);
  }
}

void App::nav_inputs() {
  frame_nav_ = read_nav();
  ImGuiIO& io = ImGui::GetIO();
  // ImGui's GLFW backend reads pads by raw button numbers, which differ between pads; ours go through GLFW's
  // gamepad mappings. Nothing navigates while our own race is played.
  std::fill(std::begin(io.NavInputs), std::end(io.NavInputs), 0.0f);
  if (pads_.connected()) {
    io.BackendFlags |= ImGuiBackendFlags_HasGamepad;
  } else {
    io.BackendFlags &= ~ImGuiBackendFlags_HasGamepad;
  }
  // While a race is played, and a moment after its results appear, ImGui's navigation gets no keys at all (its own
  // key mapping included), so hard drops never press a menu button.
  const bool hold = view().holds_navigation(Window::now_s());
  constexpr ImGuiConfigFlags kNav = ImGuiConfigFlags_NavEnableKeyboard | ImGuiConfigFlags_NavEnableGamepad;
  if (hold) {
    io.ConfigFlags &= ~kNav;
  } else {
    io.ConfigFlags |= kNav;
  }
  if (hold || frame_nav_.suppressed) return;
  const auto pad = [&](ImGuiNavInput_ nav, int input) {
    if (pads_.down(input)) io.NavInputs[nav] = 1.0f;
  };
  pad(ImGuiNavInput_Activate, GLFW_GAMEPAD_BUTTON_A);
  pad(ImGuiNavInput_Cancel, GLFW_GAMEPAD_BUTTON_B);
  pad(ImGuiNavInput_Menu, GLFW_GAMEPAD_BUTTON_X);
  pad(ImGuiNavInput_Input, GLFW_GAMEPAD_BUTTON_Y);
  pad(ImGuiNavInput_DpadLeft, GLFW_GAMEPAD_BUTTON_DPAD_LEFT);
  pad(ImGuiNavInput_DpadRight, GLFW_GAMEPAD_BUTTON_DPAD_RIGHT);
  pad(ImGuiNavInput_DpadUp, GLFW_GAMEPAD_BUTTON_DPAD_UP);
  pad(ImGuiNavInput_DpadDown, GLFW_GAMEPAD_BUTTON_DPAD_DOWN);
  pad(ImGuiNavInput_LStickLeft, kPadStickLeft);
  pad(ImGuiNavInput_LStickRight, kPadStickRight);
  pad(ImGuiNavInput_LStickUp, kPadStickUp);
  pad(ImGuiNavInput_LStickDown, kPadStickDown);
  pad(ImGuiNavInput_FocusPrev, GLFW_GAMEPAD_BUTTON_LEFT_BUMPER);
  pad(ImGuiNavInput_FocusNext, GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER);
  pad(ImGuiNavInput_TweakSlow, GLFW_GAMEPAD_BUTTON_LEFT_BUMPER);
  pad(ImGuiNavInput_TweakFast, GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER);
  // Key taps from our own events: ImGui 1.86 sees only whether a key is down when the frame starts, so a press
  // and release between two frames would be lost. Enter activates buttons too (ImGui's own Enter only edits text).
  bool activate = pads_.pressed(GLFW_GAMEPAD_BUTTON_A);
  for (int key : frame_nav_.presses) {
    switch (key) {
      case GLFW_KEY_ENTER:
      case GLFW_KEY_KP_ENTER:
      case GLFW_KEY_SPACE:
        io.NavInputs[ImGuiNavInput_Activate] = 1.0f;
        activate = true;
        break;
      case GLFW_KEY_ESCAPE: io.NavInputs[ImGuiNavInput_Cancel] = 1.0f; break;
      default: break;
    }
  }
  // ImGui 1.86 ignores activation while its focus highlight is hidden (after mouse use, or on a window that has
  // just appeared with its default button focused): Enter (pad A) then presses that default button, and shows it.
  // With nothing focused it presses nothing here; a screen's default button may take it (default_item_accepted).
  if (ImGuiContext* g = ImGui::GetCurrentContext(); activate && g->NavId != 0) {
    g->NavDisableHighlight = false;
  } else if (activate) {
    frame_nav_.activated_nothing = true;
  }
  if (frame_nav_.left) io.NavInputs[ImGuiNavInput_KeyLeft_] = 1.0f;
  if (frame_nav_.right) io.NavInputs[ImGuiNavInput_KeyRight_] = 1.0f;
  if (frame_nav_.up) io.NavInputs[ImGuiNavInput_KeyUp_] = 1.0f;
  if (frame_nav_.down) io.NavInputs[ImGuiNavInput_KeyDown_] = 1.0f;
}

}  // namespace sr::client
