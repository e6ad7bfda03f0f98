#include "client/input/key_names.h"

#include <GLFW/glfw3.h>

#include <array>
#include <utility>

namespace sr::client {
namespace {

struct Named {
  int code;
  const char* name;
};

constexpr Named kSpecialKeys[] = {
    {GLFW_KEY_SPACE, "Space"},
    {GLFW_KEY_APOSTROPHE, "'"},
    {GLFW_KEY_COMMA, ","},
    {GLFW_KEY_MINUS, "-"},
    {GLFW_KEY_PERIOD, "."},
    {GLFW_KEY_SLASH, "/"},
    {GLFW_KEY_SEMICOLON, ";"},
    {GLFW_KEY_EQUAL, "="},
    {GLFW_KEY_LEFT_BRACKET, "["},
    {GLFW_KEY_BACKSLASH, "\\"},
    {GLFW_KEY_RIGHT_BRACKET, "]"},
    {GLFW_KEY_GRAVE_ACCENT, "`"},
    {GLFW_KEY_ESCAPE, "Escape"},
    {GLFW_KEY_ENTER, "Enter"},
    {GLFW_KEY_TAB, "Tab"},
    {GLFW_KEY_BACKSPACE, "Backspace"},
    {GLFW_KEY_INSERT, "Insert"},
    {GLFW_KEY_DELETE, "Delete"},
    {GLFW_KEY_RIGHT, "Right"},
    {GLFW_KEY_LEFT, "Left"},
    {GLFW_KEY_DOWN, "Down"},
    {GLFW_KEY_UP, "Up"},
    {GLFW_KEY_PAGE_UP, "Page Up"},
    {GLFW_KEY_PAGE_DOWN, "Page Down"},
    {GLFW_KEY_HOME, "Home"},
    {GLFW_KEY_END, "End"},
    {GLFW_KEY_CAPS_LOCK, "Caps Lock"},
    {GLFW_KEY_KP_0, "Keypad 0"},
    {GLFW_KEY_KP_1, "Keypad 1"},
    {GLFW_KEY_KP_2, "Keypad 2"},
    {GLFW_KEY_KP_3, "Keypad 3"},
    {GLFW_KEY_KP_4, "Keypad 4"},
    {GLFW_KEY_KP_5, "Keypad 5"},
    {GLFW_KEY_KP_6, "Keypad 6"},
    {GLFW_KEY_KP_7, "Keypad 7"},
    {GLFW_KEY_KP_8, "Keypad 8"},
    {GLFW_KEY_KP_9, "Keypad 9"},
    {GLFW_KEY_KP_DECIMAL, "Keypad ."},
    {GLFW_KEY_KP_DIVIDE, "Keypad /"},
    {GLFW_KEY_KP_MULTIPLY, "Keypad *"},
    {GLFW_KEY_KP_SUBTRACT, "Keypad -"},
    {GLFW_KEY_KP_ADD, "Keypad +"},
    {GLFW_KEY_KP_ENTER, "Keypad Enter"},
    {GLFW_KEY_LEFT_SHIFT, "Left Shift"},
    {GLFW_KEY_LEFT_CONTROL, "Left Ctrl"},
    {GLFW_KEY_LEFT_ALT, "Left Alt"},
    {GLFW_KEY_RIGHT_SHIFT, "Right Shift"},
    {GLFW_KEY_RIGHT_CONTROL, "Right Ctrl"},
    {GLFW_KEY_RIGHT_ALT, "Right Alt"},
};

constexpr std::array<const char*, kPadInputCount> kPadNames = {
    "Pad A",     "Pad B",          "Pad X",           "Pad Y",        "Pad LB",         "Pad RB",    "Pad Back",
    "Pad Start", "Pad Guide",      "Pad LS",          "Pad RS",       "Pad Up",         "Pad Right", "Pad Down",
    "Pad Left",  "Pad Stick Left", "Pad Stick Right", "Pad Stick Up", "Pad Stick Down", "Pad LT",    "Pad RT",
};

}  // namespace

std::string key_name(int key) {
  if ((key >= GLFW_KEY_A && key <= GLFW_KEY_Z) || (key >= GLFW_KEY_0 && key <= GLFW_KEY_9)) {
    return std::string(1, static_cast<char>(key));  // GLFW uses ASCII codes for these
  }
  if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F25) return "F" + std::to_string(key - GLFW_KEY_F1 + 1);
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
    if (n >= 1) return GLFW_KEY_F1 + n - 1;
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
