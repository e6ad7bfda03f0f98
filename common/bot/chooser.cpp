#include "common/bot/chooser.h"

#include <algorithm>

#include "common/engine/scoring.h"

namespace sr::bot {

BotView view_of(const engine::Game& game, std::int32_t instant_gravity_us) {
  const engine::GameConfig& config = game.config();
  const engine::GameState& state = game.state();
  BotView v;
  v.board = Bitboard(game.matrix());
  const engine::ActivePiece a = state.active;
  v.active = PieceState{a.piece, a.rotation, a.x, a.y};
  v.hold = game.hold();
  v.hold_enabled = config.hold_enabled;
  v.can_hold = config.hold_enabled && !state.hold_used;
  const auto preview = game.preview();
  v.queue_length = static_cast<int>(preview.size());
  std::copy(preview.begin(), preview.end(), v.queue.begin());
  v.context = PlayContext{state.combo, state.b2b_chain};
  v.options = search_options_for(config, state.stats.level, instant_gravity_us);
  const std::int32_t gravity = engine::gravity_us_per_row(state.stats.level);
  if (config.gravity != engine::Gravity::k20G && config.handling.sdf > 0) {
    v.soft_drop_us_per_row = std::max(1, gravity / config.handling.sdf);
  }
  return v;
}

std::optional<PieceState> spawn_state(const Bitboard& board, Piece piece) {
  const engine::Cell pos = engine::spawn_position(piece);
  PieceState s{piece, Rotation::kNorth, pos.x, pos.y};
  if (board.collides(s.piece, s.rotation, s.x, s.y)) return std::nullopt;
  if (!board.collides(s.piece, s.rotation, s.x, s.y - 1)) --s.y;
  return s;
}

void Chooser::add_candidates(const BotView& view, const Weights& weights, bool hold,
                             std::span<const Placement> placements) {
  for (const Placement& p : placements) {
    Bitboard board = view.board;
    const LockResult lock = lock_piece(board, p.state);
    PathCost cost;
    cost.soft_drop_ms = static_cast<std::int32_t>(std::int64_t{p.soft_drop_rows} * view.soft_drop_us_per_row / 1000);
    cost.actions = p.actions + (hold ? 1 : 0);
    const std::int64_t lock_part = lock_value(lock, p.spin, p.state.piece, view.context, cost, weights);
    Candidate c;
    c.hold = hold;
    c.placement = p;
    c.immediate = lock_part + board_value(board, weights);
    // Without a look further, at least make sure the next piece can still come out.
    const Piece next = hold ? (view.hold == Piece::kNone ? (view.queue_length > 1 ? view.queue[1] : Piece::kNone)
                                                         : (view.queue_length > 0 ? view.queue[0] : Piece::kNone))
                            : (view.queue_length > 0 ? view.queue[0] : Piece::kNone);
    if (next != Piece::kNone && !spawn_state(board, next)) c.immediate = weights.death;
    c.value = c.immediate;
    candidates_.push_back(c);
    boards_.push_back(board);
    contexts_.push_back(next_context(view.context, lock.lines, p.spin));
    locks_.push_back(lock_part);
  }
}

std::span<const Candidate> Chooser::rank(const BotView& view, const Weights& weights, const ChooserSettings& settings) {
  candidates_.clear();
  boards_.clear();
  contexts_.clear();
  locks_.clear();
  SearchOptions options = view.options;
  options.tucks = settings.tucks;
  add_candidates(view, weights, false, current_.run(view.board, view.active, options));

  alternative_piece_ = Piece::kNone;
  if (view.can_hold) {
    const Piece alt = view.hold != Piece::kNone ? view.hold : (view.queue_length > 0 ? view.queue[0] : Piece::kNone);
    // Swapping a piece for an equal one changes nothing.
    const bool pointless = alt == view.active.piece && view.hold != Piece::kNone;
    if (alt != Piece::kNone && !pointless) {
      if (const auto start = spawn_state(view.board, alt)) {
        alternative_piece_ = alt;
        add_candidates(view, weights, true, alternative_.run(view.board, *start, options));
      }
    }
  }

  order_.resize(candidates_.size());
  for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<std::uint16_t>(i);
  auto by_value = [this](std::uint16_t a, std::uint16_t b) { return candidates_[a].value > candidates_[b].value; };
  std::stable_sort(order_.begin(), order_.end(), by_value);

  if (settings.lookahead > 0 && !order_.empty()) {
    const std::size_t width = std::min(order_.size(), static_cast<std::size_t>(std::max(1, settings.lookahead_width)));
    for (std::size_t k = 0; k < width; ++k) {
      Candidate& c = candidates_[order_[k]];
      if (c.immediate <= weights.death) continue;
      Next next;
      const int n = view.queue_length;
      if (!c.hold) {
        next.piece = n > 0 ? view.queue[0] : Piece::kNone;
        if (view.hold_enabled)
          next.swap = view.hold != Piece::kNone ? view.hold : (n > 1 ? view.queue[1] : Piece::kNone);
      } else if (view.hold == Piece::kNone) {
        next.piece = n > 1 ? view.queue[1] : Piece::kNone;
        next.swap = view.active.piece;
      } else {
        next.piece = n > 0 ? view.queue[0] : Piece::kNone;
        next.swap = view.active.piece;
      }
      const std::size_t i = order_[k];
      c.value = locks_[i] + follow_up(boards_[i], contexts_[i], next, view, weights, settings);
    }
    // The looked-at placements first, by their looked-ahead value; the rest keep their order behind them.
    std::stable_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(width), by_value);
  }

  sorted_.clear();
  for (const std::uint16_t i : order_) sorted_.push_back(candidates_[i]);
  candidates_.swap(sorted_);
  return candidates_;
}

std::int64_t Chooser::follow_up(const Bitboard& board, const PlayContext& context, const Next& next,
                                const BotView& view, const Weights& weights, const ChooserSettings& settings) {
  if (next.piece == Piece::kNone) return board_value(board, weights);
  std::int64_t best = best_placement(board, context, next.piece, view, weights, settings.lookahead_tucks);
  if (next.swap != Piece::kNone && next.swap != next.piece) {
    best = std::max(best, best_placement(board, context, next.swap, view, weights, settings.lookahead_tucks));
  }
  return best;
}

std::int64_t Chooser::best_placement(const Bitboard& board, const PlayContext& context, Piece piece,
                                     const BotView& view, const Weights& weights, bool tucks) {
  const auto start = spawn_state(board, piece);
  if (!start) return weights.death;
  SearchOptions options = view.options;
  options.tucks = tucks;
  std::int64_t best = weights.death;
  for (const Placement& p : ahead_.run(board, *start, options)) {
    Bitboard after = board;
    const LockResult lock = lock_piece(after, p.state);
    PathCost cost;
    cost.soft_drop_ms = static_cast<std::int32_t>(std::int64_t{p.soft_drop_rows} * view.soft_drop_us_per_row / 1000);
    cost.actions = p.actions;
    const std::int64_t v = lock_value(lock, p.spin, piece, context, cost, weights) + board_value(after, weights);
    best = std::max(best, v);
  }
  return best;
}

}  // namespace sr::bot
