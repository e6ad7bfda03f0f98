// Bot decision cost (issue 4: median at most 1 ms on one core with one-piece lookahead, and a cheaper setting), and
// the cost of reaching an external bot's suggestion (issue 17: ReachPlanner, per move, at 20G and levels 9-15).
//
// Positions come from real bot games (sprint, marathon, master and contest boards, several seeds): every decision
// point is kept as a Game copy. Each benchmark iteration makes one whole decision on the next position (search,
// evaluation, lookahead, input planning with its check on a game copy), and the per-decision median and 99th
// percentile are reported as counters next to Google Benchmark's mean.
#include "common/bot/bot.h"

#include <benchmark/benchmark.h>
#include <time.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/bot/weights.h"

namespace {

using namespace sr;

// CPU time of this thread, so other processes on the machine do not show up as slow decisions.
std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

struct Positions {
  std::vector<engine::Game> games;
  std::vector<const char*> weights;  // the preset the position was played with
};

void collect(Positions& out, const engine::GameConfig& config, std::uint64_t seed, const char* weights) {
  engine::Game game(config, seed);
  bot::BotSettings settings;
  settings.weights = *bot::weights_by_name(weights);
  settings.pps_milli = 3000;
  bot::Bot b(settings);
  while (true) {
    if (b.needs_decision(game)) {
      out.games.push_back(game);
      out.weights.push_back(weights);
    }
    const auto step = b.next(game);
    if (!step) break;
    (void)game.update(step->time_us, step->buttons);
  }
}

const Positions& positions() {
  static const Positions p = [] {
    Positions p;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      collect(p, engine::make_sprint(), seed, "sprint");
      collect(p, engine::make_marathon(), seed, "survival");
      collect(p, engine::make_master(), seed, "survival");
      collect(p, engine::make_contest(), seed, "contest");
    }
    return p;
  }();
  return p;
}

void run(benchmark::State& state, int lookahead, bool tucks) {
  const Positions& p = positions();
  // One bot per preset, so each position is decided with the weights of the mode it came from.
  std::vector<bot::Bot> bots;
  std::vector<std::string> names;
  for (const auto& preset : bot::weights_presets()) {
    bot::BotSettings settings;
    settings.weights = preset.weights;
    settings.chooser.lookahead = lookahead;
    settings.chooser.tucks = tucks;
    bots.emplace_back(settings);
    names.emplace_back(preset.name);
  }
  std::vector<std::size_t> bot_of(p.games.size());
  for (std::size_t i = 0; i < p.games.size(); ++i) {
    bot_of[i] = static_cast<std::size_t>(std::find(names.begin(), names.end(), p.weights[i]) - names.begin());
  }
  std::vector<std::int64_t> ns;
  ns.reserve(p.games.size() * 4);
  std::size_t i = 0;
  for (auto _ : state) {
    const engine::Game& g = p.games[i];
    const std::int64_t t0 = thread_cpu_ns();
    bots[bot_of[i]].decide(g);
    ns.push_back(thread_cpu_ns() - t0);
    i = (i + 1) % p.games.size();
  }
  std::sort(ns.begin(), ns.end());
  if (!ns.empty()) {
    state.counters["median_us"] = static_cast<double>(ns[ns.size() / 2]) / 1000.0;
    state.counters["p90_us"] = static_cast<double>(ns[ns.size() * 90 / 100]) / 1000.0;
    state.counters["p99_us"] = static_cast<double>(ns[ns.size() * 99 / 100]) / 1000.0;
    state.counters["max_us"] = static_cast<double>(ns.back()) / 1000.0;
  }
  state.counters["positions"] = static_cast<double>(p.games.size());
}

// Positions with a piece out and where that piece then locked (cells and spin), from built-in bot games at 20G and
// at marathon levels 9-15: the suggestions an external bot could make there.
struct Suggested {
  std::vector<engine::Game> games;
  std::vector<bot::ReachGoal> goals;
};

void collect_locks(Suggested& out, const engine::GameConfig& config, std::uint64_t seed) {
  engine::Game game(config, seed);
  bot::BotSettings settings;
  settings.weights = *bot::weights_by_name("survival");
  settings.pps_milli = 3000;
  bot::Bot b(settings);
  std::optional<std::size_t> open;  // the position whose lock is still to come
  while (const auto step = b.next(game)) {
    if (b.counters().decisions > 0 && !open && game.active()) {
      out.games.push_back(game);
      open = out.games.size() - 1;
    }
    const engine::UpdateResult r = game.update(step->time_us, step->buttons);
    bot::ReachGoal goal;
    bool locked = false;
    for (const engine::Event& e : r.events) {
      if (e.kind == engine::EventKind::kLock && !locked) {
        locked = true;
        goal.state = bot::PieceState{e.piece, e.rotation, e.x, e.y};
      } else if (e.kind == engine::EventKind::kClear && locked) {
        goal.spin = e.spin;
      }
    }
    if (locked && open) {
      out.goals.push_back(goal);
      open.reset();
    }
  }
  if (open) out.games.pop_back();
}

const Suggested& suggested() {
  static const Suggested s = [] {
    Suggested s;
    engine::GameConfig marathon = engine::make_marathon();
    marathon.start_level = 9;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      collect_locks(s, marathon, seed);
      collect_locks(s, engine::make_master(), seed);
    }
    return s;
  }();
  return s;
}

void BM_ReachSuggestion(benchmark::State& state) {
  const Suggested& s = suggested();
  bot::ReachPlanner planner;
  std::vector<std::int64_t> ns;
  std::int64_t unreached = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::int64_t t0 = thread_cpu_ns();
    const auto r = planner.plan(s.games[i], std::span(&s.goals[i], 1), bot::ReachRequest{});
    ns.push_back(thread_cpu_ns() - t0);
    unreached += r ? 0 : 1;
    i = (i + 1) % s.games.size();
  }
  std::sort(ns.begin(), ns.end());
  if (!ns.empty()) {
    state.counters["median_us"] = static_cast<double>(ns[ns.size() / 2]) / 1000.0;
    state.counters["p99_us"] = static_cast<double>(ns[ns.size() * 99 / 100]) / 1000.0;
    state.counters["max_us"] = static_cast<double>(ns.back()) / 1000.0;
  }
  state.counters["positions"] = static_cast<double>(s.games.size());
  state.counters["unreached"] = static_cast<double>(unreached);
}

void BM_DecisionLookahead1(benchmark::State& s) { run(s, 1, true); }
void BM_DecisionLookahead0(benchmark::State& s) { run(s, 0, true); }
void BM_DecisionCheap(benchmark::State& s) { run(s, 0, false); }
BENCHMARK(BM_DecisionLookahead1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecisionLookahead0)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_DecisionCheap)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ReachSuggestion)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
