// A deterministic scripted player for golden replays, tests and benchmarks: it plays a real Game in closed loop
// (looks at the piece, picks a placement with placement.h, taps or holds keys on a 1 ms grid until the piece is
// there, hard drops) at about three pieces per second, and returns the input log it produced.
//
// # Reproducibility
// The log depends only on the config, the game seed, the style and the engine's behaviour. If the engine changes,
// the player still plays sensibly, so regenerated goldens stay meaningful (make-goldens, FORMAT.md).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/types.h"
#include "common/replay/replay.h"

namespace sr::replay::sample {

struct PlayerStyle {
  std::uint64_t seed = 1;                    // timing jitter and (clumsy) choices
  std::int64_t max_pieces = 0;               // stop once this many pieces locked (0: play until the game ends)
  engine::TimeUs max_time_us = 0;            // stop at this game time (0: no limit)
  bool use_hold = true;                      // consider swapping with the hold piece
  bool hold_heavy = false;                   // hold whenever it is allowed and not worse
  bool clumsy = false;                       // random placements: tops out before long
  int think_ms_min = 30, think_ms_max = 80;  // pause before a piece's first key
  int tap_ms_min = 35, tap_ms_max = 75;      // how long a tapped key stays down (kept below the DAS)
  int gap_ms_min = 8, gap_ms_max = 30;       // pause between a release and the next press
};

struct PlayedGame {
  std::vector<engine::InputChange> inputs;  // on a 1 ms grid
  engine::TimeUs end_us = 0;                // the game time the player stopped (or the game ended)
  bool game_over = false;                   // the game ended by itself (finish or top out)
};

// Plays `config` (whose handling is the player's) from `seed`. `opening` (on a 1 ms grid) is played first as
// given, for hand-made starts such as a T-spin setup; the player takes over after it.
[[nodiscard]] PlayedGame play_scripted(const engine::GameConfig& config, std::uint64_t seed, const PlayerStyle& style,
                                       std::span<const engine::InputChange> opening = {});

}  // namespace sr::replay::sample
