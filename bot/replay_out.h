// Where stackrace-bot writes replays (the replay library's binary format, .srr): one file, or one per game:
// FILE-<seed>.srr for --out FILE.srr, or DIR/<mode>-<seed>.srr when --out names a directory or ends in '/'.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "bot/solo_runner.h"
#include "common/result.h"

namespace sr::botcli {

class ReplayOut {
 public:
  // Checks the path (an existing directory, a path ending in '/', or a file name) for `many` games: the writer, or
  // the sentence saying what is wrong with the path.
  [[nodiscard]] static sr::Result<ReplayOut, std::string> open(const std::string& path, bool many);

  // Records and writes the game's replay; on failure prints why to `err` and returns false.
  bool write(const PlayedGame& game, std::ostream& err);

  // The file a game with this seed goes to.
  [[nodiscard]] std::string path_for(const engine::GameConfig& config, std::uint64_t seed) const;

 private:
  std::string path_;
  bool many_ = false;
  bool directory_ = false;
};

}  // namespace sr::botcli
