// Score tables, gravity and level progression: pure functions of integers, no state.
#pragma once

#include <cstdint>

#include "common/engine/config.h"
#include "common/engine/events.h"
#include "common/engine/types.h"

namespace sr::engine {

// Microseconds per row of gravity at `level` (the guideline table, levels 1..20; higher levels use level 20's).
// Level 1 is 1,000,000; level 15 is 7,059.
[[nodiscard]] std::int32_t gravity_us_per_row(std::int32_t level);

// What one lock did, as the scorer needs it.
struct ClearFacts {
  int lines = 0;  // 0..4
  SpinKind spin = SpinKind::kNone;
  bool perfect_clear = false;
  std::int32_t level = 1;      // the level before the clear
  std::int32_t combo = -1;     // combo counter after this lock: -1 when it cleared nothing, 0 for a first clear, ...
  bool b2b = false;            // guideline back-to-back bonus applies
  std::int32_t tetrs_b2b = 0;  // tetrs: consecutive spin/perfect/quad clears including this one (0 if not one)
};

// Points for a lock under `scoring` (drop points excluded).
// Guideline: table x level, x3/2 when b2b, + 50 x combo x level, + perfect-clear bonus (800/1200/1800/2000 x level,
// 3200 x level for a back-to-back tetris), all in exact integers.
// Contest: 800/1200/1800/2000 x level for 1..4 lines. Tetrs: 10 x lines^2 x (4 if spin) x (16 if perfect) x
// (combo+1) x max(1, tetrs_b2b^2).
[[nodiscard]] std::int64_t clear_points(Scoring scoring, const ClearFacts& facts);

// Whether a clear keeps or starts a back-to-back chain under the guideline: a tetris, or a spin (full or mini)
// that cleared lines.
[[nodiscard]] constexpr bool is_difficult_clear(int lines, SpinKind spin) {
  return lines == 4 || (lines > 0 && spin != SpinKind::kNone);
}

// Lines needed to pass `level` under the goal system (10, or 5 x level).
[[nodiscard]] std::int32_t lines_to_pass_level(GoalSystem goals, std::int32_t level);

}  // namespace sr::engine
