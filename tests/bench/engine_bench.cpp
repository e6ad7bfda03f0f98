// Engine throughput: button changes per second on realistic randomised logs, and whole 40-line games re-simulated
// from their logs. Goals (issue 2): >= 5 million button changes per second per core, a 40-line game < 100 us.
// Issue 31 made the sprint logs twice as fast again; tests/bench/engine_compare.sh measures such a ratio against
// another revision in one run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/input.h"
#include "common/engine/random.h"
#include "tests/support/sprint_log.h"

namespace sr::engine {
namespace {

// A player-like log: taps of moves and rotations with a hard drop per piece, 1 ms grid, ~3 pieces per second.
std::vector<InputChange> realistic_log(std::uint64_t seed, int pieces) {
  Random rng(seed);
  std::vector<InputChange> log;
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

// Random taps of every button (holds, rotations, soft drops) on an endless game: games top out and restart, so this
// also covers spawning, block outs and line clears under messy input.
void BM_ButtonChangesRandomTaps(benchmark::State& state) {
  const std::vector<InputChange> log = realistic_log(7, 2000);
  const GameConfig config = make_endless();
  std::int64_t changes = 0;
  for (auto _ : state) {
    Game game(config, 42);
    for (const InputChange& c : log) {
      if (game.over()) break;
      benchmark::DoNotOptimize(game.update(c.time_us, c.buttons));
      ++changes;
    }
  }
  state.counters["changes_per_s"] = benchmark::Counter(static_cast<double>(changes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ButtonChangesRandomTaps);

// Player-like sprint logs from 8 seeds, each a full 40-line game (gravity, lock delay and DAS all active): the greedy
// player's games of tests/support/sprint_log.h.
void BM_ButtonChangesSprintLogs(benchmark::State& state) {
  std::vector<std::vector<InputChange>> logs;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) logs.push_back(test::sprint_log(seed));
  const GameConfig config = test::sprint_log_config();
  std::int64_t changes = 0;
  for (auto _ : state) {
    for (std::uint64_t i = 0; i < logs.size(); ++i) {
      Game game(config, i + 1);
      for (const InputChange& c : logs[i]) benchmark::DoNotOptimize(game.update(c.time_us, c.buttons));
      changes += static_cast<std::int64_t>(logs[i].size());
    }
  }
  state.counters["changes_per_s"] = benchmark::Counter(static_cast<double>(changes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ButtonChangesSprintLogs)->Unit(benchmark::kMicrosecond);

void BM_Sprint40Resimulate(benchmark::State& state) {
  const std::uint64_t seed = 3;
  const std::vector<InputChange> log = test::sprint_log(seed);
  const GameConfig config = test::sprint_log_config();
  std::int64_t lines = 0;
  for (auto _ : state) {
    Game game(config, seed);
    for (const InputChange& c : log) benchmark::DoNotOptimize(game.update(c.time_us, c.buttons));
    lines = game.stats().lines;
  }
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["changes"] = static_cast<double>(log.size());
}
BENCHMARK(BM_Sprint40Resimulate)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sr::engine

BENCHMARK_MAIN();
