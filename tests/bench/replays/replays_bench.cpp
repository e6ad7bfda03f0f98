// Replay benchmarks (run by ./stackrace.sh bench): verifying 1,000 40-line sprint replays on one core (goal: under
// one second: decode + re-simulate + compare), the pieces of that, and the size per racer of a sprint replay.
//
// The 1,000 files are 25 distinct scripted-player sprints (about 100 pieces and 550 inputs each, 1 ms grid) cycled
// to 1,000 encoded buffers; each verification decodes its own bytes and re-simulates from scratch.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/input_log_codec.h"
#include "common/replay/sample/scripted_player.h"
#include "common/replay/sample/synthetic_log.h"
#include "common/replay/simulate.h"
#include "common/replay/verify.h"

namespace {

using namespace sr::replay;

constexpr int kDistinct = 25;
constexpr int kFiles = 1000;

Replay scripted_sprint(std::uint64_t seed) {
  Replay r;
  r.created_unix_ms = 1'735'689'600'000;
  r.config = sr::engine::make_sprint();
  r.seed = seed;
  sample::PlayerStyle style;
  style.seed = seed;
  const sample::PlayedGame g = sample::play_scripted(r.config, seed, style);
  Racer racer;
  racer.name = "sprinter";
  racer.inputs = g.inputs;
  r.racers.push_back(racer);
  record_racer(r, 0, g.end_us, ResultStatus::kForfeited);
  return r;
}

const std::vector<std::vector<std::uint8_t>>& sprint_files() {
  static const std::vector<std::vector<std::uint8_t>> files = [] {
    std::vector<std::vector<std::uint8_t>> distinct;
    for (int i = 0; i < kDistinct; ++i) distinct.push_back(encode_binary(scripted_sprint(5000 + i)));
    std::vector<std::vector<std::uint8_t>> out;
    for (int i = 0; i < kFiles; ++i) out.push_back(distinct[static_cast<std::size_t>(i % kDistinct)]);
    return out;
  }();
  return files;
}

void BM_Verify1000Sprints(benchmark::State& state) {
  const auto& files = sprint_files();
  std::size_t bytes = 0;
  for (const auto& f : files) bytes += f.size();
  for (auto _ : state) {
    int verified = 0;
    for (const auto& f : files) {
      Result<Replay> r = decode_binary(f);
      if (r.ok() && verify(r.value()).verdict == Verdict::kVerified) ++verified;
    }
    if (verified != kFiles) state.SkipWithError("a sprint replay did not verify");
    benchmark::DoNotOptimize(verified);
  }
  state.counters["replays"] = kFiles;
  state.counters["avg_bytes"] = static_cast<double>(bytes) / kFiles;
}
BENCHMARK(BM_Verify1000Sprints)->Unit(benchmark::kMillisecond)->MinTime(3.0);

void BM_DecodeSprint(benchmark::State& state) {
  const auto& file = sprint_files().front();
  for (auto _ : state) {
    Result<Replay> r = decode_binary(file);
    benchmark::DoNotOptimize(r.ok());
  }
}
BENCHMARK(BM_DecodeSprint)->Unit(benchmark::kMicrosecond);

void BM_SimulateSprint(benchmark::State& state) {
  Result<Replay> r = decode_binary(sprint_files().front());
  const Replay& replay = r.value();
  const sr::engine::GameConfig config = racer_config(replay, 0);
  for (auto _ : state) {
    const Simulation sim = simulate(config, replay.seed, replay.racers[0].inputs, replay.racers[0].result.stats.time_us,
                                    replay.checkpoint_every);
    benchmark::DoNotOptimize(sim.game.state_hash());
  }
}
BENCHMARK(BM_SimulateSprint)->Unit(benchmark::kMicrosecond);

void BM_EncodeSprint(benchmark::State& state) {
  Result<Replay> r = decode_binary(sprint_files().front());
  for (auto _ : state) benchmark::DoNotOptimize(encode_binary(r.value()).size());
}
BENCHMARK(BM_EncodeSprint)->Unit(benchmark::kMicrosecond);

// The size goal: a 40-line sprint at 3 pieces per second in at most 1 KB per racer. Reported as counters:
// scripted_* for the scripted player's real sprints (results and checkpoints recorded), synthetic_* for the
// open-loop realistic log of sample/synthetic_log.h (100 pieces) in a replay with sprint stats and 4 checkpoints.
void BM_SprintSize(benchmark::State& state) {
  double scripted_bytes = 0, scripted_pieces = 0, scripted_inputs = 0;
  for (int i = 0; i < kDistinct; ++i) {
    Result<Replay> r = decode_binary(sprint_files()[static_cast<std::size_t>(i)]);
    scripted_bytes += static_cast<double>(sprint_files()[static_cast<std::size_t>(i)].size());
    scripted_pieces += static_cast<double>(r.value().racers[0].result.stats.pieces);
    scripted_inputs += static_cast<double>(r.value().racers[0].inputs.size());
  }
  double synthetic_bytes = 0, synthetic_log_bytes = 0, synthetic_changes = 0;
  constexpr int kSynthetic = 20;
  for (int seed = 1; seed <= kSynthetic; ++seed) {
    Replay r;
    r.config = sr::engine::make_sprint();
    r.seed = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(seed);
    r.created_unix_ms = 1'735'689'600'000;
    Racer racer;
    racer.name = "player1";
    racer.inputs = sample::synthetic_log(100, static_cast<std::uint64_t>(seed));
    sr::engine::Stats& s = racer.result.stats;
    s.time_us = racer.inputs.back().time_us;
    s.pieces = 100;
    s.lines = 40;
    s.score = 14'000;
    s.level = 5;
    s.key_presses = static_cast<std::int64_t>(racer.inputs.size() / 2);
    s.holds = 20;
    s.singles = 12;
    s.doubles = 6;
    s.triples = 2;
    s.tetrises = 2;
    s.max_combo = 3;
    racer.result.final_hash = 0xC0FFEE0123456789ull * static_cast<std::uint64_t>(seed);
    for (int k = 1; k <= 4; ++k) {
      racer.checkpoints.push_back(
          sr::engine::Checkpoint{k * 8'333'000 + seed, 0x0123456789ABCDEFull * static_cast<std::uint64_t>(k)});
    }
    synthetic_log_bytes += static_cast<double>(encode_input_log(racer.inputs).bits.size());
    synthetic_changes += static_cast<double>(racer.inputs.size());
    r.racers.push_back(std::move(racer));
    synthetic_bytes += static_cast<double>(encode_binary(r).size());
  }
  for (auto _ : state) benchmark::DoNotOptimize(scripted_bytes);
  state.counters["scripted_bytes_per_racer"] = scripted_bytes / kDistinct;
  state.counters["scripted_pieces"] = scripted_pieces / kDistinct;
  state.counters["scripted_inputs"] = scripted_inputs / kDistinct;
  state.counters["synthetic_bytes_per_racer"] = synthetic_bytes / kSynthetic;
  state.counters["synthetic_log_bytes"] = synthetic_log_bytes / kSynthetic;
  state.counters["synthetic_changes"] = synthetic_changes / kSynthetic;
}
BENCHMARK(BM_SprintSize)->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
