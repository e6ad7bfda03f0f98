// Wall-kick tables of the rotation systems, as data. A turn tries each offset in order and takes the first where
// the turned piece fits; the first offset is always (0, 0). Offsets are (dx, dy) with y up, as in
// docs/HOWTO.md, "The SRS kick tables".
#pragma once

#include <cstdint>
#include <span>

#include "common/engine/config.h"
#include "common/engine/pieces.h"
#include "common/engine/types.h"

namespace sr::engine {

// The kick offsets to try, in order, for turning `piece` from `from` to `to` under `system`.
// Returns {(0,0)} alone for O, for the classic system, and for 180-degree turns under kSrsNo180.
// `from` and `to` must differ.
[[nodiscard]] std::span<const Cell> kick_offsets(RotationSystem system, Piece piece, Rotation from, Rotation to);

}  // namespace sr::engine
