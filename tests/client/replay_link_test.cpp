// Which solo games are worth a replay: not one given up in its first seconds (every quick restart once stored a
// forfeit), always one that ended by itself or was cut short by a lost connection.
#include "client/replay/replay_link.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

using engine::TimeUs;

// A sprint with a hard drop at 0 and its release at 0.1 s, advanced to `played_us`; `top_out` hard-drops on until
// the game tops out instead.
SoloRecord record_played(TimeUs played_us, bool top_out = false) {
  engine::RacerRun run(engine::make_sprint(40), 5);
  EXPECT_EQ(run.press(0, engine::button::kHardDrop).error, engine::UpdateError::kOk);
  EXPECT_EQ(run.press(100'000, 0).error, engine::UpdateError::kOk);
  for (TimeUs t = 200'000; top_out && !run.game().over(); t += 200'000) {
    EXPECT_EQ(run.press(t, engine::button::kHardDrop).error, engine::UpdateError::kOk);
    EXPECT_EQ(run.press(t + 100'000, 0).error, engine::UpdateError::kOk);
  }
  if (!top_out) {
    EXPECT_EQ(run.advance(played_us).error, engine::UpdateError::kOk);
  }
  return SoloRecord{run, "me", 0, "local", false, std::nullopt};
}

TEST(WorthStoring, AGameGivenUpInItsFirstSecondsIsNot) {
  EXPECT_FALSE(worth_storing(record_played(2'000'000), 10));
  EXPECT_FALSE(worth_storing(record_played(9'999'000), 10));
  EXPECT_TRUE(worth_storing(record_played(10'000'000), 10));
  EXPECT_TRUE(worth_storing(record_played(2'000'000), 0)) << "0 keeps every game given up";
}

TEST(WorthStoring, AGameThatEndedByItselfAlwaysIs) {
  const SoloRecord topped = record_played(0, true);
  ASSERT_TRUE(topped.run.game().over());
  ASSERT_LT(topped.run.game().now(), 10'000'000) << "the test needs a top-out within the first 10 s";
  EXPECT_TRUE(worth_storing(topped, 10));
}

TEST(WorthStoring, AGameCutShortByALostConnectionAlwaysIs) {
  SoloRecord r = record_played(1'000'000);
  r.connection_lost = true;
  EXPECT_TRUE(worth_storing(r, 10));
}

TEST(WorthStoring, AnUntouchedGameNeverIs) {
  engine::RacerRun run(engine::make_sprint(40), 5);
  ASSERT_EQ(run.advance(30'000'000).error, engine::UpdateError::kOk);
  EXPECT_FALSE(worth_storing(SoloRecord{run, "me", 0, "local", false, std::nullopt}, 0));
}

}  // namespace
}  // namespace sr::client
