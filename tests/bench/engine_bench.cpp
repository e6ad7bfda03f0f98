// Engine throughput: button changes per second on realistic randomised logs, and whole 40-line games re-simulated
// from their logs. Goals (issue 2): >= 5 million button changes per second per core, a 40-line game < 100 us.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/pieces.h"
#include "common/engine/random.h"

namespace sr::engine {
namespace {

struct Change {
  TimeUs time_us;
  Buttons buttons;
};

// A player-like log: taps of moves and rotations with a hard drop per piece, 1 ms grid, ~3 pieces per second.
std::vector<Change> realistic_log(std::uint64_t seed, int pieces) {
  Random rng(seed);
  std::vector<Change> log;
  TimeUs t = 50'000;
  auto tap = [&](Buttons b, TimeUs hold_ms) {
    log.push_back({t, b});
    t += hold_ms * 1000;
    log.push_back({t, 0});
    t += (20 + rng.below(60)) * 1000;
  };
  constexpr Buttons kMoves[] = {button::kMoveLeft, button::kMoveRight};
  constexpr Buttons kTurns[] = {button::kRotateCw, button::kRotateCcw, button::kRotate180};
  for (int p = 0; p < pieces; ++p) {
    if (rng.below(8) == 0) tap(button::kHold, 40);
    if (rng.below(3) != 0) tap(kTurns[rng.below(3)], 40 + rng.below(30));
    const std::uint32_t moves = rng.below(4);
    for (std::uint32_t m = 0; m < moves; ++m) tap(kMoves[rng.below(2)], 30 + rng.below(200));
    if (rng.below(6) == 0) tap(button::kSoftDrop, 100 + rng.below(300));
    tap(button::kHardDrop, 30 + rng.below(30));
  }
  return log;
}

// A greedy hard-drop player: for each piece, tries every rotation and column on a copy of the game, keeps the
// placement that clears most lines and leaves the flattest, hole-free stack. Produces a real 40-line sprint log.
int evaluate(const Matrix& m, int cleared) {
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

// Gaps between changes are random (10..59 ms on a 1 ms grid), as a person's would be.
std::vector<Change> sprint_log(std::uint64_t seed) {
  GameConfig config = make_sprint(40);
  config.handling.arr_us = 0;
  Game game(config, seed);
  Random gaps(seed);
  std::vector<Change> log;
  TimeUs t = 0;
  auto apply = [&](Game& g, TimeUs at, Buttons b, std::vector<Change>* out) {
    (void)g.update(at, b);
    if (out) out->push_back({at, b});
  };
  // Plays one placement: rotation presses, DAS to a wall then taps back, hard drop.
  auto play = [&](Game& g, TimeUs& at, int turns, int target_x, std::vector<Change>* out) {
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
        const int score = evaluate(trial.matrix(), static_cast<int>(trial.stats().lines - lines_before)) -
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

// Random taps of every button (holds, rotations, soft drops) on an endless game: games top out and restart, so this
// also covers spawning, block outs and line clears under messy input.
void BM_ButtonChangesRandomTaps(benchmark::State& state) {
  const std::vector<Change> log = realistic_log(7, 2000);
  const GameConfig config = make_endless();
  std::int64_t changes = 0;
  for (auto _ : state) {
    Game game(config, 42);
    for (const Change& c : log) {
      if (game.over()) break;
      benchmark::DoNotOptimize(game.update(c.time_us, c.buttons));
      ++changes;
    }
  }
  state.counters["changes_per_s"] = benchmark::Counter(static_cast<double>(changes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ButtonChangesRandomTaps);

// Player-like sprint logs from 8 seeds, each a full 40-line game (gravity, lock delay and DAS all active).
void BM_ButtonChangesSprintLogs(benchmark::State& state) {
  std::vector<std::vector<Change>> logs;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) logs.push_back(sprint_log(seed));
  GameConfig config = make_sprint(40);
  config.handling.arr_us = 0;
  std::int64_t changes = 0;
  for (auto _ : state) {
    for (std::uint64_t i = 0; i < logs.size(); ++i) {
      Game game(config, i + 1);
      for (const Change& c : logs[i]) benchmark::DoNotOptimize(game.update(c.time_us, c.buttons));
      changes += static_cast<std::int64_t>(logs[i].size());
    }
  }
  state.counters["changes_per_s"] = benchmark::Counter(static_cast<double>(changes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ButtonChangesSprintLogs)->Unit(benchmark::kMicrosecond);

void BM_Sprint40Resimulate(benchmark::State& state) {
  const std::uint64_t seed = 3;
  const std::vector<Change> log = sprint_log(seed);
  GameConfig config = make_sprint(40);
  config.handling.arr_us = 0;
  std::int64_t lines = 0;
  for (auto _ : state) {
    Game game(config, seed);
    for (const Change& c : log) benchmark::DoNotOptimize(game.update(c.time_us, c.buttons));
    lines = game.stats().lines;
  }
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["changes"] = static_cast<double>(log.size());
}
BENCHMARK(BM_Sprint40Resimulate)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sr::engine

BENCHMARK_MAIN();
