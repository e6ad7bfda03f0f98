// Verify at the engine's speed (goal: ratio >= 0.85). On the same 1,000 bot sprints it measures
//   (a) the engine alone: per game a Game and one update per change, then one to the recorded end, which is the
//       least any verifier must run (decoding is done before, outside the measured time), and
//   (b) the whole `stackrace-replay verify FILE...` process over the 1,000 .srr files (its CPU time, user and system,
//       from wait4: start-up, reading, decoding, checking, simulating, comparing, printing),
// both in replays per CPU second, and prints their ratio b/a. A third figure is the engine with the state hashes a
// verifier must compare (checkpoints and the end: Game::state_hash(), the engine's own work, a fixed FNV-1a over
// about 700 bytes), and the ratio of (b) to it. Each round runs all three, one after the other, so a busy machine
// slows them alike; the best of the rounds counts. Each round also times `stackrace-replay verify` of one file, which
// is mostly the program's start-up: part of every run, and where linking a library costs (libpq, loaded at start-up,
// once took it from 0.8 to 4.2 ms).
//
// Two more figures bound what verify can reach: reading the files alone (the system calls verify makes per file:
// openat in the directory, fstat, read, close) and decoding them alone (decode_binary of bytes in memory). Beyond the
// engine alone, the goal leaves engine_time * (1 / 0.85 - 1) a sprint; these two are work every verifier of these
// files does, so where they take more than that, the goal is out of reach of this file format on this machine.
//
// The sprints are `stackrace-bot --mode sprint --seed 1 --games 1000` (seeds 1..1000), written once into the build
// directory and reused; `--sprints=DIR` measures the .srr files of another directory instead.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "common/engine/game.h"
#include "common/replay/codec.h"
#include "common/replay/replay.h"
#include "replays/store/file_io.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using namespace sr;

constexpr int kSprints = 1000;

std::string g_dir = SR_BENCH_SPRINTS_DIR;  // --sprints=DIR

std::vector<std::string> srr_files(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".srr") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct CpuTime {
  double user_s = 0;
  double system_s = 0;
  [[nodiscard]] double total_s() const { return user_s + system_s; }
};

// Runs argv[0] with its output thrown away; returns its exit code and the CPU time it took in `cpu`.
int run(const std::vector<std::string>& args, CpuTime* cpu) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(rc));
    return -1;
  }
  int status = 0;
  struct rusage usage {};
  if (::wait4(pid, &status, 0, &usage) != pid) return -1;
  if (cpu) {
    cpu->user_s = static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
    cpu->system_s = static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Sprints {
  std::vector<std::string> files;
  std::vector<std::vector<std::uint8_t>> bytes;  // each file's contents
  std::vector<replay::Replay> replays;
  std::string error;
};

const Sprints& sprints() {
  static const Sprints s = [] {
    Sprints out;
    out.files = srr_files(g_dir);
    if (out.files.empty() && g_dir == SR_BENCH_SPRINTS_DIR) {
      std::fprintf(stderr, "writing %d bot sprints to %s (once)\n", kSprints, g_dir.c_str());
      fs::create_directories(g_dir);
      const int rc = run({SR_BOT_BIN, "--mode", "sprint", "--seed", "1", "--games", std::to_string(kSprints), "--quiet",
                          "--out", g_dir + "/"},
                         nullptr);
      if (rc != 0) out.error = "stackrace-bot failed";
      out.files = srr_files(g_dir);
    }
    if (out.files.empty() && out.error.empty()) out.error = "no .srr files in " + g_dir;
    for (const std::string& f : out.files) {
      replay::Result<replay::Replay> r = replay::load_replay_file(f);
      if (!r.ok()) {
        out.error = f + ": " + r.error().describe();
        break;
      }
      out.replays.push_back(std::move(r.value()));
      std::error_code ec;
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(fs::file_size(f, ec)));
      std::FILE* in = std::fopen(f.c_str(), "rb");
      if (ec || in == nullptr || std::fread(bytes.data(), 1, bytes.size(), in) != bytes.size()) {
        out.error = "cannot read " + f;
      }
      if (in != nullptr) std::fclose(in);
      if (!out.error.empty()) break;
      out.bytes.push_back(std::move(bytes));
    }
    return out;
  }();
  return s;
}

double process_cpu_s() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// (a): every racer of every game through the engine alone. With `hashes`, also the engine's state hash wherever a
// verifier must compare one (after the call in which every checkpoint_every-th piece locked, and at the end): the
// engine's own work that no verifier can skip, shown as a third figure. Returns the pieces locked (so that nothing
// is optimised away).
std::int64_t engine_alone(const std::vector<replay::Replay>& replays, bool hashes) {
  std::int64_t pieces = 0;
  for (const replay::Replay& r : replays) {
    for (std::size_t i = 0; i < r.racers.size(); ++i) {
      engine::Game game(replay::racer_config(r, i), r.seed);
      std::int64_t next_checkpoint = r.checkpoint_every;
      for (const engine::InputChange& c : r.racers[i].inputs) {
        (void)game.update(c.time_us, c.buttons);
        if (hashes && game.stats().pieces >= next_checkpoint) {
          pieces += static_cast<std::int64_t>(game.state_hash() & 1);
          next_checkpoint += r.checkpoint_every;
        }
      }
      (void)game.update(std::max(r.racers[i].result.stats.time_us, game.now()));
      pieces += game.stats().pieces;
      if (hashes) pieces += static_cast<std::int64_t>(game.state_hash() & 1);
    }
  }
  return pieces;
}

// (c): the system calls verify makes to read each file, alone: open by name in the directory held open, fstat,
// one read, close. Returns the bytes read. (The files are all in one directory: srr_files() lists one.)
std::int64_t read_alone(const std::vector<std::string>& files) {
  std::int64_t total = 0;
  std::vector<std::uint8_t> buffer(1 << 16);
  const std::string dir = fs::path(files.front()).parent_path().string();
  const int dir_fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  for (const std::string& f : files) {
    const int fd = ::openat(dir_fd, f.c_str() + dir.size() + 1, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st {};
    if (fd < 0) continue;
    if (::fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) <= buffer.size()) {
      total += ::read(fd, buffer.data(), static_cast<std::size_t>(st.st_size));
    }
    ::close(fd);
  }
  if (dir_fd >= 0) ::close(dir_fd);
  return total;
}

// (d): every file's bytes decoded, from memory.
std::int64_t decode_alone(const std::vector<std::vector<std::uint8_t>>& bytes) {
  std::int64_t changes = 0;
  for (const std::vector<std::uint8_t>& b : bytes) {
    const replay::Result<replay::Replay> r = replay::decode_binary(b);
    if (r.ok() && !r.value().racers.empty()) changes += static_cast<std::int64_t>(r.value().racers[0].inputs.size());
  }
  return changes;
}

struct Figures {
  double engine_per_cpu_s = 0;
  double hashing_engine_per_cpu_s = 0;  // the engine with its checkpoint and final state hashes
  double verify_per_cpu_s = 0;
  double one_file_cpu_ms = 0;  // start-up and one file
  double read_us = 0;          // (c) a file
  double decode_us = 0;        // (d) a file
};
Figures g_best;

void BM_VerifyVsEngineAlone(benchmark::State& state) {
  const Sprints& s = sprints();
  if (!s.error.empty()) {
    state.SkipWithError(s.error.c_str());
    return;
  }
  const auto n = static_cast<double>(s.replays.size());
  std::vector<std::string> verify = {SR_REPLAY_BIN, "verify"};
  verify.insert(verify.end(), s.files.begin(), s.files.end());
  double best_engine_s = 1e9, best_hashing_s = 1e9;
  CpuTime best_verify{1e9, 0};
  double best_one_file_s = 1e9, best_read_s = 1e9, best_decode_s = 1e9;
  for (auto _ : state) {
    const double t0 = process_cpu_s();
    benchmark::DoNotOptimize(engine_alone(s.replays, false));
    const double t1 = process_cpu_s();
    benchmark::DoNotOptimize(engine_alone(s.replays, true));
    const double t2 = process_cpu_s();
    benchmark::DoNotOptimize(read_alone(s.files));
    const double t3 = process_cpu_s();
    benchmark::DoNotOptimize(decode_alone(s.bytes));
    const double engine_s = t1 - t0, hashing_s = t2 - t1, read_s = t3 - t2, decode_s = process_cpu_s() - t3;
    best_read_s = std::min(best_read_s, read_s);
    best_decode_s = std::min(best_decode_s, decode_s);
    CpuTime verify_cpu;
    if (run(verify, &verify_cpu) != 0) {
      // Sprints written by an earlier build verify no more after a rules change: remove the directory to rewrite them.
      state.SkipWithError(("stackrace-replay verify did not verify every file in " + g_dir).c_str());
      return;
    }
    CpuTime one_file;
    if (run({SR_REPLAY_BIN, "verify", s.files.front()}, &one_file) != 0) {
      state.SkipWithError(("stackrace-replay verify " + s.files.front() + " failed").c_str());
      return;
    }
    best_one_file_s = std::min(best_one_file_s, one_file.total_s());
    state.SetIterationTime(verify_cpu.total_s());
    best_engine_s = std::min(best_engine_s, engine_s);
    best_hashing_s = std::min(best_hashing_s, hashing_s);
    if (verify_cpu.total_s() < best_verify.total_s()) best_verify = verify_cpu;
  }
  g_best = {n / best_engine_s,     n / best_hashing_s,    n / best_verify.total_s(),
            best_one_file_s * 1e3, best_read_s / n * 1e6, best_decode_s / n * 1e6};
  state.counters["replays"] = n;
  state.counters["engine_per_cpu_s"] = g_best.engine_per_cpu_s;
  state.counters["verify_per_cpu_s"] = g_best.verify_per_cpu_s;
  state.counters["ratio"] = g_best.verify_per_cpu_s / g_best.engine_per_cpu_s;
  state.counters["hashing_engine_per_cpu_s"] = g_best.hashing_engine_per_cpu_s;
  state.counters["ratio_to_hashing"] = g_best.verify_per_cpu_s / g_best.hashing_engine_per_cpu_s;
  state.counters["one_file_cpu_ms"] = g_best.one_file_cpu_ms;
  state.counters["read_us"] = g_best.read_us;
  state.counters["decode_us"] = g_best.decode_us;
}
// The reported time is the verify process's CPU time per round.
BENCHMARK(BM_VerifyVsEngineAlone)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--sprints=", 10) == 0) {
      g_dir = argv[i] + 10;
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_best.engine_per_cpu_s > 0) {
    std::printf(
        "verify at the engine's speed: engine alone %.0f replays per CPU second, stackrace-replay verify %.0f, "
        "ratio %.2f (goal >= 0.85); the engine with its state hashes %.0f, ratio %.2f; verify of one file (mostly "
        "start-up) %.2f ms CPU\n",
        g_best.engine_per_cpu_s, g_best.verify_per_cpu_s, g_best.verify_per_cpu_s / g_best.engine_per_cpu_s,
        g_best.hashing_engine_per_cpu_s, g_best.verify_per_cpu_s / g_best.hashing_engine_per_cpu_s,
        g_best.one_file_cpu_ms);
    const double engine_us = 1e6 / g_best.engine_per_cpu_s;
    std::printf(
        "a sprint: the engine alone %.1f us; the goal leaves %.1f us beyond it; reading the file alone (openat, fstat, "
        "read, close) takes %.1f us and decoding it alone %.1f us\n",
        engine_us, engine_us * (1 / 0.85 - 1), g_best.read_us, g_best.decode_us);
  }
  return 0;
}
