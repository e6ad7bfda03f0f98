#include "bot/solo_runner.h"

#include <fmt/format.h>
#include <time.h>

#include <algorithm>
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

std::int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t wall_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

namespace {

std::int64_t pps_milli(std::int64_t pieces, std::int64_t time_us) {
  return time_us > 0 ? pieces * 1'000'000'000 / time_us : 0;
}

}  // namespace

void RunTally::add_game(std::uint64_t seed, const engine::Game& game, const bot::BotCounters& counters, bool forfeited,
                        std::ostream& out, std::string_view result) {
  const engine::Stats& st = game.stats();
  const bool topped_out = game.state().top_out != engine::TopOut::kNone;
  const bool done = game.state().finished && !topped_out && !forfeited;
  ++games_;
  completed_ += done ? 1 : 0;
  topped_ += topped_out ? 1 : 0;
  level15_ += st.level >= 15 ? 1 : 0;
  fallbacks_ += counters.fallbacks;
  forfeits_ += forfeited ? 1 : 0;
  slow_ += result == "slow-answer" ? 1 : 0;
  sum_time_us_ += st.time_us;
  sum_score_ += st.score;
  sum_lines_ += st.lines;
  sum_pieces_ += st.pieces;
  if (done) sum_completed_time_ += st.time_us;
  if (!options_.per_game_lines) return;
  out << fmt::format("seed={} result={} time={}s lines={} score={} pieces={} pps={} level={} keys={} fallbacks={}\n",
                     seed,
                     !result.empty() ? std::string(result)
                     : forfeited     ? "forfeit"
                                     : result_text(game),
                     seconds_text(st.time_us), st.lines, st.score, st.pieces,
                     milli_text(pps_milli(st.pieces, st.time_us)), st.level, st.key_presses, counters.fallbacks);
}

void RunTally::print(std::ostream& out, const char* decision_kind) {
  if (games_ == 0) return;
  std::sort(decision_ns_.begin(), decision_ns_.end());
  auto pct = [&](std::size_t p) -> std::int64_t {
    if (decision_ns_.empty()) return 0;
    return decision_ns_[std::min(decision_ns_.size() - 1, decision_ns_.size() * p / 100)];
  };
  std::int64_t sum_ns = 0;
  for (const auto v : decision_ns_) sum_ns += v;
  const std::int64_t mean_ns = decision_ns_.empty() ? 0 : sum_ns / static_cast<std::int64_t>(decision_ns_.size());
  out << fmt::format(
      "aggregate: mode={} weights={} games={} completed={} ({}%) topped_out={} reached_level_15={} ({}%) "
      "mean_time={}s mean_completed_time={}s mean_lines={} mean_score={} pps={} decisions={} ({}) "
      "decision_median={}ms decision_mean={}ms decision_p99={}ms fallbacks={} forfeits={}{}\n",
      engine::mode_name(options_.config.mode), options_.weights_name, games_, completed_,
      milli_text(completed_ * 100'000 / games_, 1), topped_, level15_, milli_text(level15_ * 100'000 / games_, 1),
      seconds_text(sum_time_us_ / games_), seconds_text(completed_ > 0 ? sum_completed_time_ / completed_ : 0),
      milli_text(sum_lines_ * 1000 / games_, 1), milli_text(sum_score_ * 1000 / games_, 1),
      milli_text(pps_milli(sum_pieces_, sum_time_us_)), decision_ns_.size(), decision_kind,
      milli_text(pct(50) / 1000, 3), milli_text(mean_ns / 1000, 3), milli_text(pct(99) / 1000, 3), fallbacks_,
      forfeits_, slow_ > 0 ? fmt::format(" (slow_answers={})", slow_) : std::string());
}

int run_solo(const SoloOptions& options, std::ostream& out) {
  RunTally tally(options);
  int status = 0;
  for (std::int64_t i = 0; i < options.games; ++i) {
    const std::uint64_t seed = options.first_seed + static_cast<std::uint64_t>(i);
    engine::RacerRun run(options.config, seed);
    const engine::Game& game = run.game();
    bot::Bot bot(options.settings);
    for (;;) {
      const bool deciding = bot.needs_decision(game);
      const std::int64_t t0 = thread_cpu_ns();
      const auto step = bot.next(game);
      if (deciding) tally.add_decision(thread_cpu_ns() - t0);
      if (!step) break;
      if (run.update(step->time_us, step->buttons).error != engine::UpdateError::kOk) {
        out << fmt::format("seed={} internal error: the bot produced an input the engine refused\n", seed);
        return 1;
      }
    }
    tally.add_game(seed, game, bot.counters(), false, out);
    if (options.on_game) {
      const PlayedGame played{&options.config, seed, &run, "stackrace-bot " + options.weights_name, false};
      if (!options.on_game(played)) {
        status = 1;
        break;
      }
    }
  }
  tally.print(out, "cpu time");
  return status;
}

}  // namespace sr::botcli
