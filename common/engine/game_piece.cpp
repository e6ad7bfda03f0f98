// The active piece: spawning, hold, movement, rotation, gravity, lock down, and what a lock does.
#include "common/engine/game.h"

#include <algorithm>

#include "common/engine/bits.h"
#include "common/engine/rotation.h"
#include "common/engine/scoring.h"

namespace sr::engine {

bool Game::fits(const ActivePiece& p) const { return !state_.matrix.collides(p.piece, p.rotation, p.x, p.y); }

bool Game::grounded() const {
  const ActivePiece& a = state_.active;
  return state_.matrix.collides(a.piece, a.rotation, a.x, a.y - 1);
}

std::int32_t Game::fall_interval_us() const {
  const std::int32_t gravity = gravity_us_per_row(state_.stats.level);
  const std::int32_t sdf = config_.handling.sdf;
  if ((state_.held & button::kSoftDrop) && sdf > 0) return std::max(1, gravity / sdf);
  return gravity;
}

Piece Game::pop_queue() {
  auto& q = state_.queue;
  const Piece p = q[0];
  std::copy(q.begin() + 1, q.end(), q.begin());
  q.back() = state_.generator.next(config_.fixed_sequence);
  return p;
}

void Game::spawn(TimeUs t, Piece piece, bool after_hold) {
  GameState& s = state_;
  const Cell pos = spawn_position(piece);
  s.active = ActivePiece{piece, Rotation::kNorth, pos.x, pos.y};
  s.phase = Phase::kFalling;
  s.lowest_y = s.active.y;
  s.lock_started = s.lock_on_landing = false;
  s.lock_resets = 0;
  s.ground_since = kNever;
  s.ground_time_us = 0;
  s.last_rotated = false;
  s.last_kick = 0;
  s.lock_timer_at = s.fall_at = kNever;
  if (!fits(s.active)) {
    top_out(t, TopOut::kBlockOut);
    return;
  }
  Event e;
  e.time_us = t;
  e.kind = EventKind::kSpawn;
  e.piece = piece;
  e.x = s.active.x;
  e.y = s.active.y;
  emit(e);

  // Initial hold / rotation (IHS / IRS): presses kept from the spawn delay.
  Buttons initial = s.pending_initial;
  s.pending_initial = 0;
  if (!after_hold && (initial & button::kHold) && config_.hold_enabled) {
    s.pending_initial = static_cast<Buttons>(initial & ~button::kHold);
    do_hold(t);  // spawns again, applying the kept rotations
    return;
  }
  if (initial & button::kRotateCcw) (void)turn_with_kicks(rotate_ccw(s.active.rotation));
  if (initial & button::kRotateCw) (void)turn_with_kicks(rotate_cw(s.active.rotation));
  if ((initial & button::kRotate180) && config_.allow_180) (void)turn_with_kicks(rotate_180(s.active.rotation));

  // Guideline: the piece drops one row at once if it can.
  ActivePiece lower = s.active;
  --lower.y;
  if (fits(lower)) s.active = lower;
  s.lowest_y = std::min(s.lowest_y, s.active.y);
  s.fall_at = t + fall_interval_us();

  resume_shift(t);
  // DAS cut delay: auto-shift pauses for a moment after a spawn.
  const std::int32_t dcd = config_.handling.dcd_us;
  if (dcd > 0 && s.das_dir != 0) {
    if (s.das_charged) {
      s.das_charged = false;
      s.shift_at = t + dcd;
    } else if (s.shift_at != kNever) {
      s.shift_at = std::max(s.shift_at, t + dcd);
    }
  }
  settle(t);
}

void Game::do_hold(TimeUs t) {
  GameState& s = state_;
  if (!config_.hold_enabled || s.hold_used || s.phase != Phase::kFalling) return;
  const Piece current = s.active.piece;
  const Piece next = s.hold == Piece::kNone ? pop_queue() : s.hold;
  s.hold = current;
  s.hold_used = true;
  ++s.stats.holds;
  Event e;
  e.time_us = t;
  e.kind = EventKind::kHold;
  e.piece = current;
  emit(e);
  spawn(t, next, true);
}

bool Game::turn_with_kicks(Rotation to) {
  GameState& s = state_;
  const ActivePiece a = s.active;
  if (!piece_turns(config_.rotation, a.piece)) return false;
  const bool half_turn = to == rotate_180(a.rotation);
  const auto kicks = kick_offsets(config_.rotation, a.piece, a.rotation, to);
  for (std::size_t i = 0; i < kicks.size(); ++i) {
    const ActivePiece cand{a.piece, to, static_cast<std::int8_t>(a.x + kicks[i].x),
                           static_cast<std::int8_t>(a.y + kicks[i].y)};
    if (fits(cand)) {
      s.active = cand;
      s.last_rotated = true;
      s.last_kick = kick_record(config_.rotation, half_turn, i);
      return true;
    }
  }
  return false;
}

bool Game::try_rotate(TimeUs t, Rotation to) {
  if (state_.phase != Phase::kFalling || !turn_with_kicks(to)) return false;
  if (state_.active.y < state_.lowest_y) {
    reach_new_lowest();
  } else {
    const std::int64_t serial = state_.stats.pieces;
    note_move(t);
    if (state_.stats.pieces != serial) return true;  // the move locked the piece
  }
  settle(t);
  return true;
}

bool Game::try_move(TimeUs t, int dx) {
  GameState& s = state_;
  if (s.phase != Phase::kFalling || dx == 0) return false;
  ActivePiece cand = s.active;
  cand.x = static_cast<std::int8_t>(cand.x + dx);
  if (!fits(cand)) return false;
  s.active = cand;
  s.last_rotated = false;
  const std::int64_t serial = s.stats.pieces;
  note_move(t);
  if (s.stats.pieces == serial) settle(t);
  return true;
}

void Game::shift_to_wall(TimeUs t) {
  GameState& s = state_;
  if (s.phase != Phase::kFalling || s.das_dir == 0) return;
  ActivePiece cand = s.active;
  bool moved = false;
  for (;;) {
    ActivePiece further = cand;
    further.x = static_cast<std::int8_t>(further.x + s.das_dir);
    if (!fits(further)) break;
    cand = further;
    moved = true;
  }
  if (!moved) return;
  s.active = cand;
  s.last_rotated = false;
  const std::int64_t serial = s.stats.pieces;
  note_move(t);  // one slide counts as one move
  if (s.stats.pieces == serial) settle(t);
}

void Game::reach_new_lowest() {
  GameState& s = state_;
  s.lowest_y = s.active.y;
  s.lock_resets = 0;
  s.lock_started = false;
  s.lock_on_landing = false;
  s.lock_timer_at = kNever;
  s.ground_time_us = 0;
  if (s.ground_since != kNever) s.ground_since = kNever;
}

// A successful move or rotation that did not reach a new lowest row: the lock-down rule decides what it resets.
void Game::note_move(TimeUs t) {
  GameState& s = state_;
  const bool on_ground = grounded();
  switch (config_.lock_down) {
    case LockDown::kExtended:
      if (!s.lock_started) break;
      if (s.lock_resets < config_.max_lock_resets) {
        ++s.lock_resets;
        s.lock_timer_at = on_ground ? t + config_.lock_delay_us : kNever;
      } else if (on_ground) {
        lock(t);
      } else {
        s.lock_on_landing = true;
      }
      break;
    case LockDown::kInfinite:
    case LockDown::kTimer: s.lock_timer_at = on_ground ? t + config_.lock_delay_us : kNever; break;
    case LockDown::kClassic: break;
  }
}

void Game::step_down() {
  GameState& s = state_;
  --s.active.y;
  s.last_rotated = false;
  if ((s.held & button::kSoftDrop) && config_.scoring == Scoring::kGuideline) ++s.stats.score;
  if (s.active.y < s.lowest_y) reach_new_lowest();
}

void Game::soft_drop_press(TimeUs t) {
  if (config_.handling.sdf > 0 && !grounded()) {
    step_down();
    state_.fall_at = t + fall_interval_us();
  }
  settle(t);
}

void Game::on_fall_timer(TimeUs t) {
  GameState& s = state_;
  s.fall_at = kNever;
  if (s.phase != Phase::kFalling) return;
  if (!grounded()) {
    step_down();
    s.fall_at = t + fall_interval_us();
  }
  settle(t);
}

// After the piece moved: instant drops (20G, instant soft drop), the ARR-0 slide, then touching down or leaving
// the ground. Each pass either moves the piece or stops; a piece cannot drop and slide forever in a finite matrix.
void Game::settle(TimeUs t) {
  GameState& s = state_;
  resume_shift(t);
  for (;;) {
    if (s.phase != Phase::kFalling) return;
    bool changed = false;
    const bool soft_instant = (s.held & button::kSoftDrop) && config_.handling.sdf == 0;
    if (config_.gravity == Gravity::k20G || soft_instant) {
      const bool points = soft_instant && config_.gravity != Gravity::k20G && config_.scoring == Scoring::kGuideline;
      const int rows = s.matrix.drop_distance(s.active.piece, s.active.rotation, s.active.x, s.active.y);
      if (rows > 0) {
        s.active.y = static_cast<std::int8_t>(s.active.y - rows);
        s.last_rotated = false;
        if (points) s.stats.score += rows;
        changed = true;
      }
      if (s.active.y < s.lowest_y) reach_new_lowest();
    }
    if (s.das_charged && s.das_dir != 0) {
      ActivePiece further = s.active;
      further.x = static_cast<std::int8_t>(further.x + s.das_dir);
      if (fits(further)) {
        while (fits(further)) {
          s.active = further;
          further.x = static_cast<std::int8_t>(further.x + s.das_dir);
        }
        s.last_rotated = false;
        const std::int64_t serial = s.stats.pieces;
        note_move(t);
        if (s.stats.pieces != serial) return;  // the slide locked the piece
        changed = true;
      }
    }
    if (!changed) break;
  }
  update_ground(t);
}

void Game::update_ground(TimeUs t) {
  GameState& s = state_;
  if (s.phase != Phase::kFalling) return;
  if (grounded()) {
    s.fall_at = kNever;
    if (s.ground_since == kNever) {
      s.ground_since = t;
      if (s.lock_on_landing) {
        lock(t);
        return;
      }
      s.lock_started = true;
      if (s.lock_timer_at == kNever) s.lock_timer_at = t + config_.lock_delay_us;
    }
  } else {
    if (s.ground_since != kNever) {
      s.ground_time_us += t - s.ground_since;
      s.ground_since = kNever;
    }
    if (s.fall_at == kNever) s.fall_at = t + fall_interval_us();
  }
}

void Game::on_lock_timer(TimeUs t) {
  GameState& s = state_;
  s.lock_timer_at = kNever;
  if (s.phase != Phase::kFalling) return;
  if (grounded()) {
    lock(t);
  } else {
    s.lock_on_landing = true;
  }
}

void Game::hard_drop(TimeUs t) {
  GameState& s = state_;
  const int target = ghost_y();
  const int rows = s.active.y - target;
  if (rows > 0) {
    s.active.y = static_cast<std::int8_t>(target);
    s.last_rotated = false;
    if (config_.scoring == Scoring::kGuideline) s.stats.score += 2 * rows;
  }
  Event e;
  e.time_us = t;
  e.kind = EventKind::kHardDrop;
  e.piece = s.active.piece;
  e.rows = static_cast<std::int8_t>(rows);
  emit(e);
  lock(t);
}

SpinKind Game::detect_spin() const {
  const GameState& s = state_;
  const ActivePiece& a = s.active;
  if (!s.last_rotated) return SpinKind::kNone;
  if (a.piece == Piece::kT) {
    // Corners of the 3x3 box in the order: bottom-left, bottom-right, top-left, top-right.
    const bool corner[4] = {s.matrix.occupied(a.x, a.y), s.matrix.occupied(a.x + 2, a.y),
                            s.matrix.occupied(a.x, a.y + 2), s.matrix.occupied(a.x + 2, a.y + 2)};
    // The two corners on the side the T points to, per orientation.
    constexpr int kFront[4][2] = {{2, 3}, {3, 1}, {0, 1}, {0, 2}};
    const auto r = static_cast<std::size_t>(a.rotation);
    const int front = corner[kFront[r][0]] + corner[kFront[r][1]];
    const int all = corner[0] + corner[1] + corner[2] + corner[3];
    const int back = all - front;
    if (front == 2 && back >= 1) return SpinKind::kFull;
    if (front == 1 && back == 2) return kick_makes_full_tspin(s.last_kick) ? SpinKind::kFull : SpinKind::kMini;
    return SpinKind::kNone;
  }
  if (config_.all_spin) {
    const bool stuck = s.matrix.collides(a.piece, a.rotation, a.x, a.y + 1) &&
                       s.matrix.collides(a.piece, a.rotation, a.x - 1, a.y) &&
                       s.matrix.collides(a.piece, a.rotation, a.x + 1, a.y);
    if (stuck) return SpinKind::kMini;
  }
  return SpinKind::kNone;
}

void Game::lock(TimeUs t) {
  GameState& s = state_;
  const ActivePiece a = s.active;
  const SpinKind spin = detect_spin();
  // No row is full before a lock (check_config() refuses full rows in the initial board, and every lock clears
  // them), so only a row this piece reaches can be full now: most locks need no look for full rows at all.
  const bool filled_a_row = s.matrix.place(a.piece, a.rotation, a.x, a.y);
  s.phase = Phase::kSpawnDelay;
  s.fall_at = s.lock_timer_at = kNever;
  s.ground_since = kNever;
  ++s.stats.pieces;

  Event e;
  e.time_us = t;
  e.kind = EventKind::kLock;
  e.piece = a.piece;
  e.rotation = a.rotation;
  e.x = a.x;
  e.y = a.y;
  emit(e);

  bool above = true;
  for (const Cell c : piece_cells(a.piece, a.rotation)) above = above && a.y + c.y >= kVisibleRows;
  if (above) {
    top_out(t, TopOut::kLockOut);
    return;
  }
  const int lines = score_lock(t, spin, filled_a_row ? s.matrix.clear_full_rows() : 0);
  if (s.phase == Phase::kOver) return;

  const TimeUs delay = config_.handling.are_us + (lines > 0 ? config_.handling.line_clear_delay_us : 0);
  if (delay == 0) {
    s.hold_used = false;
    spawn(t, pop_queue(), false);
  } else {
    s.spawn_at = t + delay;
  }
}

int Game::score_lock(TimeUs t, SpinKind spin, std::uint64_t rows_mask) {
  GameState& s = state_;
  bool level_limit = false;
  if (rows_mask == 0 && spin == SpinKind::kNone) {
    // Most locks: no points, no event, no level. Of the counters only the combo changes (the maxima already hold
    // what the chains reached); score_clear() does the same for such a lock.
    s.combo = -1;
  } else {
    level_limit = score_clear(t, spin, rows_mask);
  }

  const Stats& st = s.stats;
  bool done = level_limit;
  switch (config_.limit) {
    case LimitKind::kLines: done = st.lines >= config_.limit_value; break;
    case LimitKind::kPieces: done = st.pieces >= config_.limit_value; break;
    case LimitKind::kScore: done = st.score >= config_.limit_value; break;
    default: break;
  }
  if (done) finish(t);
  return count_bits(rows_mask);
}

bool Game::score_clear(TimeUs t, SpinKind spin, std::uint64_t rows_mask) {
  GameState& s = state_;
  Stats& st = s.stats;
  const int lines = count_bits(rows_mask);
  const bool perfect = lines > 0 && s.matrix.empty();
  const bool difficult = is_difficult_clear(lines, spin);

  ClearFacts f;
  f.lines = lines;
  f.spin = spin;
  f.perfect_clear = perfect;
  f.level = st.level;
  if (lines > 0) {
    s.combo += 1;
    f.b2b = difficult && s.b2b_chain > 0;
    s.b2b_chain = difficult ? s.b2b_chain + 1 : 0;
    s.tetrs_b2b = (spin != SpinKind::kNone || perfect || lines == 4) ? s.tetrs_b2b + 1 : 0;
  } else {
    s.combo = -1;
  }
  f.combo = s.combo;
  f.tetrs_b2b = s.tetrs_b2b;
  const std::int64_t points = clear_points(config_.scoring, f);
  st.score += points;
  st.lines += lines;

  if (spin == SpinKind::kFull) {
    std::int64_t* kinds[4] = {&st.tspins, &st.tspin_singles, &st.tspin_doubles, &st.tspin_triples};
    if (lines <= 3) ++*kinds[lines];
  } else if (spin == SpinKind::kMini && lines <= 2) {
    std::int64_t* kinds[3] = {&st.minis, &st.mini_singles, &st.mini_doubles};
    ++*kinds[lines];
  }
  const bool plain_counted =
      spin == SpinKind::kNone || (spin == SpinKind::kMini && lines > 2) || (spin == SpinKind::kFull && lines > 3);
  if (plain_counted && lines > 0) {
    std::int64_t* kinds[4] = {&st.singles, &st.doubles, &st.triples, &st.tetrises};
    ++*kinds[lines - 1];
  }
  if (perfect) ++st.perfect_clears;
  st.max_combo = std::max(st.max_combo, s.combo);
  st.max_b2b = std::max(st.max_b2b, s.b2b_chain - 1);

  if (lines > 0 || spin != SpinKind::kNone) {
    Event e;
    e.time_us = t;
    e.kind = EventKind::kClear;
    e.piece = s.active.piece;
    e.lines = static_cast<std::int8_t>(lines);
    e.spin = spin;
    e.b2b = f.b2b;
    e.perfect_clear = perfect;
    e.combo = std::max(0, s.combo);
    e.rows_mask = static_cast<std::int64_t>(rows_mask);
    e.points = points;
    emit(e);
  }

  bool level_limit = false;
  if (config_.level_up && lines > 0) {
    s.level_lines += lines;
    for (;;) {
      const std::int32_t need = lines_to_pass_level(config_.goal_system, st.level);
      if (s.level_lines < need) break;
      if (config_.limit == LimitKind::kLevel && st.level >= config_.limit_value) {
        level_limit = true;
        break;
      }
      s.level_lines -= need;
      ++st.level;
      Event e;
      e.time_us = t;
      e.kind = EventKind::kLevelUp;
      e.level = st.level;
      emit(e);
    }
  }
  return level_limit;
}

}  // namespace sr::engine
