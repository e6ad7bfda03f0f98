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
#include "common/engine/racer_run.h"

namespace sr::client {

// Everything a local replay holds: the player's run (a solo game, or our own game of a server race), who played it,
// where and when, and for "race the bot" the bot's run as a second racer.
struct SoloRecord {
  engine::RacerRun run;
  std::string player_name;
  std::int64_t started_unix_ms = 0;  // wall clock when the game started
  std::string place = "local";       // where it was played: "local", or the server's name for our game of a race
  bool connection_lost = false;      // a race game cut short by a lost connection (stored as disconnected, not
                                     // forfeited, when it had not ended by itself)
  struct Opponent {
    std::string name;
    engine::RacerRun run;  // played up to where the player's game ended
  };
  std::optional<Opponent> bot;

  // The game reached the mode's limit (a win, or the end of a timed game).
  [[nodiscard]] bool finished() const { return run.game().state().finished; }
  // The game had not ended by itself (the player gave up, left, or lost the connection).
  [[nodiscard]] bool abandoned() const { return !run.game().over(); }
};

// Whether a game is worth a replay. A game given up in its first `keep_given_up_after_s` seconds of game time (a quick
// restart, a mistake in the first pieces) is not: storing it would bury the games played among forfeits. A game with
// no button pressed is never worth one. Games that ended by themselves (finished, topped out) and games cut short by
// a lost connection always are. keep_given_up_after_s <= 0 keeps every game given up (but not an untouched one).
[[nodiscard]] bool worth_storing(const SoloRecord& record, std::int32_t keep_given_up_after_s);

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
