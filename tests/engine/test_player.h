// A crude player that records realistic input logs for the determinism tests: for each piece it picks a
// placement a simple evaluation likes (lines, holes, height), then reaches it by pressing and releasing buttons at
// random times: taps and held directions (DAS/ARR), all three rotation buttons, soft drops held through gravity and
// lock delay, hard drops, holds, and some stray presses. It plays its own Game to see the pieces, so the log is a
// genuine game; the tests then replay the log in different ways.
#pragma once

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/pieces.h"
#include "common/engine/random.h"

namespace sr::engine::test {

struct Change {
  TimeUs t;
  Buttons buttons;
};

class Player {
 public:
  Player(const GameConfig& config, std::uint64_t seed) : game_(config, seed), rng_(seed * 0x9E37 + 1) {}

  // Plays until `pieces` have locked, the game ends, or the log holds `max_changes` changes.
  std::vector<Change> play(int pieces, std::size_t max_changes = 4000) {
    while (game_.stats().pieces < pieces && !game_.over() && log_.size() < max_changes) {
      if (!game_.active()) {
        if (chance(10)) tap(stray_button());
        wait(rng_.below(60'000));
        continue;
      }
      place_one();
    }
    return log_;
  }

 private:
  bool chance(std::uint32_t percent) { return rng_.below(100) < percent; }
  void wait(TimeUs dt) {
    t_ += dt;
    (void)game_.update(t_);
  }
  void set(Buttons held) {
    if (held == held_) return;
    held_ = held;
    log_.push_back({t_, held_});
    (void)game_.update(t_, held_);
  }
  void tap(Buttons b) {
    set(static_cast<Buttons>(held_ | b));
    wait(rng_.below(40'000));
    set(static_cast<Buttons>(held_ & ~b));
    wait(rng_.below(40'000));
  }
  Buttons stray_button() { return static_cast<Buttons>(1u << rng_.below(8)); }

  // Cheap evaluation of locking the active piece at (rotation, x) dropped from its current row.
  int evaluate(Rotation r, int x) const {
    const ActivePiece a = *game_.active();
    Matrix m = game_.matrix();
    if (m.collides(a.piece, r, x, a.y)) return INT32_MIN;
    int y = a.y;
    while (!m.collides(a.piece, r, x, y - 1)) --y;
    m.place(a.piece, r, x, y);
    const int lines = std::popcount(m.clear_full_rows());
    int holes = 0, total = 0, bumps = 0, highest = 0, previous = -1;
    for (int cx = 0; cx < kMatrixWidth; ++cx) {
      int height = 0;
      for (int cy = kMatrixHeight - 1; cy >= 0; --cy) {
        if (m.occupied(cx, cy)) {
          height = std::max(height, cy + 1);
        } else if (height > 0) {
          ++holes;
        }
      }
      total += height;
      highest = std::max(highest, height);
      if (previous >= 0) bumps += std::abs(height - previous);
      previous = height;
    }
    return lines * 20 - holes * 60 - total * 2 - bumps * 3 - highest * 2;
  }

  void place_one() {
    const ActivePiece start = *game_.active();
    Rotation best_r = start.rotation;
    int best_x = start.x, best = INT32_MIN;
    for (int r = 0; r < 4; ++r) {
      for (int x = -2; x < kMatrixWidth; ++x) {
        const int value = evaluate(static_cast<Rotation>(r), x);
        if (value == INT32_MIN) continue;
        const int score = value + static_cast<int>(rng_.below(chance(10) ? 40 : 4));
        if (score > best) best = score, best_r = static_cast<Rotation>(r), best_x = x;
      }
    }
    if (chance(4)) tap(button::kHold);
    const int turns = (static_cast<int>(best_r) - static_cast<int>(start.rotation) + 4) % 4;
    if (turns == 1) tap(button::kRotateCw);
    if (turns == 2 && chance(50)) tap(button::kRotate180);
    if (turns == 2 && game_.active() && game_.active()->rotation != best_r)
      tap(button::kRotateCw), tap(button::kRotateCw);
    if (turns == 3) tap(button::kRotateCcw);
    move_to(best_x);
    drop();
  }

  void move_to(int x) {
    for (int guard = 0; guard < 12 && game_.active() && game_.active()->x != x; ++guard) {
      const int from = game_.active()->x;
      const Buttons dir = from < x ? button::kMoveRight : button::kMoveLeft;
      if (chance(30)) {  // hold the direction and let DAS/ARR carry the piece
        set(static_cast<Buttons>(held_ | dir));
        for (int step = 0; step < 60 && game_.active() && game_.active()->x != x; ++step) wait(1 + rng_.below(8'000));
        set(static_cast<Buttons>(held_ & ~dir));
      } else {
        tap(dir);
      }
      if (!game_.active() || game_.active()->x == from) break;
    }
  }

  void drop() {
    if (!game_.active()) return;
    const std::uint32_t how = rng_.below(100);
    if (how < 70) {
      if (chance(10)) tap(stray_button());
      tap(button::kHardDrop);
    } else if (how < 90) {  // hold soft drop, maybe through the lock delay
      set(static_cast<Buttons>(held_ | button::kSoftDrop));
      wait(rng_.below(700'000));
      set(static_cast<Buttons>(held_ & ~button::kSoftDrop));
      if (game_.active() && chance(50)) tap(button::kHardDrop);
    } else {  // let gravity and the lock delay do it, within reason
      const std::int64_t pieces = game_.stats().pieces;
      for (int i = 0; i < 40 && game_.stats().pieces == pieces && !game_.over(); ++i) wait(rng_.below(300'000));
      if (game_.stats().pieces == pieces && game_.active()) tap(button::kHardDrop);
    }
  }

  Game game_;
  Random rng_;
  TimeUs t_ = 0;
  Buttons held_ = 0;
  std::vector<Change> log_;
};

}  // namespace sr::engine::test
