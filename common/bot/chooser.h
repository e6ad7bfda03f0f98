// Choosing a placement: every placement of the active piece and of the hold alternative is valued by the
// evaluation; the best few are then looked at one piece further (the first preview piece, or the hold piece), and
// ranked by the best the board allows after that piece too.
//
// # Determinism
// The ranking depends only on the view and the settings. Ties keep the search's order (current piece before the
// hold alternative), so equal inputs always give equal rankings.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/bot/bitboard.h"
#include "common/bot/evaluation.h"
#include "common/bot/search.h"
#include "common/bot/weights.h"
#include "common/engine/game.h"

namespace sr::bot {

// What the bot knows at a decision, read from the game's public state.
struct BotView {
  Bitboard board;
  PieceState active;             // the piece out now, where it is
  Piece hold = Piece::kNone;     // the hold slot
  bool hold_enabled = false;     // the rules allow hold at all
  bool can_hold = false;         // hold is enabled and not used yet for this piece
  std::array<Piece, 8> queue{};  // the preview, next piece first
  int queue_length = 0;          // how many of queue[] the game shows
  PlayContext context;
  SearchOptions options;
  std::int32_t soft_drop_us_per_row = 0;  // how long soft drop takes per row now (for path costs)
};

// The view of `game`, which must have a piece out. `instant_gravity_us`: see search_options_for.
[[nodiscard]] BotView view_of(const engine::Game& game, std::int32_t instant_gravity_us = kInstantGravityUsPerRow);

// Where `piece` appears when it spawns on `board` (the engine's spawn position, one row lower if it fits there), or
// nothing when it cannot spawn (block out).
[[nodiscard]] std::optional<PieceState> spawn_state(const Bitboard& board, Piece piece);

struct ChooserSettings {
  int lookahead = 1;             // 0: judge each placement alone; 1: also by the best follow-up of the next piece
  int lookahead_width = 8;       // how many of the best placements get the follow-up look
  bool tucks = true;             // search the current piece with soft-drop tucks and spins (else drops from above)
  bool lookahead_tucks = false;  // the same for the follow-up piece (slower, rarely changes the choice)
};

struct Candidate {
  bool hold = false;  // the placement is of the hold alternative (press hold first)
  Placement placement;
  std::int64_t value = 0;      // what the ranking is by
  std::int64_t immediate = 0;  // the placement alone: lock reward + board value
};

class Chooser {
 public:
  // All placements of the active piece and the hold alternative, best first. Valid until the next rank().
  std::span<const Candidate> rank(const BotView& view, const Weights& weights, const ChooserSettings& settings);
  // The search that found candidates with this `hold` flag in the last rank(), for paths.
  [[nodiscard]] const PlacementSearch& search(bool hold) const { return hold ? alternative_ : current_; }
  // The piece the hold alternative places in the last rank() (kNone if there was none).
  [[nodiscard]] Piece alternative_piece() const { return alternative_piece_; }

 private:
  struct Next {
    Piece piece = Piece::kNone;  // the piece out after this placement
    Piece swap = Piece::kNone;   // what hold would give instead (kNone: not known or not allowed)
  };
  void add_candidates(const BotView& view, const Weights& weights, bool hold, std::span<const Placement> placements);
  [[nodiscard]] std::int64_t follow_up(const Bitboard& board, const PlayContext& context, const Next& next,
                                       const BotView& view, const Weights& weights, const ChooserSettings& settings);
  [[nodiscard]] std::int64_t best_placement(const Bitboard& board, const PlayContext& context, Piece piece,
                                            const BotView& view, const Weights& weights, bool tucks);

  PlacementSearch current_, alternative_, ahead_;
  Piece alternative_piece_ = Piece::kNone;
  std::vector<Candidate> candidates_;
  std::vector<Bitboard> boards_;       // board after each candidate, same index
  std::vector<PlayContext> contexts_;  // context after each candidate
  std::vector<std::int64_t> locks_;    // lock reward of each candidate
  std::vector<std::uint16_t> order_;
  std::vector<Candidate> sorted_;
};

}  // namespace sr::bot
