// The solo modes the menus offer, as engine configs. The client only picks presets and fills in the player's
// handling; what a mode does is entirely in the engine's config.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/result.h"

namespace sr::client {

struct ModeChoice {
  std::string label;  // "Sprint 40 lines", "Ultra 2 minutes", ...
  engine::GameConfig config;
};

// The presets of one mode: sprint 20/40/100/1000 lines, ultra 1/2/3 minutes, marathon fixed/variable goal,
// master, endless, contest. Custom has no presets (its screen edits a config).
[[nodiscard]] std::vector<ModeChoice> mode_presets(engine::ModeKind mode);

// The config for `--mode NAME [--limit N]`: the mode's default preset, with N lines (sprint, master) or N seconds
// (ultra) when given; or the sentence for an unknown mode or a bad limit.
[[nodiscard]] sr::Result<engine::GameConfig, std::string> config_for_cli(const std::string& mode_name,
                                                                         std::optional<std::int64_t> limit);

// A short name of the result category, the key of personal bests: "sprint 40", "ultra 120", "marathon",
// "custom" (custom games are one category).
[[nodiscard]] std::string mode_label(const engine::GameConfig& config);

}  // namespace sr::client
