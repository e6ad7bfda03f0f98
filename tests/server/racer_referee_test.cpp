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

// The pace check keeps the smallest lag of the last 2 s: a clock that stops at 5 s is removed at the first check
// whose window no longer holds a lag of 750 ms or less, at 7.8 s (the sample at 5.8 s lags 800 ms), not before.
TEST(RacerReferee, StalledClockIsRemovedWhenItsLastGoodSampleLeavesTheWindow) {
  RacerReferee ref(endless(), 1);
  for (TimeUs real = 100'000; real <= 5'000'000; real += 100'000) {
    ASSERT_EQ(ref.on_batch(real, {}, real), Violation::kNone) << real;
  }
  TimeUs removed_at = -1;
  for (TimeUs real = 5'100'000; real <= 10'000'000 && removed_at < 0; real += 100'000) {
    if (ref.check_pace(real) != Violation::kNone) removed_at = real;
  }
  EXPECT_EQ(removed_at, 7'800'000);
  EXPECT_EQ(ref.removal_reason(), Violation::kSlowClock);
}

// A clock that falls behind in bursts and catches up: the removal time matches a plain scan of the window's samples.
TEST(RacerReferee, PaceWindowMinimumMatchesAPlainScan) {
  int removals = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    engine::Random rng(seed);
    RacerReferee ref(endless(), seed);
    const PaceLimits limits;
    std::vector<std::pair<TimeUs, TimeUs>> samples;  // every (real, lag) the referee saw
    TimeUs expected = -1, got = -1, clock = 0;
    for (TimeUs real = 50'000; real <= 30'000'000 && got < 0; real += 50'000) {
      // The clock advances 0 to 95 ms per 50 ms of real time (slowly falling behind, in random bursts), never ahead.
      clock = std::min(real, clock + static_cast<TimeUs>(rng.below(96)) * 1000);
      samples.emplace_back(real, real - clock);
      TimeUs min_lag = INT64_MAX;
      for (const auto& [t, lag] : samples) {
        if (t >= real - limits.lag_window_us) min_lag = std::min(min_lag, lag);
      }
      if (expected < 0 && real >= limits.pace_grace_us + limits.lag_window_us && min_lag > limits.max_lag_us) {
        expected = real;
      }
      if (ref.on_batch(real, {}, clock) != Violation::kNone) got = real;
    }
    EXPECT_EQ(got, expected) << "seed " << seed;
    removals += got >= 0;
  }
  EXPECT_GE(removals, 25);  // the drift removes most of them, so the comparison covers removals too
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
