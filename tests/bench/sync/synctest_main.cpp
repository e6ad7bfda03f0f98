// stackrace-synctest: the synctest (tests/sync/README.md) at benchmark size. Plays random games through the client's
// race session and the server's referee and prints one summary line.
//
//   stackrace-synctest                          10,000 games, game seeds 1..10000, one thread per core
//   stackrace-synctest --seed 4711 --games 1 -v one game (a seed a mismatch named), with what it exercised
//
// Exit status: 0 every game agreed, 1 a mismatch (the first ones are printed), 2 bad arguments.
#include "tests/sync/synctest.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

using sr::synctest::SyncResult;
using sr::synctest::SyncTally;

struct Run {
  std::uint64_t first_seed = 1;
  std::uint64_t games = 10'000;
  sr::synctest::PlanOptions options;
  bool verbose = false;
};

// Worker threads take game seeds in turn; each keeps its own tally, merged at the end, so the totals do not depend
// on the number of threads. Mismatches are printed by seed, also independent of the threads.
SyncTally play(const Run& run, unsigned threads, std::vector<std::pair<std::uint64_t, std::string>>& mismatches) {
  std::atomic<std::uint64_t> next{0};
  std::mutex mutex;
  std::vector<SyncTally> tallies(threads);
  std::vector<std::thread> workers;
  for (unsigned i = 0; i < threads; ++i) {
    workers.emplace_back([&, i] {
      for (std::uint64_t k = next++; k < run.games; k = next++) {
        const std::uint64_t seed = run.first_seed + k;
        const SyncResult r = sr::synctest::run_synctest_game(seed, run.options);
        tallies[i].add(r);
        if (!run.verbose && r.ok()) continue;
        const std::lock_guard lock(mutex);
        if (run.verbose) {
          std::printf("game seed %llu: %s; %s\n", static_cast<unsigned long long>(seed),
                      sr::synctest::describe(r.config).c_str(), sr::synctest::describe(r).c_str());
        }
        if (!r.ok()) mismatches.emplace_back(seed, *r.mismatch);
      }
    });
  }
  for (std::thread& w : workers) w.join();
  SyncTally total;
  for (const SyncTally& t : tallies) total.merge(t);
  std::sort(mismatches.begin(), mismatches.end());
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "stackrace-synctest: random games played by the client's race session (RaceView) and refereed by the server's "
      "RacerReferee, with hostile frame cadences, stalls and late messages; every state-hash report and the final "
      "games are compared (tests/sync/README.md)."};
  Run run;
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::int64_t max_game_s = run.options.max_game_us / 1'000'000;
  app.add_option("--games", run.games, "how many games")->capture_default_str()->check(CLI::Range(1, 1'000'000'000));
  app.add_option("--seed", run.first_seed, "the first game seed; games use seeds S..S+N-1")->capture_default_str();
  app.add_option("--threads", threads, "worker threads (default: one per core)")->check(CLI::Range(1, 256));
  app.add_option("--max-game-seconds", max_game_s, "game time after which a game that has not ended stops")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600));
  app.add_option("--bot-percent", run.options.bot_percent, "share of games the real bot plays (the rest: random)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  app.add_flag("-v,--verbose", run.verbose, "one line per game: its config and what it exercised");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  run.options.max_game_us = max_game_s * 1'000'000;
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, run.games));

  const auto start = std::chrono::steady_clock::now();
  std::vector<std::pair<std::uint64_t, std::string>> mismatches;
  const SyncTally tally = play(run, threads, mismatches);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (std::size_t i = 0; i < mismatches.size() && i < SyncTally::kKeptMismatches; ++i) {
    std::printf("MISMATCH: %s\n", mismatches[i].second.c_str());
  }
  std::printf("synctest: %s, %.1f s\n", tally.summary().c_str(), seconds);
  return tally.mismatches == 0 ? 0 : 1;
}
