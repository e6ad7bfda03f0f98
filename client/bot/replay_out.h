// Where stackrace-bot writes replays: one file, or one file per game (FILE-<seed>.srr, or DIR/<mode>-<seed>.srr).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "client/bot/solo_runner.h"

namespace sr::botcli {

class ReplayOut {
 public:
  struct Opened;
  // Checks the path (an existing directory, a path ending in '/', or a file name) for `many` games.
  [[nodiscard]] static Opened open(const std::string& path, bool many);

  // Records and writes the game's replay; on failure prints why to `err` and returns false.
  bool write(const PlayedGame& game, std::ostream& err);

  // The file a game with this seed goes to.
  [[nodiscard]] std::string path_for(const engine::GameConfig& config, std::uint64_t seed) const;

 private:
  std::string path_;
  bool many_ = false;
  bool directory_ = false;
};

struct ReplayOut::Opened {
  std::optional<ReplayOut> out;
  std::string error;
};

}  // namespace sr::botcli
