// What a finished run achieved, how runs compare, and how numbers are written on screen.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/engine/config.h"
#include "common/engine/stats.h"

namespace sr::client {

struct RunResult {
  engine::GoalKind goal = engine::GoalKind::kTime;
  engine::LimitKind limit = engine::LimitKind::kLines;  // what ends the game besides a top-out
  bool completed = false;   // reached the mode's limit (a finished sprint, the end of an ultra); not topped out
  bool abandoned = false;   // the player quit; never a personal best
  bool topped_out = false;  // the game ended by a top-out (block out, lock out); never with completed or abandoned
  engine::TimeUs time_us = 0;
  std::int64_t score = 0;
  std::int64_t lines = 0;
  std::int64_t pieces = 0;
};

// The result of a game as the engine left it. `abandoned` games never count as completed; `over` says whether the
// game has ended (finished or topped out): over and not finished is a top-out. A game neither over nor abandoned is
// still being played (the bot's when the player's game ended).
[[nodiscard]] RunResult result_of(const engine::GameConfig& config, const engine::Stats& stats, bool finished,
                                  bool abandoned, bool over = true);

// Whether `run` counts for a personal best at all: never when abandoned; for time goals only when completed; for
// score and lines goals when completed or topped out, except that a game with a time limit (ultra) counts only when
// it lasted the time (a top-out there is a lost game, not a result). The replay store's best() keeps the same rule.
[[nodiscard]] bool counts_for_best(const RunResult& run);

// Whether `run` is a new personal best over `best` (or over nothing): it counts (above) and ranks above a best that
// counts; time goals rank lower time first, score and lines goals higher first. Ties do not beat.
[[nodiscard]] bool beats(const RunResult& run, const std::optional<RunResult>& best);

// The headline of a result: for time goals the time ("0:42.117") or how the game ended ("topped out", "gave up",
// "did not finish" for a game still being played); "12,345" for score goals, "87 lines" for lines goals.
[[nodiscard]] std::string headline(const RunResult& r);

// Who won a race against the bot, from the player's result when their game ended and the bot's as it stood then.
// Time goals: a completed game beats one that is not, then the lower time; of two games not completed, one still
// being played beats one that ended, and then the later end (it survived longer). Score and lines goals: the higher
// score (lines). Equal results tie.
enum class RaceWinner { kPlayer, kBot, kTie };
[[nodiscard]] RaceWinner bot_race_winner(const RunResult& player, const RunResult& bot);

// "m:ss.mmm" (minutes grow past 59: "75:00.000"). Negative times show as 0:00.000.
[[nodiscard]] std::string format_time(engine::TimeUs t);
// "12,345,678".
[[nodiscard]] std::string format_count(std::int64_t n);
// Pieces per second with two decimals, truncated as everywhere (engine::pps_x100): "2.47"; "0.00" before any time
// has passed.
[[nodiscard]] std::string format_pps(std::int64_t pieces, engine::TimeUs t);
// Keys per piece with two decimals, truncated (engine::kpp_x100); "0.00" before the first piece.
[[nodiscard]] std::string format_kpp(std::int64_t keys, std::int64_t pieces);

}  // namespace sr::client
