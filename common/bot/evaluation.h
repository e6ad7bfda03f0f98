// Board evaluation: what a placement is worth. The value of a placement is the reward of the lock itself (line
// clears, spins, back-to-back, combo, what its key path costs) plus the value of the board it leaves. All integer,
// so the same inputs give the same value on every machine.
#pragma once

#include <cstdint>

#include "common/bot/bitboard.h"
#include "common/bot/features.h"
#include "common/bot/search.h"
#include "common/bot/weights.h"
#include "common/engine/events.h"

namespace sr::bot {

// The scoring context a lock changes, with the engine's meanings (game.h GameState::combo, b2b_chain).
struct PlayContext {
  std::int32_t combo = -1;     // -1 after a lock that cleared nothing
  std::int32_t b2b_chain = 0;  // consecutive difficult clears
};

struct LockResult {
  std::int32_t lines = 0;
  bool perfect_clear = false;
  bool lock_out = false;  // every cell locked above the visible matrix: the engine ends the game
};

// Places `s` on `board` (it must fit) and clears full rows, as the engine's lock does.
LockResult lock_piece(Bitboard& board, const PieceState& s);

// The context after a lock with `lines` and `spin`, as the engine's scorer updates it.
[[nodiscard]] PlayContext next_context(const PlayContext& before, std::int32_t lines, engine::SpinKind spin);

// What the path to a placement costs: soft-drop time in milliseconds at `soft_drop_us_per_row`, and key actions.
struct PathCost {
  std::int32_t soft_drop_ms = 0;
  std::int32_t actions = 0;
};

// The reward of the lock itself (not the board it leaves): clears, spins, perfect clear, back-to-back, combo,
// wasted T, path cost; `weights.death` on a lock out.
[[nodiscard]] std::int64_t lock_value(const LockResult& lock, engine::SpinKind spin, Piece piece,
                                      const PlayContext& before, const PathCost& cost, const Weights& weights);

// The value of a board shape.
[[nodiscard]] std::int64_t board_value(const BoardFeatures& features, const Weights& weights);
[[nodiscard]] std::int64_t board_value(const Bitboard& board, const Weights& weights);

}  // namespace sr::bot
