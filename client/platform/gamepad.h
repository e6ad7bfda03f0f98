// Gamepads through GLFW's gamepad API (SDL-style mappings). GLFW has no gamepad events: the main thread reads the
// first pad (read_first_gamepad) as often as Window::set_pad_poll_s says and sends each change as an event
// (InputType::kPads, stamped then); the render thread turns those into changes of single inputs (Gamepads).
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <vector>

#include "client/input/key_names.h"

namespace sr::client {

struct PadChange {
  int input = 0;  // PadInput
  bool down = false;
};

// Main thread (GLFW): the first connected gamepad's inputs held now, as PadInput bits; nullopt when none is.
[[nodiscard]] std::optional<std::uint32_t> read_first_gamepad();

// Render thread: what the pad events say is held.
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
