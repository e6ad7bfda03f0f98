#include "client/platform/gamepad.h"

#include <GLFW/glfw3.h>

namespace sr::client {

std::vector<PadChange> Gamepads::poll() {
  std::bitset<kPadInputCount> now;
  connected_ = false;
  for (int jid = GLFW_JOYSTICK_1; jid <= GLFW_JOYSTICK_LAST; ++jid) {
    GLFWgamepadstate state;
    if (!glfwJoystickIsGamepad(jid) || !glfwGetGamepadState(jid, &state)) continue;
    connected_ = true;
    for (int b = 0; b <= GLFW_GAMEPAD_BUTTON_LAST; ++b)
      now[static_cast<std::size_t>(b)] = state.buttons[b] == GLFW_PRESS;
    const float lx = state.axes[GLFW_GAMEPAD_AXIS_LEFT_X], ly = state.axes[GLFW_GAMEPAD_AXIS_LEFT_Y];
    now[kPadStickLeft] = lx < -kStickThreshold;
    now[kPadStickRight] = lx > kStickThreshold;
    now[kPadStickUp] = ly < -kStickThreshold;
    now[kPadStickDown] = ly > kStickThreshold;
    // Triggers rest at -1.
    now[kPadTriggerLeft] = state.axes[GLFW_GAMEPAD_AXIS_LEFT_TRIGGER] > kTriggerThreshold * 2 - 1;
    now[kPadTriggerRight] = state.axes[GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER] > kTriggerThreshold * 2 - 1;
    break;
  }
  std::vector<PadChange> changes;
  for (int i = 0; i < kPadInputCount; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (now[u] != down_[u]) changes.push_back({i, now[u]});
  }
  pressed_ = now & ~down_;
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
