// Solo runs of stackrace-bot: plays one or many games headless, prints one summary line per game and an aggregate,
// and hands each finished game (config, seed, its run) to a sink (the replay writer).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "common/bot/bot.h"
#include "common/engine/config.h"
#include "common/engine/game.h"
#include "common/engine/racer_run.h"

namespace sr::botcli {

// A finished game as the replay writer needs it.
struct PlayedGame {
  const engine::GameConfig* config = nullptr;
  std::uint64_t seed = 0;
  const engine::RacerRun* run = nullptr;  // the game at its end, with its input log
  std::string bot_name;                   // e.g. "stackrace-bot sprint"
  bool forfeited = false;                 // the (external) bot gave up before the game ended
};

struct SoloOptions {
  engine::GameConfig config;
  std::uint64_t first_seed = 0;
  std::int64_t games = 1;
  bot::BotSettings settings;
  std::string weights_name;
  bool per_game_lines = true;
  // Called after each game; returns false to stop (e.g. a replay could not be written).
  std::function<bool(const PlayedGame&)> on_game;
};

// Per-game summary lines and the aggregate over a run, shared by the built-in and the external bot.
class RunTally {
 public:
  explicit RunTally(const SoloOptions& options) : options_(options) {}
  // One finished (or abandoned) game: prints its line when options.per_game_lines. `result` replaces the result
  // word when not empty (a forfeit for a particular reason: "slow-answer").
  void add_game(std::uint64_t seed, const engine::Game& game, const bot::BotCounters& counters, bool forfeited,
                std::ostream& out, std::string_view result = {});
  // How long one decision took, in nanoseconds.
  void add_decision(std::int64_t ns) { decision_ns_.push_back(ns); }
  // The aggregate line. `decision_kind` says what the decision times measure.
  void print(std::ostream& out, const char* decision_kind);

 private:
  const SoloOptions& options_;
  std::vector<std::int64_t> decision_ns_;
  std::int64_t games_ = 0, completed_ = 0, topped_ = 0, level15_ = 0, fallbacks_ = 0, forfeits_ = 0, slow_ = 0;
  std::int64_t sum_time_us_ = 0, sum_score_ = 0, sum_lines_ = 0, sum_pieces_ = 0, sum_completed_time_ = 0;
};

// Plays the games; returns 0 when every game ran (whatever its result), 1 if on_game asked to stop.
int run_solo(const SoloOptions& options, std::ostream& out);

// CPU time of the calling thread in nanoseconds: a decision's cost without the time other processes took the core.
[[nodiscard]] std::int64_t thread_cpu_ns();
// Monotonic wall time in nanoseconds (for decisions that wait on another process).
[[nodiscard]] std::int64_t wall_ns();

// "finished", "topped out (block out)", ...
[[nodiscard]] std::string result_text(const engine::Game& game);

// Formats microseconds as seconds with 3 decimals ("35.123"), and a rate x1000 as "2.95".
[[nodiscard]] std::string seconds_text(std::int64_t us);
[[nodiscard]] std::string milli_text(std::int64_t milli, int decimals = 2);

}  // namespace sr::botcli
