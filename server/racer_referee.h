// One racer's game as the server referees it: the server's own engine, fed with the inputs the racer streams, plus
// the checks that keep a racer honest (pace against the real clock, timestamps that never go back, input rate).
//
// Nothing here reads a clock or touches the network: callers pass the server's real time (microseconds since the
// race started on the server's clock), so every rule is testable with a fake clock.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/racer_run.h"
#include "common/protocol/records.h"

namespace sr::server {

using engine::Buttons;
using engine::TimeUs;

// Limits of the referee. Defaults tolerate 200 ms of jitter and 5% packet loss on a reliable channel, and catch a
// game clock running at 0.9x real time within about 10 seconds.
struct PaceLimits {
  // A racer whose game clock stays this far behind the real clock for a whole window is removed (slow clock).
  TimeUs max_lag_us = 750'000;
  TimeUs lag_window_us = 2'000'000;
  // A racer whose game clock runs ahead of the real clock by more than this is removed (fast clock).
  TimeUs max_lead_us = 150'000;
  // No racer is judged on pace before this much real time has passed (lets the first packets arrive).
  TimeUs pace_grace_us = 1'000'000;
  // Input flood: at most this many button changes within any one second of game time.
  int max_changes_per_second = 100;
};

enum class Violation : std::uint8_t {
  kNone = 0,
  kTimeWentBack = 1,    // an input or clock report earlier than one already received
  kInvalidButtons = 2,  // unknown button bits
  kSlowClock = 3,       // game clock behind the real clock beyond the limits
  kFastClock = 4,       // game clock ahead of the real clock
  kInputFlood = 5,      // too many button changes per second
};

// A sentence for logs and for the removed player ("your game clock ran behind real time ...").
[[nodiscard]] const char* violation_text(Violation v);

class RacerReferee {
 public:
  RacerReferee(engine::GameConfig config, std::uint64_t seed, PaceLimits limits = {});

  // A batch from the racer: changes in time order, then the game time the racer's clock had reached when it sent
  // the batch (>= the last change). Feeds the server's engine. A violation removes the racer (status kRemoved) and
  // nothing of the batch after the offending change is applied. A racer no longer racing ignores batches.
  [[nodiscard]] Violation on_batch(TimeUs real_us, std::span<const engine::InputChange> changes, TimeUs clock_us);

  // The pace check, called a few times a second with the server's real time.
  [[nodiscard]] Violation check_pace(TimeUs real_us);

  // The racer left or lost the connection: kept as did-not-finish, at the game time last reported.
  void disconnect();

  // For modes with a time limit: the race is over for everyone; a racer still racing is advanced no further.
  void stop_as_disconnected() { disconnect(); }

  // kRacing, then kFinished, kToppedOut, kDisconnected (kept as did-not-finish) or kRemoved (see removal_reason()).
  [[nodiscard]] protocol::RacerStatus status() const { return status_; }
  [[nodiscard]] Violation removal_reason() const { return removal_; }
  // The racer's run as the server plays it: the game every result comes from, the log that goes into the replay
  // and is relayed (numbered by its index), and the lock digests a racer's StateHashReport is compared with.
  [[nodiscard]] const engine::RacerRun& run() const { return run_; }
  [[nodiscard]] const engine::Game& game() const { return run_.game(); }
  [[nodiscard]] const std::vector<engine::InputChange>& log() const { return run_.log(); }
  // The game time the racer has vouched for (last clock report).
  [[nodiscard]] TimeUs clock_us() const { return run_.now_us(); }
  // Changes received so far (also those that changed nothing): the first_seq the racer's next RaceInput must carry.
  [[nodiscard]] std::uint32_t next_seq() const { return run_.next_seq(); }

 private:
  Violation remove(Violation v);
  void sync_status();

  engine::RacerRun run_;
  PaceLimits limits_;
  protocol::RacerStatus status_ = protocol::RacerStatus::kRacing;
  Violation removal_ = Violation::kNone;
  // (real time, lag) samples within the current lag window that have a smaller lag than every later one: oldest
  // first, lags increasing, so the front holds the window's smallest lag.
  std::deque<std::pair<TimeUs, TimeUs>> lag_samples_;
  std::deque<TimeUs> recent_change_times_;  // change times within the last second of game time
};

}  // namespace sr::server
