// Stable names for keyboard keys (key_codes.h) and gamepad inputs, used in settings.json and on screens.
// Names do not depend on the keyboard layout, so a settings file means the same on every machine.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "client/input/key_codes.h"

namespace sr::client {

// "Left", "Space", "A", "F5", "Left Shift", ...; empty for an unknown code.
[[nodiscard]] std::string key_name(int key_code);
[[nodiscard]] std::optional<int> key_from_name(std::string_view name);

// "Pad A", "Pad Up", "Pad Stick Left", ...; empty for an unknown input.
[[nodiscard]] std::string pad_name(int pad_input);
[[nodiscard]] std::optional<int> pad_from_name(std::string_view name);

}  // namespace sr::client
