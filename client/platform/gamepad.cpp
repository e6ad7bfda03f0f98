#include "client/platform/gamepad.h"

#include <GLFW/glfw3.h>

namespace sr::client {

std::optional<std::uint32_t> read_first_gamepad() {
  for (int jid = GLFW_JOYSTICK_1; jid <= GLFW_JOYSTICK_LAST; ++jid) {
    GLFWgamepadstate state;
    if (!glfwJoystickIsGamepad(jid) || !glfwGetGamepadState(jid, &state)) continue;
    std::uint32_t bits = 0;
    const auto set = [&](int input, bool on) {
      if (on) bits |= std::uint32_t{1} << input;
    };
    for (int b = 0; b <= GLFW_GAMEPAD_BUTTON_LAST; ++b) set(b, state.buttons[b] == GLFW_PRESS);
    const float lx = state.axes[GLFW_GAMEPAD_AXIS_LEFT_X], ly = state.axes[GLFW_GAMEPAD_AXIS_LEFT_Y];
    set(kPadStickLeft, lx < -Gamepads::kStickThreshold);
    set(kPadStickRight, lx > Gamepads::kStickThreshold);
    set(kPadStickUp, ly < -Gamepads::kStickThreshold);
    set(kPadStickDown, ly > Gamepads::kStickThreshold);
    // Triggers rest at -1.
    set(kPadTriggerLeft, state.axes[GLFW_GAMEPAD_AXIS_LEFT_TRIGGER] > Gamepads::kTriggerThreshold * 2 - 1);
    set(kPadTriggerRight, state.axes[GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER] > Gamepads::kTriggerThreshold * 2 - 1);
    return bits;
  }
  return std::nullopt;
}

std::vector<PadChange> Gamepads::update(std::uint32_t bits, bool connected) {
  connected_ = connected;
  const std::bitset<kPadInputCount> now(connected ? bits : 0);
  std::vector<PadChange> changes;
  for (int i = 0; i < kPadInputCount; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (now[u] != down_[u]) changes.push_back({i, now[u]});
  }
  pressed_ |= now & ~down_;
  down_ = now;
  return changes;
}

bool Gamepads::pressed(int input) const {
  return input >= 0 && input < kPadInputCount && pressed_[static_cast<std::size_t>(input)];
}

bool Gamepads::down(int input) const {
  return input >= 0 && input < kPadInputCount && down_[static_cast<std::size_t>(input)];
}

}  // namespace sr::client
