// Command-line parsing helpers for stackrace-bot that do not depend on CLI11: decimal rates, ranges, mode configs.
// Each returns an error sentence instead of throwing, so main() can print it and exit with status 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/bot/input_plan.h"
#include "common/engine/config.h"

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
struct ModeConfig {
  std::optional<engine::GameConfig> config;
  std::string error;
};
[[nodiscard]] ModeConfig config_for(const ModeRequest& request);

}  // namespace sr::botcli
