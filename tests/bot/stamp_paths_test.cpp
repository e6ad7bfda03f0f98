// One stamping rule (common/engine/input.h): a button change that happens at a given game time gets the same stamp
// whether a solo game (client/input/game_clock.h), a race in the game (race_event_us, as client/app calls it) or
// stackrace-bot (OnlineBot::stamp) stamps it. Here beside the bot's tests: the game's two paths are client/input's
// pure functions, which link no window code.
#include <gtest/gtest.h>

#include <vector>

#include "bot/online_bot.h"
#include "client/input/game_clock.h"
#include "common/engine/input.h"

namespace sr {
namespace {

using engine::TimeUs;

// Event times at and around grid points, the countdown's end and an hour into a game.
const std::vector<TimeUs> kEventTimes = {0,       1,         499,       500,           501,          999,
                                         1000,    1001,      1999,      2000,          2001,         16'667,
                                         999'999, 1'000'000, 1'000'001, 3'599'999'999, 3'600'000'000};

// The three paths, each given the event at game time `t` the way it sees it.
TimeUs solo(TimeUs t) {
  const double start_s = 12'345.678;  // the game started 3.4 hours after the program
  client::GameClock clock;
  clock.start(start_s);
  return clock.stamp(start_s + static_cast<double>(t) / 1e6);
}

TimeUs race(TimeUs t) {
  // The key's callback stamped it at wall time `when`; the session's race clock is read 16.667 ms later.
  const double when_s = 12'345.678 + static_cast<double>(t) / 1e6;
  return client::race_event_us(t + 16'667, when_s + 0.016667, when_s);
}

TimeUs bot(TimeUs t) { return botcli::OnlineBot::stamp(t, 1.0); }

TEST(StampPaths, SoloRaceAndBotStampAnEventAlike) {
  for (const TimeUs t : kEventTimes) {
    const TimeUs expected = engine::stamp_on_grid(t);
    EXPECT_EQ(solo(t), expected) << "solo, event at " << t << " us";
    EXPECT_EQ(race(t), expected) << "race, event at " << t << " us";
    EXPECT_EQ(bot(t), expected) << "bot, event at " << t << " us";
  }
}

TEST(StampPaths, TheStampsAreTheGridPointAtOrBeforeTheEvent) {
  // Spelled out, so that the rule itself cannot change unseen.
  EXPECT_EQ(solo(999), 0);
  EXPECT_EQ(race(999), 0);
  EXPECT_EQ(bot(999), 0);
  EXPECT_EQ(solo(1000), 1000);
  EXPECT_EQ(race(1000), 1000);
  EXPECT_EQ(bot(1000), 1000);
  EXPECT_EQ(solo(1999), 1000);
  EXPECT_EQ(race(1999), 1000);
  EXPECT_EQ(bot(1999), 1000);
  EXPECT_EQ(solo(3'599'999'999), 3'599'999'000);
  EXPECT_EQ(race(3'599'999'999), 3'599'999'000);
  EXPECT_EQ(bot(3'599'999'999), 3'599'999'000);
}

TEST(StampPaths, BeforeTheStartRacesAndTheBotFloorWhereSoloHoldsAtZero) {
  // A race stamps a key pressed in the countdown negative (the game then holds it at the start); the solo clock never
  // hands out a time before 0, though wall_to_game_us, beneath it, floors like the others.
  EXPECT_EQ(race(-1), -1000);
  EXPECT_EQ(bot(-1), -1000);
  EXPECT_EQ(client::wall_to_game_us(12'345.678 - 0.000001, 12'345.678), -1000);
  EXPECT_EQ(solo(-1), 0);
}

TEST(StampPaths, ASlowedBotClockIsScaledBeforeItIsStamped) {
  EXPECT_EQ(botcli::OnlineBot::stamp(2'000'000, 0.9), 1'800'000);
  EXPECT_EQ(botcli::OnlineBot::stamp(1'111, 0.9), 0);  // 999.9 us
  EXPECT_EQ(botcli::OnlineBot::stamp(1'112, 0.9), 1000);
}

}  // namespace
}  // namespace sr
