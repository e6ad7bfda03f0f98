// wasm_bench (run by ./stackrace.sh bench): WebAssembly re-simulation speed as a ratio of native, on the same 1,000
// bot sprints, and the time a seek takes in a 10-minute replay.
//
// 1. The corpus: 1,000 40-line sprints played by the bot (common/bot, its default settings, seeds 1..1000) and one
//    10-minute game (ultra, 600 s), written once to CORPUS_DIR (default: sprints/ beside this program) and reused.
// 2. Native: every sprint through sr_verify (decode, re-simulate, compare: what `stackrace-replay verify` does), the
//    best of 10 rounds in CPU time (and of 10 more after node's); then 200 seeks spread over the 10-minute game, each
//    followed by sr_frame (wall clock: median, 99th percentile, max).
// 3. WebAssembly: the same under node through web/js/engine.js (tests/bench/web/wasm_bench.mjs).
// 4. The summary: both rates and their ratio.
//
// usage: wasm_bench [CORPUS_DIR]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "common/bot/bot.h"
#include "common/engine/config.h"
#include "common/engine/racer_run.h"
#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "web/wasm/api.h"

namespace {

namespace fs = std::filesystem;
namespace engine = sr::engine;
namespace replay = sr::replay;

constexpr int kSprints = 1000;
constexpr int kRounds = 10;
constexpr int kSeeks = 200;
constexpr const char* kLongGame = "ultra-600s.srr";

std::string sprint_name(int seed) { return "sprint-" + std::to_string(seed) + ".srr"; }

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

replay::Replay bot_game(const engine::GameConfig& config, std::uint64_t seed) {
  engine::RacerRun run(config, seed);
  sr::bot::Bot bot(sr::bot::BotSettings{});
  sr::bot::play_to_end(run, bot);
  replay::Replay r = replay::replay_of(config, seed, "wasm-bench", 1'700'000'000'000);
  replay::add_racer(r, run, "stackrace-bot", replay::ResultStatus::kForfeited);
  return r;
}

// Writes what is missing of the corpus (the first run takes a minute or so).
void make_corpus(const fs::path& dir) {
  fs::create_directories(dir);
  int made = 0;
  for (int seed = 1; seed <= kSprints; ++seed) {
    if (fs::exists(dir / sprint_name(seed))) continue;
    write_file(dir / sprint_name(seed), replay::encode_binary(bot_game(engine::make_sprint(), seed)));
    ++made;
  }
  if (!fs::exists(dir / kLongGame)) {
    write_file(dir / kLongGame, replay::encode_binary(bot_game(engine::make_ultra(600), 600)));
    ++made;
  }
  if (made > 0) std::cout << "wasm bench: wrote " << made << " bot games to " << dir.string() << "\n";
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The process's CPU time (user and system): far steadier than the wall clock on a machine that other builds share.
// node's process.cpuUsage() counts the same (its GC and compiler threads included).
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Best of kRounds: sr_verify on every file. -1 when a file does not verify.
double native_verify_ms(const std::vector<std::vector<std::uint8_t>>& files) {
  double best = 1e300;
  for (int round = 0; round < kRounds; ++round) {
    const double start = cpu_ms();
    for (const auto& f : files) {
      if (sr_verify(f.data(), static_cast<std::uint32_t>(f.size()), 0) != 0) {
        std::cerr << "wasm bench: a sprint does not verify natively: " << sr_message() << "\n";
        return -1;
      }
    }
    best = std::min(best, cpu_ms() - start);
  }
  return best;
}

struct SeekTimes {
  double median_ms = 0, p99_ms = 0, max_ms = 0, open_ms = 0;
};

// kSeeks seeks spread over the game in a scrambled order (a fixed stride through the time line), each followed by
// a frame, as a page does when the slider is dragged.
SeekTimes native_seeks(const std::vector<std::uint8_t>& bytes) {
  SeekTimes out;
  const double t0 = now_ms();
  const std::int32_t h = sr_open(bytes.data(), static_cast<std::uint32_t>(bytes.size()), 0);
  (void)sr_frame(h, 0);  // the cursor is made on first use: part of opening
  out.open_ms = now_ms() - t0;
  const double end = sr_end_us(h, 0);
  std::vector<double> ms;
  for (int i = 0; i < kSeeks; ++i) {
    const double t = end * static_cast<double>((i * 73) % kSeeks) / kSeeks;
    const double start = now_ms();
    (void)sr_seek_time(h, 0, t);
    (void)sr_frame(h, 0);
    ms.push_back(now_ms() - start);
  }
  sr_close(h);
  std::sort(ms.begin(), ms.end());
  out.median_ms = ms[ms.size() / 2];
  out.p99_ms = ms[ms.size() * 99 / 100];
  out.max_ms = ms.back();
  return out;
}

// The node run's result lines ("verify_ms 1234.5", "seek_median_ms ...", ...), or "" when node failed.
std::string run_node(const fs::path& dir) {
  const std::string command = std::string("'") + STACKRACE_NODE + "' '" + STACKRACE_WASM_BENCH_MJS + "' '" +
                              STACKRACE_WASM_JS + "' '" + dir.string() + "' " + std::to_string(kSprints) + " " +
                              std::to_string(kRounds) + " " + std::to_string(kSeeks) + " " + kLongGame;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[512];
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  return pclose(pipe) == 0 ? out : "";
}

double field(const std::string& text, const std::string& name) {
  const auto at = text.find(name + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + name.size() + 1));
}

// The word after `name` at the start of a line ("node v20.1.0" -> "v20.1.0").
std::string word(const std::string& text, const std::string& name) {
  const auto at = text.find(name + " ");
  if (at == std::string::npos) return "?";
  const auto from = at + name.size() + 1;
  return text.substr(from, text.find('\n', from) - from);
}

std::string fixed(double v, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::path(argv[0]).parent_path() / "sprints";
  make_corpus(dir);
  std::vector<std::vector<std::uint8_t>> files;
  std::int64_t pieces = 0, changes = 0;
  for (int seed = 1; seed <= kSprints; ++seed) {
    files.push_back(read_file(dir / sprint_name(seed)));
    auto r = replay::decode_binary(files.back());
    if (!r) {
      std::cerr << "wasm bench: " << sprint_name(seed) << ": " << r.error().describe() << "\n";
      return 1;
    }
    pieces += r.value().racers[0].result.stats.pieces;
    changes += static_cast<std::int64_t>(r.value().racers[0].inputs.size());
  }
  const std::vector<std::uint8_t> long_game = read_file(dir / kLongGame);
  auto long_replay = replay::decode_binary(long_game);
  if (!long_replay) {
    std::cerr << "wasm bench: " << kLongGame << ": " << long_replay.error().describe() << "\n";
    return 1;
  }
  const replay::Racer& long_racer = long_replay.value().racers[0];

  std::cout << "wasm bench: " << kSprints << " bot sprints (40 lines, seeds 1.." << kSprints << ": " << pieces
            << " pieces, " << changes << " changes), verified " << kRounds << " times each way, the best round kept\n";
  // Native rounds before and after node's, the best of all: other work on the machine only ever slows a round.
  const double native_before_ms = native_verify_ms(files);
  if (native_before_ms < 0) return 1;
  const SeekTimes native_seek = native_seeks(long_game);
  const std::string node = run_node(dir);
  const double native_ms = std::min(native_before_ms, native_verify_ms(files));
  const double wasm_ms = field(node, "verify_ms");
  if (wasm_ms <= 0) {
    std::cerr << "wasm bench: the node run failed:\n" << node;
    return 1;
  }
  const auto rate = [&](double ms) { return fixed(kSprints * 1000.0 / ms, 0) + " replays/s"; };
  std::cout << "native: " << fixed(native_ms, 1) << " ms for " << kSprints << " replays: " << rate(native_ms) << ", "
            << fixed(static_cast<double>(pieces) * 1000.0 / native_ms, 0) << " pieces/s\n";
  std::cout << "wasm (node " << word(node, "node") << "): " << fixed(wasm_ms, 1) << " ms for " << kSprints
            << " replays: " << rate(wasm_ms) << ", " << fixed(static_cast<double>(pieces) * 1000.0 / wasm_ms, 0)
            << " pieces/s\n";
  std::cout << "wasm/native re-simulation speed: " << fixed(native_ms / wasm_ms, 2) << " (the WebAssembly engine takes "
            << fixed(wasm_ms / native_ms, 2) << "x the native time)\n";
  std::cout << "seek in a 10-minute replay (" << long_racer.result.stats.pieces << " pieces, "
            << long_racer.inputs.size() << " changes), " << kSeeks << " seeks, each with a frame, wall clock: native "
            << "open " << fixed(native_seek.open_ms, 1) << " ms, seek median " << fixed(native_seek.median_ms, 3)
            << " ms, p99 " << fixed(native_seek.p99_ms, 3) << " ms, max " << fixed(native_seek.max_ms, 3)
            << " ms; wasm open " << fixed(field(node, "open_ms"), 1) << " ms, seek median "
            << fixed(field(node, "seek_median_ms"), 3) << " ms, p99 " << fixed(field(node, "seek_p99_ms"), 3)
            << " ms, max " << fixed(field(node, "seek_max_ms"), 3) << " ms\n";
  return 0;
}
