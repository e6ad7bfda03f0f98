// A race: every racer's refereed game, the live standings, and when the race is over.
// Like RacerReferee it reads no clock: callers pass the server's real time since the race started.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/replay/replay.h"
#include "server/racer_referee.h"

namespace sr::server {

using RacerId = std::uint32_t;

// One line of the standings, all numbers from the server's simulation.
struct Standing {
  RacerId id = 0;
  std::string name;
  int place = 0;  // 1-based
  protocol::RacerStatus status = protocol::RacerStatus::kRacing;
  Violation removal = Violation::kNone;
  TimeUs time_us = 0;  // game time reached (the finish time once finished)
  std::int64_t lines = 0;
  std::int64_t lines_left = 0;  // lines-limited modes
  std::int64_t score = 0;
  std::int64_t pieces = 0;
  std::int64_t key_presses = 0;
  std::int64_t pps_x100 = 0;  // pieces per second x 100
  std::int64_t kpp_x100 = 0;  // key presses per piece x 100
  TimeUs unverified_us = 0;   // RacerReferee::unverified_us()
  int reconnects = 0;         // RacerReferee::reconnects()
};

class Race {
 public:
  // `config` is the room's game config; each racer plays it with their own handling.
  Race(engine::GameConfig config, std::uint64_t seed, PaceLimits limits = {});

  // `key`: the player key the racer proved at Hello, recorded in the replay (none for a player without one).
  void add_racer(RacerId id, std::string name, const engine::Handling& handling,
                 std::optional<replay::RacerKey> key = std::nullopt);

  // Forwards to the racer's referee. Unknown ids return kNone and change nothing.
  [[nodiscard]] Violation on_batch(RacerId id, TimeUs real_us, std::span<const engine::InputChange> changes,
                                   TimeUs clock_us);
  void disconnect(RacerId id);
  // The race ends while the racer is still racing (the server's time cap, a shutdown): kUnfinished.
  void stop_unfinished(RacerId id);
  // The racer's connection dropped / they are back (RacerReferee::suspend, resume). Unknown ids change nothing.
  void suspend(RacerId id);
  void resume(RacerId id, TimeUs real_us);

  struct Removal {
    RacerId id;
    Violation reason;
  };
  // Pace checks for every racer; for modes with a time limit, racers still racing well after the limit (a stalled
  // connection) are stopped as did-not-finish. Returns the racers removed by this call.
  [[nodiscard]] std::vector<Removal> tick(TimeUs real_us);

  // True when no racer is still racing. (Asked on every pass of the server's loop for every room: the answer is kept
  // until a call that can change a racer's status.)
  [[nodiscard]] bool over() const;

  // Places: finished racers first (by the mode's goal), then racers still racing or topped out (by progress), then
  // those who disconnected or were removed.
  [[nodiscard]] std::vector<Standing> standings() const;

  [[nodiscard]] const engine::GameConfig& config() const { return config_; }
  [[nodiscard]] std::uint64_t seed() const { return seed_; }
  struct Entry {
    RacerId id;
    std::string name;
    RacerReferee referee;  // the racer's handling is its run's: referee.game().config().handling
    std::optional<replay::RacerKey> key;
    // The racer's signature of their run (RunSigned, PROTOCOL.md "Run signatures"), once the room has checked it
    // against `key` and the referee's log; it goes with the replay (ReplayWriter::Job::run_signatures).
    std::optional<protocol::SignatureBytes> run_signature;
  };
  [[nodiscard]] const std::vector<Entry>& racers() const { return racers_; }
  [[nodiscard]] const Entry* find(RacerId id) const;
  // Keeps racer `id`'s run signature (checked by the caller). Unknown ids change nothing.
  void keep_run_signature(RacerId id, const protocol::SignatureBytes& signature);

  // Real time after the mode's time limit at which racers still racing (stalled past the allowance and the whole
  // stall budget, which would have removed them, or not yet caught up) are stopped as did-not-finish.
  [[nodiscard]] TimeUs time_limit_grace_us() const { return limits_.max_lag_us + limits_.stall_budget_us + 1'000'000; }

 private:
  Entry* find_mutable(RacerId id);

  engine::GameConfig config_;
  std::uint64_t seed_;
  PaceLimits limits_;
  std::vector<Entry> racers_;
  mutable std::optional<bool> over_;  // over()'s answer, reset by every call that may change a status
};

}  // namespace sr::server
