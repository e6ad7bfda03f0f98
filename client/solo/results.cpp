#include "client/solo/results.h"

#include <cstdio>

namespace sr::client {

RunResult result_of(const engine::GameConfig& config, const engine::Stats& stats, bool finished, bool abandoned,
                    bool over) {
  RunResult r;
  r.goal = config.goal;
  r.limit = config.limit;
  r.completed = finished && !abandoned;
  r.abandoned = abandoned;
  r.topped_out = over && !finished && !abandoned;
  r.time_us = stats.time_us;
  r.score = stats.score;
  r.lines = stats.lines;
  r.pieces = stats.pieces;
  return r;
}

bool counts_for_best(const RunResult& run) {
  if (run.abandoned) return false;
  if (run.goal == engine::GoalKind::kTime || run.limit == engine::LimitKind::kTime) return run.completed;
  return run.completed || run.topped_out;
}

bool beats(const RunResult& run, const std::optional<RunResult>& best) {
  if (!counts_for_best(run)) return false;
  if (!best || !counts_for_best(*best)) return true;
  switch (run.goal) {
    case engine::GoalKind::kTime: return run.time_us < best->time_us;
    case engine::GoalKind::kScore: return run.score > best->score;
    case engine::GoalKind::kLines: return run.lines > best->lines;
  }
  return false;
}

std::string headline(const RunResult& r) {
  switch (r.goal) {
    case engine::GoalKind::kTime:
      return r.completed    ? format_time(r.time_us)
             : r.topped_out ? "topped out"
             : r.abandoned  ? "gave up"
                            : "did not finish";
    case engine::GoalKind::kScore: return format_count(r.score);
    case engine::GoalKind::kLines: return format_count(r.lines) + " lines";
  }
  return {};
}

RaceWinner bot_race_winner(const RunResult& player, const RunResult& bot) {
  const auto compare = [](auto ours, auto theirs, bool higher_wins) {
    if (ours == theirs) return RaceWinner::kTie;
    return (ours > theirs) == higher_wins ? RaceWinner::kPlayer : RaceWinner::kBot;
  };
  switch (player.goal) {
    case engine::GoalKind::kScore: return compare(player.score, bot.score, true);
    case engine::GoalKind::kLines: return compare(player.lines, bot.lines, true);
    case engine::GoalKind::kTime: break;
  }
  if (player.completed != bot.completed) return player.completed ? RaceWinner::kPlayer : RaceWinner::kBot;
  if (player.completed) return compare(player.time_us, bot.time_us, false);
  const bool player_on = !player.topped_out && !player.abandoned, bot_on = !bot.topped_out && !bot.abandoned;
  if (player_on != bot_on) return player_on ? RaceWinner::kPlayer : RaceWinner::kBot;
  return compare(player.time_us, bot.time_us, true);
}

std::string format_time(engine::TimeUs t) {
  if (t < 0) t = 0;
  const std::int64_t ms = t / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld.%03lld", static_cast<long long>(ms / 60000),
                static_cast<long long>(ms / 1000 % 60), static_cast<long long>(ms % 1000));
  return buf;
}

std::string format_count(std::int64_t n) {
  const bool negative = n < 0;
  std::string digits = std::to_string(negative ? -n : n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

namespace {

std::string hundredths(std::int64_t x100) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%02lld", static_cast<long long>(x100 / 100), static_cast<long long>(x100 % 100));
  return buf;
}

}  // namespace

std::string format_pps(std::int64_t pieces, engine::TimeUs t) { return hundredths(engine::pps_x100(pieces, t)); }

std::string format_kpp(std::int64_t keys, std::int64_t pieces) { return hundredths(engine::kpp_x100(keys, pieces)); }

}  // namespace sr::client
