// Where the client keeps its files. Follows the XDG base directory spec, with command-line overrides.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace sr::client {

struct Paths {
  std::filesystem::path config_dir;  // settings.json and puzzles.json live here
  std::filesystem::path data_dir;    // replays/ lives here
  [[nodiscard]] std::filesystem::path settings_file() const { return config_dir / "settings.json"; }
  [[nodiscard]] std::filesystem::path puzzles_file() const { return config_dir / "puzzles.json"; }
  [[nodiscard]] std::filesystem::path replay_dir() const { return data_dir / "replays"; }
  // The player's key (net/identity/player_key.h), made on the first start: the same file as stackrace-bot's default
  // --key.
  [[nodiscard]] std::filesystem::path key_file() const { return config_dir / "player.key"; }
  // The secret that holds a contest ladder entrant's name (ladder_secret.h): config_dir/ladder/NAME.secret, by
  // default the same file as stackrace-bot's --ladder NAME.
  [[nodiscard]] std::filesystem::path ladder_secret_file(std::string_view entrant) const;
};

// config: `config_override`, else $XDG_CONFIG_HOME/stackrace, else $HOME/.config/stackrace.
// data: `data_override`, else $XDG_DATA_HOME/stackrace, else $HOME/.local/share/stackrace.
// Relative XDG values are ignored, as the spec says. Without HOME either, the current directory is used.
[[nodiscard]] Paths resolve_paths(const std::optional<std::filesystem::path>& config_override,
                                  const std::optional<std::filesystem::path>& data_override);

}  // namespace sr::client
