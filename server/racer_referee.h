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

// Limits of the referee. A racer's RaceInputs carry `now_us`, the game time its clock had reached: that vouches for
// every input up to then. The server compares it with its own real clock when the batch arrives.
//
// - Start offset: a racer's clock starts when CountdownStart reaches it, so it runs behind the server's by that trip
//   (longer when the message was resent). The referee learns the offset as the least lag any batch has shown, up to
//   max_start_lag_us, and measures every lag below from it; the offset is the most a racer can gain by it, once.
// - Jitter allowance: game time vouched for within max_lag_us of happening (on the real clock) is verified.
// - Stalls: game time vouched for later than that (a stalled connection delivers nothing, then the backlog at once)
//   is unverifiable: the racer could have played it with more real time than game time. It is summed over the race
//   (RacerReferee::unverified_us, kept in the results and the replay), and a racer whose sum, counting what is
//   overdue right now, would pass stall_budget_us is removed (kStallBudget). The budget is a room setting.
// - Slow clock: a stall ends with a fresh batch; a slow clock never does. A racer whose every batch arrived more than
//   max_lag_us behind the real clock for lag_window_us of real time in a row is removed (kSlowClock). A 0.9x clock
//   is removed at 9.6 s, a 0.95x clock at 17.1 s (batches every 50 ms; tests/server/racer_referee_test.cpp).
// - Fast clock: a game clock ahead of the real clock by more than max_lead_us is removed at once (kFastClock).
struct PaceLimits {
  TimeUs max_lag_us = 750'000;
  TimeUs max_start_lag_us = 1'000'000;
  TimeUs lag_window_us = 2'000'000;
  TimeUs stall_budget_us = 10'000'000;
  TimeUs max_lead_us = 150'000;
  // No racer is judged slow before this much real time has passed (lets the first packets arrive).
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
  kStallBudget = 6,     // more game time vouched for late than the room's stall budget
};

// A sentence for logs and for the removed player ("your game clock ran behind real time ...").
[[nodiscard]] const char* violation_text(Violation v);

// A RaceInput, or (copy) a RaceInputCopy, as the room takes it (PROTOCOL.md "Input copies"): it may repeat changes
// the referee has (first_seq < next_seq()), which the room skips before on_batch.
struct InputBatch {
  std::uint32_t race_id = 0;
  std::uint32_t first_seq = 0;
  TimeUs now_us = 0;
  std::span<const engine::InputChange> changes;
  bool copy = false;
};

class RacerReferee {
 public:
  RacerReferee(engine::GameConfig config, std::uint64_t seed, PaceLimits limits = {});

  // A batch from the racer: changes in time order, then the game time the racer's clock had reached when it sent
  // the batch (>= the last change). Feeds the server's engine. A violation removes the racer (status kRemoved) and
  // nothing of the batch after the offending change is applied. A racer no longer racing ignores batches.
  [[nodiscard]] Violation on_batch(TimeUs real_us, std::span<const engine::InputChange> changes, TimeUs clock_us);

  // The pace check, called a few times a second with the server's real time: a fast clock, and a stall that has
  // already run past the budget (nothing needs to arrive for that).
  [[nodiscard]] Violation check_pace(TimeUs real_us);

  // The racer's connection dropped but they may come back (resume): they stay racing, nothing is judged while away,
  // and the game time they send late after resume(real_us) up to that moment is unverified but not counted against
  // the stall budget (the results show it, and reconnects()).
  void suspend();
  void resume(TimeUs real_us);
  [[nodiscard]] bool suspended() const { return suspended_; }
  [[nodiscard]] int reconnects() const { return reconnects_; }

  // The racer left or lost the connection: kept as did-not-finish, at the game time last reported.
  void disconnect();

  // For modes with a time limit: the race is over for everyone; a racer still racing is advanced no further.
  void stop_as_disconnected() { disconnect(); }
  // The race ended while this racer was still racing (the server's time cap, a shutdown): kUnfinished, at the game
  // time last reported.
  void stop_unfinished();

  // kRacing, then kFinished, kToppedOut, kDisconnected (kept as did-not-finish), kRemoved (see removal_reason()) or
  // kUnfinished.
  [[nodiscard]] protocol::RacerStatus status() const { return status_; }
  [[nodiscard]] Violation removal_reason() const { return removal_; }
  // The racer's run as the server plays it: the game every result comes from, the log that goes into the replay
  // and is relayed (numbered by its index), and the lock digests a racer's StateHashReport is compared with.
  [[nodiscard]] const engine::RacerRun& run() const { return run_; }
  [[nodiscard]] const engine::Game& game() const { return run_.game(); }
  [[nodiscard]] const std::vector<engine::InputChange>& log() const { return run_.log(); }
  // The game time the racer has vouched for (last clock report).
  [[nodiscard]] TimeUs clock_us() const { return run_.now_us(); }
  // Game time vouched for later than the jitter allowance, summed over the race so far (0 for a clean run).
  [[nodiscard]] TimeUs unverified_us() const { return unverified_us_; }
  // The stall budget's count at real time `real_us`: unverified game time that is not a reconnect's, and what is
  // overdue right now (it will be unverified when it arrives).
  [[nodiscard]] TimeUs stalled_us_at(TimeUs real_us) const;
  // For logs: "race time 9.600 s, game clock 8.640 s, start offset 5 ms, unverified 2070 ms, stall budget used
  // 2070 ms".
  [[nodiscard]] std::string pace_summary(TimeUs real_us) const;
  // The start offset learned so far (see PaceLimits): the least lag seen, 0..max_start_lag_us.
  [[nodiscard]] TimeUs start_lag_us() const;
  // Changes received so far (also those that changed nothing): the first_seq the racer's next RaceInput must carry.
  [[nodiscard]] std::uint32_t next_seq() const { return run_.next_seq(); }

 private:
  Violation remove(Violation v);
  void sync_status();

  engine::RacerRun run_;
  PaceLimits limits_;
  protocol::RacerStatus status_ = protocol::RacerStatus::kRacing;
  Violation removal_ = Violation::kNone;
  TimeUs unverified_us_ = 0;
  TimeUs stalled_us_ = 0;  // the part of unverified_us_ the stall budget counts
  // Game time up to here was owed while the racer was away (suspend .. resume): unverified, but no stall.
  TimeUs away_until_us_ = 0;
  bool suspended_ = false;
  int reconnects_ = 0;
  // The real time of the first batch of the current run of batches that all arrived lagging beyond max_lag_us.
  std::optional<TimeUs> lagging_since_;
  std::optional<TimeUs> least_lag_us_;      // of every batch so far (real time - the clock it vouched for)
  std::deque<TimeUs> recent_change_times_;  // change times within the last second of game time
};

}  // namespace sr::server
