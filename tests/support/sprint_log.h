// The sprint logs of the engine benchmark (tests/bench/engine_bench.cpp): a greedy hard-drop player's whole 40-line
// games. tests/engine/behaviour_pin_test.cpp pins the games these logs play, so the benchmark measures exactly the
// work whose outcome is pinned; a change here changes the benchmark's workload and the pinned digests together.
#pragma once

#include <climits>
#include <cstdint>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/game.h"
#include "common/engine/input.h"
#include "common/engine/pieces.h"
#include "common/engine/random.h"

namespace sr::test {

// The config the sprint logs are played with: a 40-line sprint with ARR 0.
inline engine::GameConfig sprint_log_config() {
  engine::GameConfig config = engine::make_sprint(40);
  config.handling.arr_us = 0;
  return config;
}

namespace detail {

// Higher is better: lines cleared, few holes, a low and flat stack.
inline int sprint_evaluate(const engine::Matrix& m, int cleared) {
  using engine::kMatrixHeight;
  using engine::kMatrixWidth;
  int holes = 0, height_sum = 0, bump = 0, prev = -1, max_h = 0;
  for (int x = 0; x < kMatrixWidth; ++x) {
    int h = 0;
    for (int y = kMatrixHeight - 1; y >= 0; --y) {
      if (m.occupied(x, y)) {
        h = y + 1;
        break;
      }
    }
    for (int y = 0; y < h; ++y) holes += !m.occupied(x, y);
    height_sum += h;
    max_h = h > max_h ? h : max_h;
    if (prev >= 0) bump += h > prev ? h - prev : prev - h;
    prev = h;
  }
  return cleared * 200 - holes * 400 - height_sum * 5 - bump * 20 - max_h * 10;
}

}  // namespace detail

// A greedy hard-drop player's game of sprint_log_config() with `seed`: for each piece it tries every rotation and
// column on a copy of the game and keeps the placement that clears most lines and leaves the flattest, hole-free
// stack; it reaches it with rotation taps, direction taps and a hard drop. Gaps between changes are random
// (10..59 ms on a 1 ms grid), as a person's would be. Ends when the game does (or after 400 pieces).
inline std::vector<engine::InputChange> sprint_log(std::uint64_t seed) {
  using namespace engine;
  Game game(sprint_log_config(), seed);
  Random gaps(seed);
  std::vector<InputChange> log;
  TimeUs t = 0;
  auto apply = [&](Game& g, TimeUs at, Buttons b, std::vector<InputChange>* out) {
    (void)g.update(at, b);
    if (out) out->push_back({at, b});
  };
  // Plays one placement: rotation presses, DAS to a wall then taps back, hard drop.
  auto play = [&](Game& g, TimeUs& at, int turns, int target_x, std::vector<InputChange>* out) {
    Random local = gaps;  // trials and the real play see the same gaps
    auto gap = [&local] { return static_cast<TimeUs>(10 + local.below(50)) * 1000; };
    if (turns == 3) {
      apply(g, at, button::kRotateCcw, out);
      at += gap();
      apply(g, at, 0, out);
      at += gap();
    } else {
      for (int i = 0; i < turns; ++i) {
        apply(g, at, button::kRotateCw, out);
        at += gap();
        apply(g, at, 0, out);
        at += gap();
      }
    }
    for (int guard = 0; guard < 12; ++guard) {
      const auto a = g.active();
      if (!a) break;
      int min_x = 10;
      for (const Cell c : piece_cells(a->piece, a->rotation)) min_x = a->x + c.x < min_x ? a->x + c.x : min_x;
      if (min_x == target_x) break;
      apply(g, at, min_x < target_x ? button::kMoveRight : button::kMoveLeft, out);
      at += gap();
      apply(g, at, 0, out);
      at += gap();
    }
    apply(g, at, button::kHardDrop, out);
    at += gap();
    apply(g, at, 0, out);
    at += gap();
  };
  while (!game.over() && game.stats().pieces < 400) {
    int best = INT32_MIN, best_turns = 0, best_x = 0;
    for (int turns = 0; turns < 4; ++turns) {
      for (int x = 0; x < kMatrixWidth; ++x) {
        Game trial = game;
        TimeUs at = t;
        const std::int64_t lines_before = trial.stats().lines;
        play(trial, at, turns, x, nullptr);
        if (trial.stats().pieces != game.stats().pieces + 1 && !trial.over()) continue;
        const int score =
            detail::sprint_evaluate(trial.matrix(), static_cast<int>(trial.stats().lines - lines_before)) -
            (trial.state().top_out != TopOut::kNone ? 1'000'000 : 0);
        if (score > best) {
          best = score;
          best_turns = turns;
          best_x = x;
        }
      }
    }
    play(game, t, best_turns, best_x, &log);
    (void)gaps.next();
  }
  return log;
}

}  // namespace sr::test
