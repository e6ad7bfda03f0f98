#include "server/racer_referee.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "common/engine/random.h"

namespace sr::server {
namespace {

using engine::button::kHardDrop;
using engine::button::kMoveLeft;

// A simulated client: its game clock runs at `rate` x real time, it sends a batch every 50 ms of game time with
// a move tap every 400 ms (no hard drops, so the game lasts), over a reliable ordered channel with latency 20 ms +
// jitter, and a lost packet is resent after a retransmission timeout; packets behind it wait (head-of-line blocking),
// as with ENet.
struct Arrival {
  TimeUs real_us;
  std::vector<engine::InputChange> changes;
  TimeUs clock_us;
};

std::vector<Arrival> simulate_client(double rate, TimeUs jitter_us, int loss_percent, TimeUs duration_us,
                                     std::uint64_t seed) {
  engine::Random rng(seed);
  std::vector<Arrival> out;
  TimeUs last_arrival = 0;
  bool pressed = false;
  for (TimeUs game = 50'000; static_cast<double>(game) / rate < static_cast<double>(duration_us); game += 50'000) {
    Arrival a;
    if (game % 400'000 == 0 || (pressed && game % 400'000 == 50'000)) {
      pressed = !pressed;
      a.changes.push_back({game - 10'000, pressed ? kMoveLeft : engine::Buttons{0}});
    }
    a.clock_us = game;
    const TimeUs sent = static_cast<TimeUs>(static_cast<double>(game) / rate);
    TimeUs delay = 20'000 + static_cast<TimeUs>(rng.below(static_cast<std::uint32_t>(jitter_us) + 1));
    while (static_cast<int>(rng.below(100)) < loss_percent) delay += 250'000;  // retransmission timeout
    a.real_us = std::max(last_arrival, sent + delay);
    last_arrival = a.real_us;
    out.push_back(std::move(a));
  }
  return out;
}

// Feeds arrivals and runs the pace check every 100 ms of real time, as the server does. Returns the real time of
// removal, or -1.
TimeUs run(RacerReferee& ref, const std::vector<Arrival>& arrivals, TimeUs duration_us) {
  std::size_t next = 0;
  for (TimeUs real = 0; real <= duration_us; real += 100'000) {
    while (next < arrivals.size() && arrivals[next].real_us <= real) {
      const Arrival& a = arrivals[next++];
      if (ref.on_batch(a.real_us, a.changes, a.clock_us) != Violation::kNone) return a.real_us;
    }
    if (ref.check_pace(real) != Violation::kNone) return real;
  }
  return -1;
}

engine::GameConfig endless() { return engine::make_endless(); }

TEST(RacerReferee, HonestRacerWithJitterAndLossIsNeverRemoved) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RacerReferee ref(endless(), seed);
    const TimeUs duration = 60'000'000;
    const auto arrivals = simulate_client(1.0, 200'000, 5, duration, seed);
    EXPECT_EQ(run(ref, arrivals, duration), -1) << "seed " << seed << ": " << violation_text(ref.removal_reason());
    EXPECT_EQ(ref.status(), protocol::RacerStatus::kRacing);
  }
}

TEST(RacerReferee, ClockAtNinetyPercentIsRemovedWithinFifteenSeconds) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RacerReferee ref(endless(), seed);
    const auto arrivals = simulate_client(0.9, 200'000, 5, 60'000'000, seed);
    const TimeUs removed_at = run(ref, arrivals, 60'000'000);
    ASSERT_NE(removed_at, -1) << "seed " << seed;
    EXPECT_LE(removed_at, 15'000'000) << "seed " << seed;
    EXPECT_EQ(ref.status(), protocol::RacerStatus::kRemoved);
    EXPECT_EQ(ref.removal_reason(), Violation::kSlowClock);
  }
}

// A steady clock: one batch every 50 ms of real time, with the game clock at `rate_per_mille` of real time, from
// 50 ms on; the pace check runs every 100 ms. Returns the real time of removal, or -1.
TimeUs steady_clock_removal(RacerReferee& ref, TimeUs rate_per_mille, TimeUs until_us) {
  for (TimeUs real = 50'000; real <= until_us; real += 50'000) {
    if (ref.on_batch(real, {}, real * rate_per_mille / 1000) != Violation::kNone) return real;
    if (real % 100'000 == 0 && ref.check_pace(real) != Violation::kNone) return real;
  }
  return -1;
}

// 0.9x: the first batch (50 ms, clock 45 ms) lags 5 ms, which the referee takes as the racer's start offset. The
// lag beyond it passes 750 ms with the batch at 7.6 s (760 - 5 = 755 ms); every batch for the next 2 s lags more, so
// the batch at 9.6 s removes it. By then the game time from 6.57 s to 8.64 s arrived 750 ms or more after it
// happened (beyond the offset): far from the stall budget, so the slow-clock rule is what catches it.
TEST(RacerReferee, ClockAtNinetyPercentIsRemovedAtNineAndAHalfSeconds) {
  RacerReferee ref(endless(), 1);
  EXPECT_EQ(steady_clock_removal(ref, 900, 60'000'000), 9'600'000);
  EXPECT_EQ(ref.start_lag_us(), 5'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kSlowClock);
  EXPECT_EQ(ref.unverified_us(), 8'640'000 - 6'570'000);
}

// 0.95x: start offset 2.5 ms (the first batch); lag 755 - 2.5 = 752.5 ms at 15.1 s, removed at 17.1 s, before a 40-line
// sprint ends (a 40-line sprint is 100 pieces: 17 s is a pace of 5.9 pieces per second, near the world record).
TEST(RacerReferee, ClockAtNinetyFivePercentIsRemovedAtSeventeenSeconds) {
  RacerReferee ref(endless(), 1);
  EXPECT_EQ(steady_clock_removal(ref, 950, 60'000'000), 17'100'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kSlowClock);
}

// A clock that lags 700 ms forever (a slow network, not a slow clock) is never removed and nothing is unverified.
TEST(RacerReferee, ConstantLagWithinTheAllowanceIsClean) {
  RacerReferee ref(endless(), 1);
  for (TimeUs real = 750'000; real <= 60'000'000; real += 50'000) {
    ASSERT_EQ(ref.on_batch(real, {}, real - 700'000), Violation::kNone) << real;
    ASSERT_EQ(ref.check_pace(real), Violation::kNone) << real;
  }
  EXPECT_EQ(ref.unverified_us(), 0);
}

// A racer whose CountdownStart was resent started its clock 900 ms late, and its batches take 0 to 600 ms more: every
// batch lags more than 750 ms, yet against its start offset (learned from the first batch) none lags beyond the
// allowance. Clean, and never removed.
TEST(RacerReferee, ALateStartIsTheRacersOffsetNotLag) {
  RacerReferee ref(endless(), 1);
  engine::Random rng(5);
  for (TimeUs sent = 0; sent <= 60'000'000; sent += 50'000) {
    const TimeUs real = sent + 900'000 + (sent == 0 ? 0 : static_cast<TimeUs>(rng.below(601)) * 1'000);
    ASSERT_EQ(ref.on_batch(real, {}, sent), Violation::kNone) << sent;
    ASSERT_EQ(ref.check_pace(real), Violation::kNone) << sent;
  }
  EXPECT_EQ(ref.start_lag_us(), 900'000);
  EXPECT_EQ(ref.unverified_us(), 0);
}

// The offset is at most max_start_lag_us (1 s): a clock 3 s behind from the start lags 2 s beyond it, so every batch
// lags and the slow-clock rule removes it once the grace (1 s) and the window (2 s) have passed: at 5.05 s real, the
// 2 s window after the first batch at 3.05 s. Its game time up to then (2.05 s) was all vouched for late.
TEST(RacerReferee, AStartOffsetCountsOnlyUpToOneSecond) {
  RacerReferee ref(endless(), 1);
  TimeUs removed_at = -1;
  for (TimeUs sent = 50'000; sent <= 10'000'000 && removed_at < 0; sent += 50'000) {
    if (ref.on_batch(sent + 3'000'000, {}, sent) != Violation::kNone) removed_at = sent + 3'000'000;
  }
  EXPECT_EQ(ref.start_lag_us(), 1'000'000);
  EXPECT_EQ(removed_at, 5'050'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kSlowClock);
  EXPECT_EQ(ref.unverified_us(), 2'050'000);
}

// A racer whose connection stalls for `stall` from `from`: nothing arrives, then the whole backlog (a batch per
// 50 ms of game time) arrives at once when the stall ends, and the racer goes on. Batches every 50 ms otherwise,
// the pace check every 100 ms. Returns the removal time or -1.
struct Stall {
  TimeUs from_us;
  TimeUs length_us;
};
TimeUs run_with_stalls(RacerReferee& ref, const std::vector<Stall>& stalls, TimeUs until_us) {
  std::vector<TimeUs> held;  // game times of the batches held back by the current stall
  for (TimeUs real = 50'000; real <= until_us; real += 50'000) {
    const bool stalled = std::any_of(stalls.begin(), stalls.end(), [real](const Stall& s) {
      return real > s.from_us && real < s.from_us + s.length_us;
    });
    held.push_back(real);
    if (!stalled) {
      for (TimeUs game : held) {
        if (ref.on_batch(real, {}, game) != Violation::kNone) return real;
      }
      held.clear();
    }
    if (real % 100'000 == 0 && ref.check_pace(real) != Violation::kNone) return real;
  }
  return -1;
}

// An honest 3 s stall and then an 8 s one: the racer keeps racing; the game time vouched for more than 750 ms late
// is 2.25 s and 7.25 s.
TEST(RacerReferee, StallsWithinTheBudgetKeepTheRacerAndAreMeasured) {
  RacerReferee ref(endless(), 1);
  EXPECT_EQ(run_with_stalls(ref, {{5'000'000, 3'000'000}}, 20'000'000), -1);
  EXPECT_EQ(ref.unverified_us(), 2'250'000);
  RacerReferee both(endless(), 1);
  EXPECT_EQ(run_with_stalls(both, {{5'000'000, 3'000'000}, {25'000'000, 8'000'000}}, 40'000'000), -1);
  EXPECT_EQ(both.unverified_us(), 2'250'000 + 7'250'000);
  EXPECT_EQ(both.status(), protocol::RacerStatus::kRacing);
}

// The backlog of a stall often comes as batches full of changes: the game time they vouch for starts at the clock
// before the batch, not at its last change (pressing the changes moves the run on first).
TEST(RacerReferee, ABacklogWithChangesIsMeasuredFromTheClockBeforeIt) {
  RacerReferee ref(endless(), 1);
  ASSERT_EQ(ref.on_batch(1'000'000, {}, 1'000'000), Violation::kNone);
  const std::vector<engine::InputChange> taps = {
      {1'500'000, kMoveLeft}, {1'600'000, 0}, {3'500'000, kMoveLeft}, {3'600'000, 0}};
  ASSERT_EQ(ref.on_batch(5'000'000, taps, 3'600'000), Violation::kNone);
  // The first 250 ms came 750 ms late with the first batch; all of 1 s .. 3.6 s came later than that.
  EXPECT_EQ(ref.unverified_us(), 250'000 + 3'600'000 - 1'000'000);
  ASSERT_EQ(ref.on_batch(5'000'000, {}, 5'000'000), Violation::kNone);
  EXPECT_EQ(ref.unverified_us(), 250'000 + 4'250'000 - 1'000'000);
}

// A connection that goes silent at 5 s for good: removed once the overdue game time passes the 10 s budget, at the
// first check after 15.75 s. It needs no batch to arrive for that.
TEST(RacerReferee, AStallLongerThanTheBudgetIsRemoved) {
  RacerReferee ref(endless(), 1);
  EXPECT_EQ(run_with_stalls(ref, {{5'000'000, 60'000'000}}, 30'000'000), 15'800'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kStallBudget);
}

// The budget is the room's: with none, the same silence is removed at the first check past the 750 ms allowance.
TEST(RacerReferee, StallBudgetIsASetting) {
  PaceLimits strict;
  strict.stall_budget_us = 0;
  RacerReferee ref(endless(), 1, strict);
  EXPECT_EQ(run_with_stalls(ref, {{5'000'000, 60'000'000}}, 30'000'000), 5'800'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kStallBudget);
}

// A cheat: stop sending for 3 s every 10 s and send the paused time afterwards, played with foreknowledge. Each
// stall earns 2.25 s of unverifiable play; four of them are 9 s, and the fifth is removed when it would pass 10 s
// (at 48.8 s, the first check after 47 s + 0.75 s + 1 s). It never gains more than the budget plus one check.
TEST(RacerReferee, FakedStallsGainNoMoreThanTheBudget) {
  RacerReferee ref(endless(), 1);
  std::vector<Stall> stalls;
  for (TimeUs from = 7'000'000; from < 120'000'000; from += 10'000'000) stalls.push_back({from, 3'000'000});
  const TimeUs removed_at = run_with_stalls(ref, stalls, 120'000'000);
  EXPECT_EQ(removed_at, 48'800'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kStallBudget);
  EXPECT_EQ(ref.unverified_us(), 4 * 2'250'000);
  EXPECT_LE(ref.stalled_us_at(removed_at), PaceLimits{}.stall_budget_us + 100'000);
}

// A dropped connection (ENet timed out at 10 s, the racer resumes at 50 s with the whole backlog): nothing is judged
// while away, the racer keeps racing, and the 44.25 s owed (5 s .. 49.25 s) is unverified but no stall: the budget
// is untouched, so a later 3 s stall is still within it.
TEST(RacerReferee, AResumedRacerIsMarkedButNotChargedForTheTimeAway) {
  RacerReferee ref(endless(), 1);
  for (TimeUs real = 50'000; real <= 5'000'000; real += 50'000)
    ASSERT_EQ(ref.on_batch(real, {}, real), Violation::kNone);
  for (TimeUs real = 5'100'000; real < 10'000'000; real += 100'000) ASSERT_EQ(ref.check_pace(real), Violation::kNone);
  ref.suspend();
  EXPECT_TRUE(ref.suspended());
  for (TimeUs real = 10'000'000; real < 50'000'000; real += 100'000) ASSERT_EQ(ref.check_pace(real), Violation::kNone);
  ref.resume(50'000'000);
  EXPECT_FALSE(ref.suspended());
  EXPECT_EQ(ref.reconnects(), 1);
  for (TimeUs game = 5'050'000; game <= 50'000'000; game += 50'000) {
    ASSERT_EQ(ref.on_batch(50'000'000, {}, game), Violation::kNone) << game;
  }
  EXPECT_EQ(ref.unverified_us(), 44'250'000);
  EXPECT_EQ(ref.stalled_us_at(50'000'000), 0);
  // A 3 s stall later: 2.25 s against the budget.
  for (TimeUs real = 50'050'000; real <= 60'000'000; real += 50'000) {
    if (real > 55'000'000 && real < 58'000'000) continue;
    const TimeUs from = real == 58'000'000 ? 55'050'000 : real;
    for (TimeUs game = from; game <= real; game += 50'000) {
      ASSERT_EQ(ref.on_batch(real, {}, game), Violation::kNone);
    }
    if (real % 100'000 == 0) {
      ASSERT_EQ(ref.check_pace(real), Violation::kNone) << real;
    }
  }
  EXPECT_EQ(ref.stalled_us_at(60'000'000), 2'250'000);
  EXPECT_EQ(ref.unverified_us(), 44'250'000 + 2'250'000);
  EXPECT_EQ(ref.status(), protocol::RacerStatus::kRacing);
}

// While away nothing is judged, but a racer who never comes back is ended by the caller (disconnect) as
// did-not-finish with what arrived.
TEST(RacerReferee, ASuspendedRacerWhoNeverComesBackEndsAsDidNotFinish) {
  RacerReferee ref(endless(), 1);
  ASSERT_EQ(ref.on_batch(1'000'000, {}, 1'000'000), Violation::kNone);
  ref.suspend();
  EXPECT_EQ(ref.check_pace(60'000'000), Violation::kNone);
  ref.disconnect();
  EXPECT_EQ(ref.status(), protocol::RacerStatus::kDisconnected);
  EXPECT_EQ(ref.clock_us(), 1'000'000);
}

// unverified_us() against a plain count: random bursts of lag; every millisecond of game time is looked up in the
// batches to find when it was first vouched for, and counted when that was 750 ms or more after it ended.
TEST(RacerReferee, UnverifiedTimeMatchesAPlainCount) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    engine::Random rng(seed);
    PaceLimits limits;
    limits.stall_budget_us = 1'000'000'000;  // measure only
    limits.lag_window_us = 1'000'000'000;
    RacerReferee ref(endless(), seed, limits);
    std::vector<std::pair<TimeUs, TimeUs>> batches;  // (real, clock)
    TimeUs clock = 0;
    for (TimeUs real = 50'000; real <= 20'000'000; real += 50'000) {
      // The clock advances 0 to 60 ms per 50 ms of real time (falling behind by 20 ms a step on average), catches up
      // at once now and then (a stall's backlog), and is never ahead.
      clock = rng.below(100) == 0 ? real : std::min(real, clock + static_cast<TimeUs>(rng.below(61)) * 1000);
      batches.emplace_back(real, clock);
      ASSERT_EQ(ref.on_batch(real, {}, clock), Violation::kNone) << "seed " << seed << " at " << real;
    }
    // Each batch is judged against the start offset learned so far: the least lag of any batch up to it, 0..1 s.
    std::vector<TimeUs> offset;
    for (const auto& [r, c] : batches) {
      offset.push_back(std::clamp<TimeUs>(std::min(offset.empty() ? r - c : offset.back(), r - c), 0, 1'000'000));
    }
    TimeUs expected = 0;
    std::size_t b = 0;
    for (TimeUs game = 1'000; game <= clock; game += 1'000) {
      while (batches[b].second < game) ++b;
      if (batches[b].first - offset[b] - game >= limits.max_lag_us) expected += 1'000;
    }
    EXPECT_EQ(ref.unverified_us(), expected) << "seed " << seed;
    EXPECT_GT(expected, 0) << "seed " << seed;
  }
}

TEST(RacerReferee, ClockRunningFastIsRemoved) {
  RacerReferee ref(endless(), 1);
  const auto arrivals = simulate_client(1.1, 0, 0, 30'000'000, 1);
  const TimeUs removed_at = run(ref, arrivals, 30'000'000);
  ASSERT_NE(removed_at, -1);
  EXPECT_LE(removed_at, 3'000'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kFastClock);
}

TEST(RacerReferee, TimestampGoingBackRemovesAndStopsApplying) {
  RacerReferee ref(endless(), 1);
  const engine::InputChange first[] = {{100'000, kMoveLeft}, {150'000, 0}};
  ASSERT_EQ(ref.on_batch(200'000, first, 200'000), Violation::kNone);
  const engine::InputChange back[] = {{190'000, kHardDrop}};
  EXPECT_EQ(ref.on_batch(300'000, back, 300'000), Violation::kTimeWentBack);
  EXPECT_EQ(ref.status(), protocol::RacerStatus::kRemoved);
  EXPECT_EQ(ref.log().size(), 2u);
  EXPECT_EQ(ref.game().stats().pieces, 0);
}

TEST(RacerReferee, ClockReportBeforeLastInputIsTimeGoingBack) {
  RacerReferee ref(endless(), 1);
  const engine::InputChange changes[] = {{500'000, kMoveLeft}};
  EXPECT_EQ(ref.on_batch(600'000, changes, 400'000), Violation::kTimeWentBack);
}

TEST(RacerReferee, InputFloodIsRemoved) {
  RacerReferee ref(endless(), 1);
  std::vector<engine::InputChange> flood;
  for (int i = 0; i < 101; ++i)
    flood.push_back({1'000 + i * 5'000, static_cast<engine::Buttons>(i % 2 ? 0 : kMoveLeft)});
  EXPECT_EQ(ref.on_batch(700'000, flood, 600'000), Violation::kInputFlood);
  EXPECT_EQ(ref.log().size(), 100u);
}

TEST(RacerReferee, UnknownButtonBitsAreRemoved) {
  RacerReferee ref(endless(), 1);
  const engine::InputChange bad[] = {{1'000, 0x100}};
  EXPECT_EQ(ref.on_batch(2'000, bad, 2'000), Violation::kInvalidButtons);
}

TEST(RacerReferee, ServerSimulationDecidesTheResult) {
  // Hard drops every 100 ms on a sprint: the referee's engine counts the pieces, not the client.
  RacerReferee ref(engine::make_sprint(40), 5);
  std::vector<engine::InputChange> taps;
  for (int i = 0; i < 10; ++i) {
    taps.push_back({i * 100'000 + 10'000, kHardDrop});
    taps.push_back({i * 100'000 + 60'000, 0});
  }
  ASSERT_EQ(ref.on_batch(1'000'000, taps, 1'000'000), Violation::kNone);
  EXPECT_EQ(ref.game().stats().pieces, 10);
  EXPECT_EQ(ref.clock_us(), 1'000'000);
  EXPECT_EQ(ref.game().now(), 1'000'000);
}

// A "change" to the buttons already held (an unbound key, a second key for a held action) changes nothing: the
// referee neither logs it (a replay may not hold one, so the race's replay would be refused) nor counts it as a press.
TEST(RacerReferee, ChangesThatKeepTheButtonsAreNotLogged) {
  RacerReferee ref(engine::make_sprint(40), 5);
  const std::vector<engine::InputChange> changes = {{10'000, 0}, {20'000, kMoveLeft}, {30'000, kMoveLeft},
                                                    {40'000, 0}, {50'000, 0},         {60'000, kHardDrop}};
  ASSERT_EQ(ref.on_batch(100'000, changes, 100'000), Violation::kNone);
  const std::vector<engine::InputChange> expected = {{20'000, kMoveLeft}, {40'000, 0}, {60'000, kHardDrop}};
  ASSERT_EQ(ref.log().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(ref.log()[i].time_us, expected[i].time_us) << i;
    EXPECT_EQ(ref.log()[i].buttons, expected[i].buttons) << i;
  }
  EXPECT_EQ(ref.game().stats().pieces, 1);
  EXPECT_EQ(ref.status(), protocol::RacerStatus::kRacing);
}

TEST(RacerReferee, DisconnectKeepsTheGameAsItWas) {
  RacerReferee ref(endless(), 1);
  const engine::InputChange taps[] = {{10'000, kHardDrop}, {50'000, 0}};
  ASSERT_EQ(ref.on_batch(100'000, taps, 100'000), Violation::kNone);
  ref.disconnect();
  EXPECT_EQ(ref.status(), protocol::RacerStatus::kDisconnected);
  const engine::InputChange more[] = {{150'000, kHardDrop}};
  EXPECT_EQ(ref.on_batch(200'000, more, 200'000), Violation::kNone);
  EXPECT_EQ(ref.game().stats().pieces, 1);
}

}  // namespace
}  // namespace sr::server

namespace sr::server {
namespace {

TEST(RacerReferee, CountdownIsNotAFastClock) {
  RacerReferee ref(engine::make_endless(), 1);
  EXPECT_EQ(ref.check_pace(-3'000'000), Violation::kNone);
  EXPECT_EQ(ref.check_pace(-1), Violation::kNone);
  EXPECT_EQ(ref.status(), protocol::RacerStatus::kRacing);
  // But inputs stamped after the start while the countdown still runs are.
  const engine::InputChange early[] = {{500'000, engine::button::kMoveLeft}};
  EXPECT_EQ(ref.on_batch(-1'000'000, early, 500'000), Violation::kFastClock);
}

}  // namespace
}  // namespace sr::server
