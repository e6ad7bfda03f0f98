// Games recorded beforehand, by seed and rules, for `stackrace-bot --recorded DIR` (bot/recorded_runner.h): every
// racer of every replay in a directory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/input.h"
#include "common/result.h"

namespace sr::botcli {

class RecordedGames {
 public:
  struct Game {
    engine::GameConfig config;  // the racer's rules, handling included
    std::vector<engine::InputChange> inputs;
    std::string file;
    // The game time its game ended at by the engine (finished or topped out), as recorded; nullopt for a game that
    // did not end so (left, or still going when the recording stopped). A racer playing it signs the run once it
    // has sent every input and its clock has reached this (PROTOCOL.md, "Run signatures").
    std::optional<engine::TimeUs> end_us;
  };
  // Reads every replay in `dir` (not its subdirectories). An error sentence when the directory cannot be read, a
  // file is not a replay, or it holds no game.
  [[nodiscard]] static sr::Result<RecordedGames, std::string> load(const std::filesystem::path& dir);

  // A game recorded with `seed` and `config`, or null.
  [[nodiscard]] const Game* find(std::uint64_t seed, const engine::GameConfig& config) const;
  [[nodiscard]] std::size_t size() const { return games_.size(); }

 private:
  std::multimap<std::uint64_t, Game> games_;
};

}  // namespace sr::botcli
