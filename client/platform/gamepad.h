// Gamepads through GLFW's gamepad API (SDL-style mappings). GLFW has no gamepad events, so pads are polled once
// per frame and a change is stamped with the poll time.
#pragma once

#include <bitset>
#include <vector>

#include "client/input/key_names.h"

namespace sr::client {

struct PadChange {
  int input = 0;  // PadInput
  bool down = false;
};

class Gamepads {
 public:
  static constexpr float kStickThreshold = 0.5f;
  static constexpr float kTriggerThreshold = 0.3f;

  // Reads the first connected gamepad and returns what changed since the last poll.
  [[nodiscard]] std::vector<PadChange> poll();
  // Whether `input` went down in the last poll (for menus).
  [[nodiscard]] bool pressed(int input) const;
  // Whether `input` is held now (for menu navigation that repeats while held).
  [[nodiscard]] bool down(int input) const;
  [[nodiscard]] bool connected() const { return connected_; }

 private:
  std::bitset<kPadInputCount> down_;
  std::bitset<kPadInputCount> pressed_;
  bool connected_ = false;
};

}  // namespace sr::client
