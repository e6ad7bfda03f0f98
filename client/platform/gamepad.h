// Gamepads through GLFW's gamepad API (SDL-style mappings). GLFW has no gamepad events: the main thread reads the
// first pad (read_first_gamepad) every 1 ms while a game moves, else every 16 ms (Window::run_events), and queues
// each change as an event (InputType::kPads, stamped then); the render thread turns those into changes of single
// inputs (Gamepads, pad_state.h).
#pragma once

#include <cstdint>
#include <optional>

#include "client/platform/pad_state.h"

namespace sr::client {

// Main thread (GLFW): the first connected gamepad's inputs held now, as PadInput bits; nullopt when none is.
[[nodiscard]] std::optional<std::uint32_t> read_first_gamepad();

}  // namespace sr::client
