// Solo runs of stackrace-bot: plays one or many games headless, prints one summary line per game and an aggregate,
// and hands each finished game (config, seed, input log) to a sink (the replay writer).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/bot/bot.h"
#include "common/engine/config.h"
#include "common/engine/game.h"

namespace sr::botcli {

// A finished game as the replay writer needs it.
struct PlayedGame {
  const engine::GameConfig* config = nullptr;
  std::uint64_t seed = 0;
  const engine::Game* game = nullptr;                // the final state
  const std::vector<bot::InputEvent>* inputs = nullptr;
  std::string bot_name;                             // e.g. "stackrace-bot sprint/1"
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

struct GameSummary {
  std::uint64_t seed = 0;
  bool completed = false;   // the mode's goal was reached without topping out (time-limited modes: survived)
  bool topped_out = false;
  engine::Stats stats;
  bot::BotCounters counters;
};

// Plays the games; returns 0 when every game ran (whatever its result), 1 if on_game asked to stop.
int run_solo(const SoloOptions& options, std::ostream& out);

// "finished", "topped out (block out)", ...
[[nodiscard]] std::string result_text(const engine::Game& game);

// Formats microseconds as seconds with 3 decimals ("35.123"), and a rate x1000 as "2.95".
[[nodiscard]] std::string seconds_text(std::int64_t us);
[[nodiscard]] std::string milli_text(std::int64_t milli, int decimals = 2);

}  // namespace sr::botcli
