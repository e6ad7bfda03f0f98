// The gamepad as the render thread knows it: the main thread reads the pad (gamepad.h) and queues what it holds
// (InputType::kPads); Gamepads turns those into changes of single inputs and this frame's presses. Pure: unit tested.
#pragma once

#include <bitset>
#include <cstdint>
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

  // A frame begins: pressed() counts presses from here.
  void new_frame() { pressed_.reset(); }
  // The pad now holds `bits` (PadInput bits; `connected` false: no pad). Returns what changed since the last update.
  [[nodiscard]] std::vector<PadChange> update(std::uint32_t bits, bool connected);
  // Whether `input` went down in this frame (for menus).
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
