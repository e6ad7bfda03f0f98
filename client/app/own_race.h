// Our own game of a server race, kept as a solo-style local replay. Our run is mirrored as it is played (config with
// our handling, seed, our button changes, how far it ran), so it outlives the session's race: a lost connection, a
// kick, leaving the room, quitting. Each race's game is saved at most once.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/replay/replay_link.h"
#include "net/race_view.h"

namespace sr::client {

class OwnRace {
 public:
  explicit OwnRace(ReplayLink& link) : link_(link) {}

  // Follows our board in `race` (null, or a race we only watch: nothing to follow). A race other than the one
  // followed so far saves the earlier game first (if it is unsaved), then starts a new record. Copies the button
  // changes made since the last call and the game time reached. `player` and `place` (the server's name) go into
  // the replay; `now_unix_ms` is when a new race's record starts.
  void follow(const net::RaceView* race, const std::string& player, const std::string& place, std::int64_t now_unix_ms);
  // A game of ours that is not saved yet (it has at least one button change).
  [[nodiscard]] bool unsaved() const { return !saved_ && record_ && !record_->run.log().empty(); }
  // Our game ended by itself (finished or topped out).
  [[nodiscard]] bool over() const { return over_; }
  [[nodiscard]] std::uint32_t race_id() const { return race_id_; }
  // Saves the game if it is unsaved. `connection_lost`: the server went away (or aborted the race to go away) before
  // the game ended: the replay says disconnected rather than forfeited. Returns "Your game is saved: PATH" or "Your
  // game was not saved: WHY", or
  // "" when there was nothing to save.
  std::string save(bool connection_lost);
  // Where the last save went ("" before any).
  [[nodiscard]] const std::string& last_sentence() const { return sentence_; }
  [[nodiscard]] const std::filesystem::path& last_path() const { return path_; }
  // How many games save() has saved or tried to.
  [[nodiscard]] std::uint64_t saves() const { return saves_; }

 private:
  ReplayLink& link_;
  std::uint32_t race_id_ = 0;
  std::optional<SoloRecord> record_;  // the race followed (our run mirrored), from its first follow()
  std::size_t copied_ = 0;            // entries of our run's log pressed on the copy
  bool over_ = false;
  bool saved_ = false;
  std::string sentence_;
  std::filesystem::path path_;
  std::uint64_t saves_ = 0;
};

}  // namespace sr::client
