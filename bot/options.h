// Command-line parsing helpers for stackrace-bot that do not depend on CLI11: decimal rates, ranges, mode configs.
// Each returns an error sentence instead of throwing, so main() can print it and exit with status 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bot/tbp_session.h"
#include "common/bot/bot.h"
#include "common/bot/input_plan.h"
#include "common/engine/config.h"
#include "common/result.h"

namespace sr::botcli {

// "3", "2.5", "0.125" -> thousandths (3000, 2500, 125). Up to 3 decimals, 0..1000.
[[nodiscard]] std::optional<std::int32_t> parse_milli(const std::string& text);

// "30-60" or "45" -> [lo, hi] in whole milliseconds, 1..1000.
struct MsRange {
  std::int32_t lo = 0, hi = 0;
};
[[nodiscard]] std::optional<MsRange> parse_ms_range(const std::string& text);

struct ModeRequest {
  std::string mode;                     // sprint, ultra, marathon, master, contest, endless
  std::optional<std::int64_t> lines;    // --lines
  std::optional<std::int64_t> seconds;  // --seconds
  std::optional<std::int32_t> level;    // --level: the level a game starts at (gravity); marathon 1..15, else 1..30
  std::string rotation;                 // --rotation: srs, srs_no180, classic or ocular; empty: the mode's (SRS)
};

// The game config for a mode request, or the sentence explaining what is wrong with it.
[[nodiscard]] sr::Result<engine::GameConfig, std::string> config_for(const ModeRequest& request);

// The player options every way of playing shares (solo games, races on a server, contest ladder games), as typed: the
// built-in bot's pace, evaluation and search, and an external TBP bot's command and clocks.
struct PlayerRequest {
  std::string pps = "3";          // --pps: 0..30, up to 3 decimals
  std::string weights;            // --weights: a preset name; empty: `default_weights` of check_player
  int lookahead = 1;              // --lookahead: 0 or 1
  std::string search = "full";    // --search: full or drops
  std::string external;           // --external: a TBP program; empty: the built-in bot plays
  int think_ms = 0;               // --think-ms: 0..60,000
  int answer_ms = kTbpSuggestMs;  // --answer-ms: 1..600,000
};

struct PlayerChoice {
  bot::BotSettings bot;      // pace, weights (when named or defaulted), lookahead and search
  std::string weights_name;  // the preset in `bot.weights`; empty: left to the bot (the game's mode)
  std::optional<ExternalOptions> external;
};

// Checks every shared option by one rule, whichever way the bot plays: the error sentence main() prints (status 2), or
// the settings. `default_weights` is the preset when --weights is not given ("" leaves it to the bot, by mode).
[[nodiscard]] sr::Result<PlayerChoice, std::string> check_player(const PlayerRequest& request,
                                                                 const std::string& default_weights);

}  // namespace sr::botcli
