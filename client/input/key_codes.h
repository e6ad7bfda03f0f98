// Keyboard keys and gamepad inputs as numbers: the values GLFW gives (the window hands its codes through unchanged),
// named here so that bindings, key names and settings need no window library. client/platform/glfw_codes.cpp checks
// every one against GLFW's header at compile time.
#pragma once

namespace sr::client {

namespace keycode {

inline constexpr int kUnknown = -1;
// A..Z and 0..9 are their ASCII codes ('A', '7').
[[nodiscard]] constexpr int letter(char upper) { return upper; }
[[nodiscard]] constexpr int digit(char d) { return d; }
inline constexpr int kSpace = 32;
inline constexpr int kApostrophe = 39;
inline constexpr int kComma = 44;
inline constexpr int kMinus = 45;
inline constexpr int kPeriod = 46;
inline constexpr int kSlash = 47;
inline constexpr int kSemicolon = 59;
inline constexpr int kEqual = 61;
inline constexpr int kLeftBracket = 91;
inline constexpr int kBackslash = 92;
inline constexpr int kRightBracket = 93;
inline constexpr int kGraveAccent = 96;
inline constexpr int kEscape = 256;
inline constexpr int kEnter = 257;
inline constexpr int kTab = 258;
inline constexpr int kBackspace = 259;
inline constexpr int kInsert = 260;
inline constexpr int kDelete = 261;
inline constexpr int kRight = 262;
inline constexpr int kLeft = 263;
inline constexpr int kDown = 264;
inline constexpr int kUp = 265;
inline constexpr int kPageUp = 266;
inline constexpr int kPageDown = 267;
inline constexpr int kHome = 268;
inline constexpr int kEnd = 269;
inline constexpr int kCapsLock = 280;
inline constexpr int kF1 = 290;  // F1..F25 follow each other
inline constexpr int kF25 = 314;
inline constexpr int kKeypad0 = 320;  // Keypad 0..9 follow each other
inline constexpr int kKeypadDecimal = 330;
inline constexpr int kKeypadDivide = 331;
inline constexpr int kKeypadMultiply = 332;
inline constexpr int kKeypadSubtract = 333;
inline constexpr int kKeypadAdd = 334;
inline constexpr int kKeypadEnter = 335;
inline constexpr int kLeftShift = 340;
inline constexpr int kLeftControl = 341;
inline constexpr int kLeftAlt = 342;
inline constexpr int kRightShift = 344;
inline constexpr int kRightControl = 345;
inline constexpr int kRightAlt = 346;
inline constexpr int kLast = 348;  // no key code is larger

}  // namespace keycode

// Gamepad inputs: 0..14 are the pad's buttons (GLFW's gamepad mapping), then the left stick's four directions and the
// two triggers, read as buttons past a threshold.
enum PadInput : int {
  kPadA = 0,
  kPadB = 1,
  kPadX = 2,
  kPadY = 3,
  kPadLeftBumper = 4,
  kPadRightBumper = 5,
  kPadBack = 6,
  kPadStart = 7,
  kPadGuide = 8,
  kPadLeftThumb = 9,
  kPadRightThumb = 10,
  kPadUp = 11,
  kPadRight = 12,
  kPadDown = 13,
  kPadLeft = 14,
  kPadStickLeft = 15,
  kPadStickRight = 16,
  kPadStickUp = 17,
  kPadStickDown = 18,
  kPadTriggerLeft = 19,
  kPadTriggerRight = 20,
};
inline constexpr int kPadInputCount = 21;

}  // namespace sr::client
