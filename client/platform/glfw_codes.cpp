// Compile-time proof that client/input's key codes (key_codes.h) are GLFW's: the window hands GLFW's codes to the
// bindings unchanged, so each named code must equal GLFW's, and the ranges the names rely on must hold.
#include <GLFW/glfw3.h>

#include "client/input/key_codes.h"

namespace sr::client {
namespace {

static_assert(keycode::kUnknown == GLFW_KEY_UNKNOWN);
static_assert(keycode::kSpace == GLFW_KEY_SPACE);
static_assert(keycode::kApostrophe == GLFW_KEY_APOSTROPHE);
static_assert(keycode::kComma == GLFW_KEY_COMMA);
static_assert(keycode::kMinus == GLFW_KEY_MINUS);
static_assert(keycode::kPeriod == GLFW_KEY_PERIOD);
static_assert(keycode::kSlash == GLFW_KEY_SLASH);
static_assert(keycode::kSemicolon == GLFW_KEY_SEMICOLON);
static_assert(keycode::kEqual == GLFW_KEY_EQUAL);
static_assert(keycode::kLeftBracket == GLFW_KEY_LEFT_BRACKET);
static_assert(keycode::kBackslash == GLFW_KEY_BACKSLASH);
static_assert(keycode::kRightBracket == GLFW_KEY_RIGHT_BRACKET);
static_assert(keycode::kGraveAccent == GLFW_KEY_GRAVE_ACCENT);
static_assert(keycode::kEscape == GLFW_KEY_ESCAPE);
static_assert(keycode::kEnter == GLFW_KEY_ENTER);
static_assert(keycode::kTab == GLFW_KEY_TAB);
static_assert(keycode::kBackspace == GLFW_KEY_BACKSPACE);
static_assert(keycode::kInsert == GLFW_KEY_INSERT);
static_assert(keycode::kDelete == GLFW_KEY_DELETE);
static_assert(keycode::kRight == GLFW_KEY_RIGHT);
static_assert(keycode::kLeft == GLFW_KEY_LEFT);
static_assert(keycode::kDown == GLFW_KEY_DOWN);
static_assert(keycode::kUp == GLFW_KEY_UP);
static_assert(keycode::kPageUp == GLFW_KEY_PAGE_UP);
static_assert(keycode::kPageDown == GLFW_KEY_PAGE_DOWN);
static_assert(keycode::kHome == GLFW_KEY_HOME);
static_assert(keycode::kEnd == GLFW_KEY_END);
static_assert(keycode::kCapsLock == GLFW_KEY_CAPS_LOCK);
static_assert(keycode::kF1 == GLFW_KEY_F1);
static_assert(keycode::kF25 == GLFW_KEY_F25);
static_assert(keycode::kKeypad0 == GLFW_KEY_KP_0);
static_assert(keycode::kKeypadDecimal == GLFW_KEY_KP_DECIMAL);
static_assert(keycode::kKeypadDivide == GLFW_KEY_KP_DIVIDE);
static_assert(keycode::kKeypadMultiply == GLFW_KEY_KP_MULTIPLY);
static_assert(keycode::kKeypadSubtract == GLFW_KEY_KP_SUBTRACT);
static_assert(keycode::kKeypadAdd == GLFW_KEY_KP_ADD);
static_assert(keycode::kKeypadEnter == GLFW_KEY_KP_ENTER);
static_assert(keycode::kLeftShift == GLFW_KEY_LEFT_SHIFT);
static_assert(keycode::kLeftControl == GLFW_KEY_LEFT_CONTROL);
static_assert(keycode::kLeftAlt == GLFW_KEY_LEFT_ALT);
static_assert(keycode::kRightShift == GLFW_KEY_RIGHT_SHIFT);
static_assert(keycode::kRightControl == GLFW_KEY_RIGHT_CONTROL);
static_assert(keycode::kRightAlt == GLFW_KEY_RIGHT_ALT);
static_assert(keycode::kLast == GLFW_KEY_LAST);
static_assert(keycode::letter('A') == GLFW_KEY_A && keycode::letter('Z') == GLFW_KEY_Z);
static_assert(keycode::digit('0') == GLFW_KEY_0 && keycode::digit('9') == GLFW_KEY_9);
static_assert(keycode::kF1 + 24 == GLFW_KEY_F25 && keycode::kKeypad0 + 9 == GLFW_KEY_KP_9);

static_assert(kPadA == GLFW_GAMEPAD_BUTTON_A);
static_assert(kPadB == GLFW_GAMEPAD_BUTTON_B);
static_assert(kPadX == GLFW_GAMEPAD_BUTTON_X);
static_assert(kPadY == GLFW_GAMEPAD_BUTTON_Y);
static_assert(kPadLeftBumper == GLFW_GAMEPAD_BUTTON_LEFT_BUMPER);
static_assert(kPadRightBumper == GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER);
static_assert(kPadBack == GLFW_GAMEPAD_BUTTON_BACK);
static_assert(kPadStart == GLFW_GAMEPAD_BUTTON_START);
static_assert(kPadGuide == GLFW_GAMEPAD_BUTTON_GUIDE);
static_assert(kPadLeftThumb == GLFW_GAMEPAD_BUTTON_LEFT_THUMB);
static_assert(kPadRightThumb == GLFW_GAMEPAD_BUTTON_RIGHT_THUMB);
static_assert(kPadUp == GLFW_GAMEPAD_BUTTON_DPAD_UP);
static_assert(kPadRight == GLFW_GAMEPAD_BUTTON_DPAD_RIGHT);
static_assert(kPadDown == GLFW_GAMEPAD_BUTTON_DPAD_DOWN);
static_assert(kPadLeft == GLFW_GAMEPAD_BUTTON_DPAD_LEFT);
static_assert(kPadStickLeft == GLFW_GAMEPAD_BUTTON_LAST + 1, "the stick and triggers follow the pad's buttons");

}  // namespace
}  // namespace sr::client
