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

}  // namespace sr::client
