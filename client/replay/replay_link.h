// The one place that talks to the replay store (replays/): saving every finished or abandoned solo game, and
// reading personal bests from the store's index. Everything else in the client only sees SoloRecord and RunResult.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/solo/results.h"
#include "client/solo/solo_session.h"
#include "common/engine/config.h"
#include "common/engine/events.h"
#include "common/engine/stats.h"

namespace sr::client {

// Everything a solo replay holds.
struct SoloRecord {
  engine::GameConfig config;
  std::uint64_t seed = 0;
  std::vector<InputEntry> inputs;
  engine::Stats stats;
  bool finished = false;
  bool abandoned = false;
  engine::TopOut top_out = engine::TopOut::kNone;
  std::uint64_t final_state_hash = 0;
  std::string player_name;
  std::int64_t started_unix_ms = 0;  // wall clock when the game started
  std::string place = "local";       // where it was played: "local", or the server's name for our game of a race
  bool connection_lost = false;      // a race game cut short by a lost connection (stored as disconnected, not
                                     // forfeited, when it had not ended by itself)

  // Race the bot: the bot's board is stored as a second racer, so the replay shows both.
  struct Opponent {
    std::string name;
    engine::Handling handling;
    std::vector<InputEntry> inputs;
    engine::TimeUs end_us = 0;  // where its game stood when the player's ended
  };
  std::optional<Opponent> bot;
};

[[nodiscard]] SoloRecord record_of(const SoloSession& session, const std::string& player_name,
                                   std::int64_t started_unix_ms);

struct SaveOutcome {
  std::filesystem::path path;  // the replay file, when saved
  std::string error;           // empty on success
};

class ReplayLink {
 public:
  // `replay_dir` is $XDG_DATA_HOME/stackrace/replays (created on first save).
  explicit ReplayLink(std::filesystem::path replay_dir);
  ~ReplayLink();
  ReplayLink(const ReplayLink&) = delete;
  ReplayLink& operator=(const ReplayLink&) = delete;

  // Whether this build has the replay store at all.
  [[nodiscard]] static bool available();
  [[nodiscard]] SaveOutcome save(const SoloRecord& record);
  // `player`'s best earlier result in this config's mode and limit (sprint 40, ultra 120, ...), from the store's
  // index (verified games only). nullopt when there is none or the store cannot be read.
  [[nodiscard]] std::optional<RunResult> personal_best(const engine::GameConfig& config, const std::string& player);
  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }

 private:
  struct Store;
  std::filesystem::path dir_;
  std::unique_ptr<Store> store_;
};

}  // namespace sr::client
