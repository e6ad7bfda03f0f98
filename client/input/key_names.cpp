#include "client/input/key_names.h"

#include <array>
#include <utility>

namespace sr::client {
namespace {

struct Named {
  int code;
  const char* name;
};

constexpr Named kSpecialKeys[] = {
    {keycode::kSpace, "Space"},
    {keycode::kApostrophe, "'"},
    {keycode::kComma, ","},
    {keycode::kMinus, "-"},
    {keycode::kPeriod, "."},
    {keycode::kSlash, "/"},
    {keycode::kSemicolon, ";"},
    {keycode::kEqual, "="},
    {keycode::kLeftBracket, "["},
    {keycode::kBackslash, "\\"},
    {keycode::kRightBracket, "]"},
    {keycode::kGraveAccent, "`"},
    {keycode::kEscape, "Escape"},
    {keycode::kEnter, "Enter"},
    {keycode::kTab, "Tab"},
    {keycode::kBackspace, "Backspace"},
    {keycode::kInsert, "Insert"},
    {keycode::kDelete, "Delete"},
    {keycode::kRight, "Right"},
    {keycode::kLeft, "Left"},
    {keycode::kDown, "Down"},
    {keycode::kUp, "Up"},
    {keycode::kPageUp, "Page Up"},
    {keycode::kPageDown, "Page Down"},
    {keycode::kHome, "Home"},
    {keycode::kEnd, "End"},
    {keycode::kCapsLock, "Caps Lock"},
    {keycode::kKeypad0, "Keypad 0"},
    {keycode::kKeypad0 + 1, "Keypad 1"},
    {keycode::kKeypad0 + 2, "Keypad 2"},
    {keycode::kKeypad0 + 3, "Keypad 3"},
    {keycode::kKeypad0 + 4, "Keypad 4"},
    {keycode::kKeypad0 + 5, "Keypad 5"},
    {keycode::kKeypad0 + 6, "Keypad 6"},
    {keycode::kKeypad0 + 7, "Keypad 7"},
    {keycode::kKeypad0 + 8, "Keypad 8"},
    {keycode::kKeypad0 + 9, "Keypad 9"},
    {keycode::kKeypadDecimal, "Keypad ."},
    {keycode::kKeypadDivide, "Keypad /"},
    {keycode::kKeypadMultiply, "Keypad *"},
    {keycode::kKeypadSubtract, "Keypad -"},
    {keycode::kKeypadAdd, "Keypad +"},
    {keycode::kKeypadEnter, "Keypad Enter"},
    {keycode::kLeftShift, "Left Shift"},
    {keycode::kLeftControl, "Left Ctrl"},
    {keycode::kLeftAlt, "Left Alt"},
    {keycode::kRightShift, "Right Shift"},
    {keycode::kRightControl, "Right Ctrl"},
    {keycode::kRightAlt, "Right Alt"},
};

constexpr std::array<const char*, kPadInputCount> kPadNames = {
    "Pad A",     "Pad B",          "Pad X",           "Pad Y",        "Pad LB",         "Pad RB",    "Pad Back",
    "Pad Start", "Pad Guide",      "Pad LS",          "Pad RS",       "Pad Up",         "Pad Right", "Pad Down",
    "Pad Left",  "Pad Stick Left", "Pad Stick Right", "Pad Stick Up", "Pad Stick Down", "Pad LT",    "Pad RT",
};

}  // namespace

std::string key_name(int key) {
  if ((key >= keycode::letter('A') && key <= keycode::letter('Z')) ||
      (key >= keycode::digit('0') && key <= keycode::digit('9'))) {
    return std::string(1, static_cast<char>(key));  // ASCII codes
  }
  if (key >= keycode::kF1 && key <= keycode::kF25) return "F" + std::to_string(key - keycode::kF1 + 1);
  for (const auto& k : kSpecialKeys) {
    if (k.code == key) return k.name;
  }
  return {};
}

std::optional<int> key_from_name(std::string_view name) {
  if (name.size() == 1) {
    char c = name[0];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if ((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return static_cast<int>(c);
  }
  if (name.size() >= 2 && name[0] == 'F') {
    int n = 0;
    for (std::size_t i = 1; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return std::nullopt;
      n = n * 10 + (name[i] - '0');
      if (n > 25) return std::nullopt;
    }
    if (n >= 1) return keycode::kF1 + n - 1;
  }
  for (const auto& k : kSpecialKeys) {
    if (name == k.name) return k.code;
  }
  return std::nullopt;
}

std::string pad_name(int pad_input) {
  if (pad_input < 0 || pad_input >= kPadInputCount) return {};
  return kPadNames[static_cast<std::size_t>(pad_input)];
}

std::optional<int> pad_from_name(std::string_view name) {
  for (int i = 0; i < kPadInputCount; ++i) {
    if (name == kPadNames[static_cast<std::size_t>(i)]) return i;
  }
  return std::nullopt;
}

}  // namespace sr::client
