#include "common/bot/evaluation.h"

#include <algorithm>

#include "common/engine/scoring.h"

namespace sr::bot {

using engine::SpinKind;

LockResult lock_piece(Bitboard& board, const PieceState& s) {
  LockResult r;
  const PieceMask& m = piece_mask(s.piece, s.rotation);
  r.lock_out = s.y + m.min_y >= engine::kVisibleRows;
  board.place(s.piece, s.rotation, s.x, s.y);
  r.lines = board.clear_full_rows();
  r.perfect_clear = r.lines > 0 && board.empty();
  return r;
}

PlayContext next_context(const PlayContext& before, std::int32_t lines, SpinKind spin) {
  PlayContext c = before;
  if (lines > 0) {
    c.combo = before.combo + 1;
    c.b2b_chain = engine::is_difficult_clear(lines, spin) ? before.b2b_chain + 1 : 0;
  } else {
    c.combo = -1;
  }
  return c;
}

std::int64_t lock_value(const LockResult& lock, SpinKind spin, Piece piece, const PlayContext& before,
                        const PathCost& cost, const Weights& w) {
  if (lock.lock_out) return w.death;
  const int lines = lock.lines;
  std::int64_t v = 0;
  switch (spin) {
    case SpinKind::kFull: v += lines <= 3 ? w.tspin[static_cast<std::size_t>(lines)] : w.clear[4]; break;
    case SpinKind::kMini:
      v += lines <= 2 ? w.mini[static_cast<std::size_t>(lines)] : w.clear[static_cast<std::size_t>(lines)];
      break;
    case SpinKind::kNone: v += w.clear[static_cast<std::size_t>(lines)]; break;
  }
  if (lock.perfect_clear) v += w.perfect_clear;
  if (lines > 0) {
    const bool difficult = engine::is_difficult_clear(lines, spin);
    if (difficult && before.b2b_chain > 0) v += w.b2b_clear;
    if (!difficult && before.b2b_chain > 0) v += w.b2b_break;
    if (before.combo >= 0) v += std::int64_t{w.combo} * (before.combo + 1);
  }
  if (piece == Piece::kT && !(spin != SpinKind::kNone && lines > 0)) v += w.wasted_t;
  v += std::int64_t{w.soft_drop_ms} * cost.soft_drop_ms;
  v += std::int64_t{w.actions} * cost.actions;
  return v;
}

std::int64_t board_value(const BoardFeatures& f, const Weights& w) {
  std::int64_t v = 0;
  v += std::int64_t{w.height} * f.aggregate_height;
  v += std::int64_t{w.max_height} * f.max_height;
  v += std::int64_t{w.top_half} * std::max(0, f.max_height - 10);
  v += std::int64_t{w.top_quarter} * std::max(0, f.max_height - 15);
  v += std::int64_t{w.holes} * f.holes;
  v += std::int64_t{w.hole_rows} * f.hole_rows;
  v += std::int64_t{w.covered} * f.covered;
  v += std::int64_t{w.bumpiness} * f.bumpiness;
  v += std::int64_t{w.bumpiness_sq} * f.bumpiness_sq;
  v += std::int64_t{w.row_transitions} * f.row_transitions;
  v += std::int64_t{w.col_transitions} * f.col_transitions;
  v += std::int64_t{w.well_depth} * std::min(f.well_depth, w.well_cap);
  if (f.well_depth >= 1) v += w.well_column[static_cast<std::size_t>(f.well_column)];
  v += std::int64_t{w.deep_wells} * f.deep_wells;
  v += std::int64_t{w.tslot} * f.tslots;
  return v;
}

std::int64_t board_value(const Bitboard& board, const Weights& w) {
  int preferred = -1;
  for (int c = 0; c < engine::kMatrixWidth; ++c) {
    if (preferred < 0 ||
        w.well_column[static_cast<std::size_t>(c)] > w.well_column[static_cast<std::size_t>(preferred)]) {
      preferred = c;
    }
  }
  return board_value(measure(board, preferred), w);
}

}  // namespace sr::bot
