// Wall-kick tables of the rotation systems, as data. A turn tries each offset in order and takes the first where
// the turned piece fits. Offsets are (dx, dy) with y up, applied to the piece's box position (pieces.h), as in
// docs/HOWTO.md, "The SRS kick tables" and "The Ocular kick tables".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "common/engine/config.h"
#include "common/engine/pieces.h"
#include "common/engine/types.h"

namespace sr::engine {

// The kick offsets to try, in order, for turning `piece` from `from` to `to` under `system`. Never empty.
// SRS, SRS without 180 and classic: the first offset is (0, 0); {(0,0)} alone for O, for the classic system, and for
// 180-degree turns under kSrsNo180.
// Ocular: up to 10 offsets, and the first is not always (0, 0): I, O, S and Z pieces have no fixed centre there, so
// even a free turn moves the box (O turns sideways, one column towards the turn).
// `from` and `to` must differ.
[[nodiscard]] std::span<const Cell> kick_offsets(RotationSystem system, Piece piece, Rotation from, Rotation to);

// Whether a turn of `piece` can change anything: false for O under the systems where O never turns or moves (every
// system but Ocular); the engine then ignores the turn buttons for that piece.
[[nodiscard]] constexpr bool piece_turns(RotationSystem system, Piece piece) {
  return piece != Piece::kO || system == RotationSystem::kOcular;
}

// What GameState::last_kick records for a turn that succeeded with kick test `test` (0 = the first offset):
// `test` for a 90-degree turn; for a 180-degree turn 8 + test, or 16 + test under Ocular (whose 90-degree lists are
// up to 10 long). Part of the state hash: never change an existing system's values.
[[nodiscard]] constexpr std::int8_t kick_record(RotationSystem system, bool half_turn, std::size_t test) {
  const int base = !half_turn ? 0 : system == RotationSystem::kOcular ? 16 : 8;
  return static_cast<std::int8_t>(base + static_cast<int>(test));
}

// Whether a T-spin Mini after a turn recorded as `last_kick` scores as a full T-spin: the turn used the fifth test of
// a 90-degree turn. Under SRS that is the "T-spin triple" kick (one column, two rows); under Ocular it is the drop of
// two rows on R->0, 2->R, 2->L and L->0 (into a T-spin triple slot) and a one-row diagonal drop on the other turns.
[[nodiscard]] constexpr bool kick_makes_full_tspin(std::int8_t last_kick) { return last_kick == 4; }

}  // namespace sr::engine
