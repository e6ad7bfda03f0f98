#include "common/bot/search.h"

#include <algorithm>
#include <cassert>

#include "common/engine/rotation.h"
#include "common/engine/scoring.h"

namespace sr::bot {

using engine::SpinKind;

SearchOptions search_options_for(const engine::GameConfig& config, std::int32_t level,
                                 std::int32_t instant_gravity_us) {
  SearchOptions o;
  o.rotation = config.rotation;
  o.allow_180 = config.allow_180;
  o.all_spin = config.all_spin;
  o.arr_zero = config.handling.arr_us == 0;
  // Key changes are 1 ms apart, so a tap holds at least 1 ms: if the key repeats sooner, a tap is impossible.
  o.taps = first_repeat_us(config.handling) >= 2000;
  const bool instant =
      config.gravity == engine::Gravity::k20G || engine::gravity_us_per_row(level) <= instant_gravity_us;
  o.model = instant ? MoveModel::kInstantGravity : MoveModel::kStatic;
  return o;
}

PlacementSearch::PlacementSearch() { placements_.reserve(256); }

PieceState PlacementSearch::node_state(int index) const {
  PieceState s;
  s.piece = start_.piece;
  s.x = static_cast<std::int8_t>(index % kWidth - kXOffset);
  s.y = static_cast<std::int8_t>((index / kWidth) % kHeight - kYOffset);
  s.rotation = static_cast<Rotation>(index / (kWidth * kHeight));
  return s;
}

PieceState PlacementSearch::fall(PieceState s) const {
  s.y = static_cast<std::int8_t>(board_->drop_y(s.piece, s.rotation, s.x, s.y));
  return s;
}

std::span<const Placement> PlacementSearch::run(const Bitboard& board, const PieceState& start,
                                                const SearchOptions& options) {
  board_ = &board;
  options_ = options;
  placements_.clear();
  queue_end_ = 0;
  if (++generation_ == 0) {
    seen_.fill(0);
    final_seen_.fill(0);
    generation_ = 1;
  }
  start_ = start;
  if (!fits(start)) return {};
  PieceState s = start;
  if (options_.model == MoveModel::kStatic) {
    // Above the stack only the walls matter, and they are the same at every height; 4 rows of margin cover the
    // deepest kick (2 rows down) twice over.
    const int low = board.height() + 4;
    if (s.y > low) s.y = static_cast<std::int8_t>(low);
  } else {
    s = fall(s);
  }
  start_ = s;
  const int index = node_index(s.rotation, s.x, s.y);
  seen_[static_cast<std::size_t>(index)] = generation_;
  parent_[static_cast<std::size_t>(index)] = static_cast<std::uint16_t>(index);
  kick_[static_cast<std::size_t>(index)] = 0;
  depth_[static_cast<std::size_t>(index)] = 0;
  soft_rows_[static_cast<std::size_t>(index)] = 0;
  queue_[static_cast<std::size_t>(queue_end_++)] = static_cast<std::uint16_t>(index);
  for (int head = 0; head < queue_end_; ++head) expand(queue_[static_cast<std::size_t>(head)]);
  return placements_;
}

void PlacementSearch::expand(int node) {
  const PieceState s = node_state(node);
  const std::uint8_t kick = kick_[static_cast<std::size_t>(node)];
  if (options_.model == MoveModel::kStatic) {
    const PieceState landed = fall(s);
    add_final(node, landed, landed.y == s.y ? spin_at(s, kick) : SpinKind::kNone, false, Action::kLeft);
    expand_static(node, s);
  } else {
    add_final(node, s, spin_at(s, kick), false, Action::kLeft);
    expand_instant(node, s);
  }
}

void PlacementSearch::rotations(int node, const PieceState& s, bool then_fall) {
  if (!engine::piece_turns(options_.rotation, s.piece)) return;  // O, except under Ocular
  struct Turn {
    Action action;
    Rotation to;
    bool half;
  };
  const Turn turns[3] = {{Action::kRotateCw, engine::rotate_cw(s.rotation), false},
                         {Action::kRotateCcw, engine::rotate_ccw(s.rotation), false},
                         {Action::kRotate180, engine::rotate_180(s.rotation), true}};
  for (const Turn& turn : turns) {
    if (turn.half && !options_.allow_180) continue;
    const auto kicks = engine::kick_offsets(options_.rotation, s.piece, s.rotation, turn.to);
    for (std::size_t i = 0; i < kicks.size(); ++i) {
      PieceState cand{s.piece, turn.to, static_cast<std::int8_t>(s.x + kicks[i].x),
                      static_cast<std::int8_t>(s.y + kicks[i].y)};
      if (!fits(cand)) continue;
      auto kick = static_cast<std::uint8_t>(1 + engine::kick_record(options_.rotation, turn.half, i));
      if (then_fall) {
        const PieceState landed = fall(cand);
        if (landed.y != cand.y) kick = 0;  // falling after the turn: the engine no longer counts it as rotated
        cand = landed;
      }
      visit(node, turn.action, cand, kick, 0);
      break;
    }
  }
}

void PlacementSearch::expand_static(int node, const PieceState& s) {
  rotations(node, s, false);
  for (const int dir : {-1, 1}) {
    PieceState t = s;
    t.x = static_cast<std::int8_t>(t.x + dir);
    if (!fits(t)) continue;
    if (options_.taps) visit(node, dir < 0 ? Action::kLeft : Action::kRight, t, 0, 0);
    PieceState further = t;
    for (;;) {
      further.x = static_cast<std::int8_t>(further.x + dir);
      if (!fits(further)) break;
      t = further;
    }
    visit(node, dir < 0 ? Action::kDasLeft : Action::kDasRight, t, 0, 0);
  }
  if (options_.tucks) {
    const PieceState landed = fall(s);
    if (landed.y < s.y) visit(node, Action::kSoftDrop, landed, 0, s.y - landed.y);
  }
}

void PlacementSearch::expand_instant(int node, const PieceState& s) {
  rotations(node, s, true);
  for (const int dir : {-1, 1}) {
    PieceState t = s;
    t.x = static_cast<std::int8_t>(t.x + dir);
    if (!fits(t)) continue;
    t = fall(t);
    if (options_.taps) visit(node, dir < 0 ? Action::kLeft : Action::kRight, t, 0, 0);
    // Auto-shift: one column per repeat with a fall after each (ARR > 0), or a slide to the wall then a fall.
    for (;;) {
      PieceState further = t;
      further.x = static_cast<std::int8_t>(further.x + dir);
      if (!fits(further)) break;
      if (options_.arr_zero) {
        for (;;) {
          PieceState next = further;
          next.x = static_cast<std::int8_t>(next.x + dir);
          if (!fits(next)) break;
          further = next;
        }
      }
      t = fall(further);
    }
    visit(node, dir < 0 ? Action::kDasLeft : Action::kDasRight, t, 0, 0);
  }
}

void PlacementSearch::visit(int from, Action action, const PieceState& to, std::uint8_t kick, int soft_rows) {
  const auto index = static_cast<std::size_t>(node_index(to.rotation, to.x, to.y));
  if (seen_[index] == generation_) {
    // A turn into a state already reached another way can still be a spin, which scores differently.
    if (kick != 0 && (to.piece == Piece::kT || options_.all_spin) && grounded(to)) {
      const SpinKind spin = spin_at(to, kick);
      if (spin != SpinKind::kNone) add_final(from, to, spin, true, action);
    }
    return;
  }
  const auto f = static_cast<std::size_t>(from);
  seen_[index] = generation_;
  parent_[index] = static_cast<std::uint16_t>(from);
  action_[index] = action;
  kick_[index] = kick;
  depth_[index] = static_cast<std::uint8_t>(std::min(255, depth_[f] + 1));
  soft_rows_[index] = static_cast<std::uint8_t>(std::min(255, soft_rows_[f] + soft_rows));
  queue_[static_cast<std::size_t>(queue_end_++)] = static_cast<std::uint16_t>(index);
}

void PlacementSearch::add_final(int node, const PieceState& lock_at, SpinKind spin, bool has_last, Action last) {
  const PieceMask& m = piece_mask(lock_at.piece, lock_at.rotation);
  const int canonical = node_index(m.canonical, lock_at.x + m.canonical_dx, lock_at.y + m.canonical_dy);
  const auto key = static_cast<std::size_t>(2 * canonical + (spin != SpinKind::kNone ? 1 : 0));
  if (final_seen_[key] == generation_) return;
  final_seen_[key] = generation_;
  const auto n = static_cast<std::size_t>(node);
  Placement p;
  p.state = lock_at;
  p.spin = spin;
  p.actions = static_cast<std::uint8_t>(std::min(255, depth_[n] + (has_last ? 1 : 0)));
  p.soft_drop_rows = soft_rows_[n];
  p.node = static_cast<std::uint16_t>(node);
  p.has_last = has_last;
  p.last = last;
  placements_.push_back(p);
}

// The engine's rule (game_piece.cpp detect_spin), for a piece whose last successful action was the turn `kick`
// describes (0: not a turn).
SpinKind PlacementSearch::spin_at(const PieceState& s, std::uint8_t kick) const {
  if (kick == 0) return SpinKind::kNone;
  const Bitboard& b = *board_;
  if (s.piece == Piece::kT) {
    const bool corner[4] = {b.occupied(s.x, s.y), b.occupied(s.x + 2, s.y), b.occupied(s.x, s.y + 2),
                            b.occupied(s.x + 2, s.y + 2)};
    constexpr int kFront[4][2] = {{2, 3}, {3, 1}, {0, 1}, {0, 2}};
    const auto r = static_cast<std::size_t>(s.rotation);
    const int front = corner[kFront[r][0]] + corner[kFront[r][1]];
    const int all = corner[0] + corner[1] + corner[2] + corner[3];
    const int back = all - front;
    if (front == 2 && back >= 1) return SpinKind::kFull;
    if (front == 1 && back == 2) {
      return engine::kick_makes_full_tspin(static_cast<std::int8_t>(kick - 1)) ? SpinKind::kFull : SpinKind::kMini;
    }
    return SpinKind::kNone;
  }
  if (options_.all_spin && b.collides(s.piece, s.rotation, s.x, s.y + 1) &&
      b.collides(s.piece, s.rotation, s.x - 1, s.y) && b.collides(s.piece, s.rotation, s.x + 1, s.y)) {
    return SpinKind::kMini;
  }
  return SpinKind::kNone;
}

void PlacementSearch::path(const Placement& placement, std::vector<Action>& out) const {
  out.clear();
  const int start = node_index(start_.rotation, start_.x, start_.y);
  for (int n = placement.node; n != start; n = parent_[static_cast<std::size_t>(n)]) {
    out.push_back(action_[static_cast<std::size_t>(n)]);
  }
  std::reverse(out.begin(), out.end());
  if (placement.has_last) out.push_back(placement.last);
}

void PlacementSearch::path_states(const Placement& placement, std::vector<PieceState>& out) const {
  out.clear();
  const int start = node_index(start_.rotation, start_.x, start_.y);
  for (int n = placement.node; n != start; n = parent_[static_cast<std::size_t>(n)]) out.push_back(node_state(n));
  std::reverse(out.begin(), out.end());
  if (placement.has_last) out.push_back(placement.state);
}

}  // namespace sr::bot
