// The realistic input log behind the size goal (1 KB per racer for a 40-line sprint, FORMAT.md "Size"), generated
// open loop (no game): per piece 0-2 taps of a move key held 40-90 ms, 0-1 rotation taps, one hard drop tap, with
// gaps that keep the rate at 3 pieces per second, all on a 1 ms grid.
#pragma once

#include <cstdint>
#include <vector>

#include "common/replay/replay.h"

namespace sr::replay::sample {

[[nodiscard]] std::vector<engine::InputChange> synthetic_log(int pieces, std::uint64_t seed);

}  // namespace sr::replay::sample
