#include "client/bot/solo_runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <time.h>
#include <ostream>

namespace sr::botcli {

std::string seconds_text(std::int64_t us) { return milli_text(us / 1000, 3); }

std::string milli_text(std::int64_t milli, int decimals) {
  const bool negative = milli < 0;
  const std::int64_t v = negative ? -milli : milli;
  std::string s = fmt::format("{}{}", negative ? "-" : "", v / 1000);
  if (decimals <= 0) return s;
  std::string frac = fmt::format("{:03}", v % 1000);
  return s + "." + frac.substr(0, static_cast<std::size_t>(std::min(decimals, 3)));
}

std::string result_text(const engine::Game& game) {
  const engine::GameState& s = game.state();
  if (s.top_out == engine::TopOut::kBlockOut) return "topped-out(block-out)";
  if (s.top_out == engine::TopOut::kLockOut) return "topped-out(lock-out)";
  if (s.finished) return "finished";
  return "unfinished";
}

namespace {

// CPU time of this thread: a decision's cost without the time other processes took the core.
std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t pps_milli(const engine::Stats& st) {
  return st.time_us > 0 ? st.pieces * 1'000'000'000 / st.time_us : 0;
}

}  // namespace

int run_solo(const SoloOptions& options, std::ostream& out) {
  std::vector<std::int64_t> decision_ns;
  std::int64_t completed = 0, topped = 0, level15 = 0, fallbacks = 0, forfeits = 0;
  std::int64_t sum_time_us = 0, sum_score = 0, sum_lines = 0, sum_pieces = 0, sum_completed_time = 0;
  int status = 0;
  std::int64_t played = 0;
  for (std::int64_t i = 0; i < options.games; ++i) {
    const std::uint64_t seed = options.first_seed + static_cast<std::uint64_t>(i);
    engine::Game game(options.config, seed);
    bot::Bot bot(options.settings);
    std::vector<bot::InputEvent> inputs;
    for (;;) {
      const bool deciding = bot.needs_decision(game);
      const std::int64_t t0 = thread_cpu_ns();
      const auto step = bot.next(game);
      if (deciding) {
        decision_ns.push_back(thread_cpu_ns() - t0);
      }
      if (!step) break;
      const auto r = game.update(step->time_us, step->buttons);
      if (r.error != engine::UpdateError::kOk) {
        out << fmt::format("seed={} internal error: the bot produced an input the engine refused\n", seed);
        return 1;
      }
      if (step->buttons) inputs.push_back(bot::InputEvent{step->time_us, *step->buttons});
    }
    ++played;
    const engine::Stats& st = game.stats();
    const bool topped_out = game.state().top_out != engine::TopOut::kNone;
    const bool done = game.state().finished && !topped_out;
    completed += done ? 1 : 0;
    topped += topped_out ? 1 : 0;
    level15 += st.level >= 15 ? 1 : 0;
    fallbacks += bot.counters().fallbacks;
    forfeits += bot.forfeited() ? 1 : 0;
    sum_time_us += st.time_us;
    sum_score += st.score;
    sum_lines += st.lines;
    sum_pieces += st.pieces;
    if (done) sum_completed_time += st.time_us;
    if (options.per_game_lines) {
      out << fmt::format("seed={} result={} time={}s lines={} score={} pieces={} pps={} level={} keys={} fallbacks={}\n",
                         seed, bot.forfeited() ? "forfeit" : result_text(game), seconds_text(st.time_us), st.lines,
                         st.score, st.pieces, milli_text(pps_milli(st)), st.level, st.key_presses,
                         bot.counters().fallbacks);
    }
    if (options.on_game) {
      PlayedGame pg{&options.config, seed, &game, &inputs, "stackrace-bot " + options.weights_name};
      if (!options.on_game(pg)) {
        status = 1;
        break;
      }
    }
  }
  if (played == 0) return status;
  std::sort(decision_ns.begin(), decision_ns.end());
  auto pct = [&](std::size_t p) -> std::int64_t {
    if (decision_ns.empty()) return 0;
    return decision_ns[std::min(decision_ns.size() - 1, decision_ns.size() * p / 100)];
  };
  std::int64_t sum_ns = 0;
  for (const auto v : decision_ns) sum_ns += v;
  const std::int64_t mean_ns = decision_ns.empty() ? 0 : sum_ns / static_cast<std::int64_t>(decision_ns.size());
  engine::Stats total;
  total.time_us = sum_time_us;
  total.pieces = sum_pieces;
  out << fmt::format(
      "aggregate: mode={} weights={} games={} completed={} ({}%) topped_out={} reached_level_15={} ({}%) "
      "mean_time={}s mean_completed_time={}s mean_lines={} mean_score={} pps={} decisions={} "
      "decision_median={}ms decision_mean={}ms decision_p99={}ms fallbacks={} forfeits={}\n",
      engine::mode_name(options.config.mode), options.weights_name, played, completed,
      milli_text(completed * 100'000 / played, 1), topped, level15, milli_text(level15 * 100'000 / played, 1),
      seconds_text(sum_time_us / played), seconds_text(completed > 0 ? sum_completed_time / completed : 0),
      milli_text(sum_lines * 1000 / played, 1), milli_text(sum_score * 1000 / played, 1), milli_text(pps_milli(total)),
      decision_ns.size(), milli_text(pct(50) / 1000, 3), milli_text(mean_ns / 1000, 3), milli_text(pct(99) / 1000, 3),
      fallbacks, forfeits);
  return status;
}

}  // namespace sr::botcli
