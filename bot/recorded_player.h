// A Player (online_player.h) that plays recorded games instead of thinking: for a race with seed S it sends, at their
// recorded times, the button changes of a game recorded with seed S and the same rules (each racer's config, its
// handling included). A load generator made of these costs the CPU of its network traffic and of the boards every
// client keeps (the engine, ~25 us per 40-line sprint), not of a bot's search, so one process drives thousands of
// racers. The server must hand out known seeds (`stackrace-server --race-seeds FIRST`) and the games be recorded
// beforehand for them (`stackrace-bot --mode sprint --seed FIRST --games N --out DIR/`); tests/load/load_test.sh does
// both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bot/online_player.h"
#include "common/engine/config.h"
#include "common/engine/input.h"
#include "common/result.h"

namespace sr::botcli {

// Recorded games by seed: every racer of every replay file (.srr or JSON) in a directory.
class RecordedGames {
 public:
  struct Game {
    engine::GameConfig config;  // the racer's rules, handling included
    std::vector<engine::InputChange> inputs;
    std::string file;
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

class RecordedPlayer final : public Player {
 public:
  // `games` must outlive the player.
  explicit RecordedPlayer(const RecordedGames& games) : games_(games) {}

  void new_race() override;
  [[nodiscard]] std::optional<bot::Step> next(const engine::Game& game) override;
  // Changes sent so far, over all races (the recorded game's "decisions").
  [[nodiscard]] std::int64_t decisions() const override { return sent_; }
  // No recorded game for a race's seed and rules: the player cannot play it (missing() says which).
  [[nodiscard]] bool broken() const override { return !missing_.empty(); }
  [[nodiscard]] const std::string& missing() const { return missing_; }

 private:
  const RecordedGames& games_;
  const RecordedGames::Game* game_ = nullptr;  // this race's recording, once found
  std::size_t next_ = 0;                       // its next change
  std::int64_t sent_ = 0;
  std::string missing_;
};

}  // namespace sr::botcli
