// The replay viewer's seek on a 10-minute game: the issue asks to jump anywhere in a 10-minute replay in under 50 ms.
// The game is a 600-second ultra the bot plays at 3 PPS (about 1,800 pieces), written and opened as a .srr.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>

#include "bot/replay_out.h"
#include "client/replay/replay_viewer.h"
#include "common/bot/bot.h"
#include "common/engine/racer_run.h"
#include "common/engine/random.h"

namespace {

using namespace sr;

client::ReplayViewer& ten_minute_viewer() {
  static std::unique_ptr<client::ReplayViewer> viewer = [] {
    const engine::GameConfig config = engine::make_ultra(600);
    const std::uint64_t seed = 11;
    engine::RacerRun run(config, seed);
    bot::BotSettings settings;
    settings.pps_milli = 3000;
    bot::Bot player(settings);
    bot::play_to_end(run, player);
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "stackrace-viewer-bench.srr";
    auto out = botcli::ReplayOut::open(file.string(), false);
    if (!out.ok() || !out.value().write(botcli::PlayedGame{&config, seed, &run, "viewer_bench", false}, std::cerr)) {
      std::abort();
    }
    auto v = std::make_unique<client::ReplayViewer>();
    if (auto opened = v->open(file); !opened) {
      std::cerr << opened.error() << "\n";
      std::abort();
    }
    std::filesystem::remove(file);
    return v;
  }();
  return *viewer;
}

// Seeks to random positions across the whole game (forward and backward jumps alike).
void BM_SeekAnywhereInTenMinutes(benchmark::State& state) {
  client::ReplayViewer& viewer = ten_minute_viewer();
  engine::Random rng(7);
  const auto end = viewer.end_us();
  for (auto _ : state) {
    const auto at = static_cast<engine::TimeUs>(rng.below(static_cast<std::uint32_t>(end / 1000))) * 1000;
    benchmark::DoNotOptimize(viewer.seek(at));
  }
  state.counters["game_s"] = static_cast<double>(end) / 1e6;
  state.counters["pieces"] = static_cast<double>(viewer.games().front().stats().pieces);
}
BENCHMARK(BM_SeekAnywhereInTenMinutes)->Unit(benchmark::kMillisecond);

// The worst case: from the start to the very end.
void BM_SeekStartToEnd(benchmark::State& state) {
  client::ReplayViewer& viewer = ten_minute_viewer();
  for (auto _ : state) {
    viewer.seek(0);
    benchmark::DoNotOptimize(viewer.seek(viewer.end_us()));
  }
}
BENCHMARK(BM_SeekStartToEnd)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
