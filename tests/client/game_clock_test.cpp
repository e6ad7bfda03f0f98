#include "client/input/game_clock.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

TEST(WallToGameUs, StampsTheMillisecondTheEventHappenedIn) {
  EXPECT_EQ(wall_to_game_us(10.0, 10.0), 0);
  EXPECT_EQ(wall_to_game_us(10.000999, 10.0), 0);  // 0.999 ms
  EXPECT_EQ(wall_to_game_us(10.0014, 10.0), 1000);
  EXPECT_EQ(wall_to_game_us(10.0016, 10.0), 1000);  // never rounded up to a time that has not come yet
  EXPECT_EQ(wall_to_game_us(12.3456, 10.0), 2'345'000);
  EXPECT_EQ(wall_to_game_us(9.5, 10.0), -500'000);
  EXPECT_EQ(wall_to_game_us(9.9996, 10.0), -1000);  // before the start: down as well
}

TEST(WallToGameUs, AnExactMillisecondIsThatMillisecondDespiteTheDoublesNoise) {
  // 10.001 - 10.0 is 999.9999999994 us in doubles: microseconds are rounded to the nearest before the grid.
  EXPECT_EQ(wall_to_game_us(10.001, 10.0), 1000);
  EXPECT_EQ(wall_to_game_us(100.002, 100.0), 2000);
  EXPECT_EQ(wall_to_game_us(1234.5678 + 0.004, 1234.5678), 4000);  // 3999.99999991 us
}

TEST(WallToGameUs, EveryStampIsOnTheMillisecondGrid) {
  for (int i = 0; i < 5000; ++i) {
    const double wall = 1234.5678 + i * 0.000317;
    EXPECT_EQ(wall_to_game_us(wall, 1234.5678) % engine::kInputGridUs, 0) << wall;
  }
}

TEST(WallToGameUs, StaysExactAfterHoursOfUptime) {
  // glfwGetTime counts from program start; a double still resolves microseconds after days.
  EXPECT_EQ(wall_to_game_us(86'400.0 + 1.25, 86'400.0), 1'250'000);
}

TEST(GameClock, StampsAreMonotone) {
  GameClock c;
  c.start(100.0);
  EXPECT_EQ(c.stamp(100.010), 10'000);
  EXPECT_EQ(c.stamp(100.005), 10'000);  // an event delivered late is not stamped in the past
  EXPECT_EQ(c.stamp(100.020), 20'000);
  EXPECT_EQ(c.last(), 20'000);
}

TEST(GameClock, NeverStampsBeforeZero) {
  GameClock c;
  c.start(100.0);
  EXPECT_EQ(c.stamp(99.0), 0);
}

TEST(GameClock, PausedTimeIsRemoved) {
  GameClock c;
  c.start(0.0);
  EXPECT_EQ(c.stamp(1.0), 1'000'000);
  c.pause(1.5);
  EXPECT_EQ(c.stamp(3.0), 1'000'000);  // frozen while paused
  c.resume(11.5);                      // 10 s paused
  EXPECT_EQ(c.stamp(11.5), 1'500'000);
  EXPECT_EQ(c.stamp(12.0), 2'000'000);
}

TEST(GameClock, DoublePauseAndResumeAreHarmless) {
  GameClock c;
  c.start(0.0);
  c.pause(1.0);
  c.pause(2.0);
  c.resume(3.0);
  c.resume(4.0);
  EXPECT_EQ(c.stamp(3.5), 1'500'000);
}

TEST(GameClock, StartResetsTheLastStamp) {
  GameClock c;
  c.start(0.0);
  EXPECT_EQ(c.stamp(5.0), 5'000'000);
  c.start(10.0);
  EXPECT_EQ(c.stamp(10.25), 250'000);
}

// A race: the session's clock read 16.667 ms after the key's callback stamped it, at wall times near a day of uptime.
TEST(RaceEventUs, StampsTheRaceTimeOfTheKeyOnTheGrid) {
  const double when = 86'400.0 + 0.125;
  const double now = when + 0.016667;
  EXPECT_EQ(race_event_us(1'016'667, now, when), 1'000'000);  // exactly on a grid point
  EXPECT_EQ(race_event_us(1'016'666, now, when), 999'000);    // 1 us before it: the millisecond before
  EXPECT_EQ(race_event_us(1'017'666, now, when), 1'000'000);  // 999 us after it: still that millisecond
  EXPECT_EQ(race_event_us(1'017'667, now, when), 1'001'000);
  EXPECT_EQ(race_event_us(16'667, now, when), 0);
  EXPECT_EQ(race_event_us(16'666, now, when), -1000);  // during the countdown: negative, floored
}

TEST(RaceEventUs, TheWallGapIsRoundedToTheNearestMicrosecondBeforeTheGrid) {
  // 10.001 - 10.0 is 999.9999999994 us in doubles: truncated, the key would seem 1 us later and cross a grid point.
  EXPECT_EQ(race_event_us(5'000'999, 10.001, 10.0), 4'999'000);  // truncated: 5'000'000
  EXPECT_EQ(race_event_us(5'001'000, 10.001, 10.0), 5'000'000);
  EXPECT_EQ(race_event_us(5'001'999, 10.001, 10.0), 5'000'000);
}

}  // namespace
}  // namespace sr::client
