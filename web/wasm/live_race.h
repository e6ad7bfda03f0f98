// A race as a live web page follows it (web/README.md, "The live feed"): every racer's game, fed the inputs the
// server relays as they arrive, shown at the latest time the server vouched for. The page opens it from the race's
// start (a replay in its JSON form with every racer's name and handling and no input yet: the `race` event), then
// pushes each `inputs` event. Feeding a game in more calls gives the same game (common/engine/game.h), so a board
// here is the racer's own game as the server's referee plays it.
//
// Pure: the engine and the replay library only. Natively tested (tests/web/live_race_test.cpp); under WebAssembly
// through api.h's sr_live_* functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/input.h"
#include "common/replay/replay.h"
#include "common/result.h"

namespace sr::web {

struct LiveRacer {
  engine::Game game;
  std::vector<engine::InputChange> log;  // every change pushed, in order (its index is the change's sequence number)
  engine::TimeUs known_us = 0;           // the latest time the game was fed to
};

class LiveRace {
 public:
  // From the race's start: the JSON form of a replay (common/replay/FORMAT.md) whose racers' inputs may be empty.
  // # Errors: the decoder's sentence.
  [[nodiscard]] static sr::Result<std::unique_ptr<LiveRace>, std::string> open(std::span<const std::uint8_t> json);

  [[nodiscard]] std::size_t racer_count() const { return racers_.size(); }
  [[nodiscard]] const replay::Replay& start() const { return start_; }
  // Racer `racer`, which must be < racer_count().
  [[nodiscard]] const LiveRacer& racer(std::size_t racer) const { return *racers_.at(racer); }

  // Racer `racer`'s changes numbered first_seq, first_seq + 1, ... (a relay, or a catch-up chunk): the ones the game
  // has already had are skipped, the rest fed, then the game is fed up to now_us. # Errors (nothing is fed then): no
  // such racer, a gap (first_seq past the changes held), a change that goes back in time or holds unknown buttons.
  [[nodiscard]] sr::Status<std::string> push(std::size_t racer, std::uint32_t first_seq, engine::TimeUs now_us,
                                             std::span<const engine::InputChange> changes);
  // The racer's game ended at `time_us` (a finish, a top out, a removal): fed up to it. False for no such racer.
  bool end(std::size_t racer, engine::TimeUs time_us);

 private:
  explicit LiveRace(replay::Replay start);

  replay::Replay start_;
  std::vector<std::unique_ptr<LiveRacer>> racers_;
};

}  // namespace sr::web
