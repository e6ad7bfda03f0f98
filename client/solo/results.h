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
  bool completed = false;  // reached the mode's limit (a finished sprint, the end of an ultra); not topped out
  bool abandoned = false;  // the player quit; never a personal best
  engine::TimeUs time_us = 0;
  std::int64_t score = 0;
  std::int64_t lines = 0;
  std::int64_t pieces = 0;
};

// The result of a game as the engine left it. `abandoned` games never count as completed.
[[nodiscard]] RunResult result_of(const engine::GameConfig& config, const engine::Stats& stats, bool finished,
                                  bool abandoned);

// Whether `run` is a new personal best over `best` (or over nothing). Abandoned runs never are. Time goals rank
// only completed runs, lower time first; score and lines goals rank completed and topped-out runs alike, higher
// first. Ties do not beat.
[[nodiscard]] bool beats(const RunResult& run, const std::optional<RunResult>& best);

// The headline number of a result: "0:42.117" for time goals, "12,345" for score, "87 lines" for lines.
[[nodiscard]] std::string headline(const RunResult& r);

// "m:ss.mmm" (minutes grow past 59: "75:00.000"). Negative times show as 0:00.000.
[[nodiscard]] std::string format_time(engine::TimeUs t);
// "12,345,678".
[[nodiscard]] std::string format_count(std::int64_t n);
// Pieces per second with two decimals ("2.47"); "0.00" before any time has passed.
[[nodiscard]] std::string format_pps(std::int64_t pieces, engine::TimeUs t);
// Keys per piece with two decimals; "0.00" before the first piece.
[[nodiscard]] std::string format_kpp(std::int64_t keys, std::int64_t pieces);

}  // namespace sr::client
