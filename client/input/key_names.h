// Stable names for keyboard keys (GLFW key codes) and gamepad inputs, used in settings.json and on screens.
// Names do not depend on the keyboard layout, so a settings file means the same on every machine.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sr::client {

// Gamepad inputs: 0..14 are GLFW's gamepad buttons (GLFW_GAMEPAD_BUTTON_*), then the left stick's four directions
// and the two triggers, read as buttons past a threshold.
enum PadInput : int {
  kPadStickLeft = 15,
  kPadStickRight = 16,
  kPadStickUp = 17,
  kPadStickDown = 18,
  kPadTriggerLeft = 19,
  kPadTriggerRight = 20,
};
inline constexpr int kPadInputCount = 21;

// "Left", "Space", "A", "F5", "Left Shift", ...; empty for an unknown code.
[[nodiscard]] std::string key_name(int glfw_key);
[[nodiscard]] std::optional<int> key_from_name(std::string_view name);

// "Pad A", "Pad Up", "Pad Stick Left", ...; empty for an unknown input.
[[nodiscard]] std::string pad_name(int pad_input);
[[nodiscard]] std::optional<int> pad_from_name(std::string_view name);

}  // namespace sr::client
