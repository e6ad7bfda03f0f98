#include "server/race.h"

#include <gtest/gtest.h>

#include <vector>

namespace sr::server {
namespace {

using engine::button::kHardDrop;

// `n` hard-drop taps, one every 100 ms from t = 10 ms.
std::vector<engine::InputChange> drops(int n) {
  std::vector<engine::InputChange> taps;
  for (int i = 0; i < n; ++i) {
    taps.push_back({i * 100'000 + 10'000, kHardDrop});
    taps.push_back({i * 100'000 + 60'000, 0});
  }
  return taps;
}

// A race to 5 pieces, ranked by time: enough to order finishers without needing line clears.
engine::GameConfig five_piece_race() {
  engine::GameConfig c = engine::make_custom();
  c.limit = engine::LimitKind::kPieces;
  c.limit_value = 5;
  c.goal = engine::GoalKind::kTime;
  return c;
}

TEST(Race, FinishedRacersArePlacedByFinishTime) {
  Race race(five_piece_race(), 9);
  race.add_racer(1, "slow", engine::Handling{});
  race.add_racer(2, "fast", engine::Handling{});
  race.add_racer(3, "quitter", engine::Handling{});
  auto slow = drops(5);
  for (auto& c : slow) c.time_us *= 2;
  ASSERT_EQ(race.on_batch(1, 1'000'000, slow, 1'000'000), Violation::kNone);
  ASSERT_EQ(race.on_batch(2, 1'000'000, drops(5), 600'000), Violation::kNone);
  ASSERT_EQ(race.on_batch(3, 1'000'000, drops(2), 300'000), Violation::kNone);
  EXPECT_FALSE(race.over());
  race.disconnect(3);
  EXPECT_TRUE(race.over());

  const auto s = race.standings();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "fast");
  EXPECT_EQ(s[0].place, 1);
  EXPECT_EQ(s[0].status, protocol::RacerStatus::kFinished);
  EXPECT_EQ(s[0].time_us, 410'000);  // the 5th hard drop
  EXPECT_EQ(s[1].name, "slow");
  EXPECT_EQ(s[1].time_us, 820'000);
  EXPECT_EQ(s[2].name, "quitter");
  EXPECT_EQ(s[2].status, protocol::RacerStatus::kDisconnected);
  EXPECT_EQ(s[2].pieces, 2);
  EXPECT_EQ(s[0].pps_x100, 5 * 100'000'000 / 410'000);
}

TEST(Race, ScoreModesPlaceByScore) {
  engine::GameConfig c = engine::make_ultra(1);
  Race race(c, 4);
  race.add_racer(7, "idle", engine::Handling{});
  race.add_racer(8, "dropper", engine::Handling{});
  ASSERT_EQ(race.on_batch(7, 1'100'000, {}, 1'000'000), Violation::kNone);
  ASSERT_EQ(race.on_batch(8, 1'100'000, drops(9), 1'000'000), Violation::kNone);
  EXPECT_TRUE(race.over());
  const auto s = race.standings();
  EXPECT_EQ(s[0].name, "dropper");  // hard drop points
  EXPECT_GT(s[0].score, 0);
  EXPECT_EQ(s[1].name, "idle");
  EXPECT_EQ(s[1].status, protocol::RacerStatus::kFinished);
  EXPECT_EQ(s[1].time_us, 1'000'000);
}

TEST(Race, StalledRacerIsStoppedAfterTheTimeLimitGrace) {
  Race race(engine::make_ultra(2), 4);
  race.add_racer(1, "stalled", engine::Handling{});
  ASSERT_EQ(race.on_batch(1, 500'000, {}, 500'000), Violation::kNone);
  const TimeUs after = 2'000'000 + race.time_limit_grace_us() + 1;
  (void)race.tick(after);
  EXPECT_TRUE(race.over());
  EXPECT_NE(race.standings()[0].status, protocol::RacerStatus::kRacing);
}

// over() keeps its answer between calls (the server asks it for every room on every loop pass): every call that can
// change a racer's status must be seen by the next over().
TEST(Race, OverFollowsEveryStatusChangeWhenAskedBetweenThem) {
  Race race(five_piece_race(), 9);
  EXPECT_TRUE(race.over());  // nobody racing
  race.add_racer(1, "ada", engine::Handling{});
  race.add_racer(2, "bob", engine::Handling{});
  race.add_racer(3, "cy", engine::Handling{});
  EXPECT_FALSE(race.over());
  ASSERT_EQ(race.on_batch(1, 1'000'000, drops(5), 600'000), Violation::kNone);  // ada finishes
  EXPECT_FALSE(race.over());
  race.suspend(2);
  race.resume(2, 1'000'000);
  EXPECT_FALSE(race.over());
  race.disconnect(2);
  EXPECT_FALSE(race.over());
  race.stop_unfinished(3);
  EXPECT_TRUE(race.over());
}

TEST(Race, OverSeesARacerStoppedByThePaceCheck) {
  Race race(engine::make_ultra(2), 4);
  race.add_racer(1, "stalled", engine::Handling{});
  ASSERT_EQ(race.on_batch(1, 500'000, {}, 500'000), Violation::kNone);
  EXPECT_FALSE(race.over());
  (void)race.tick(2'000'000 + race.time_limit_grace_us() + 1);
  EXPECT_TRUE(race.over());
}

TEST(Race, UnknownRacerIsIgnored) {
  Race race(engine::make_sprint(), 1);
  race.add_racer(1, "a", engine::Handling{});
  EXPECT_EQ(race.on_batch(99, 100, drops(1), 100'000), Violation::kNone);
  EXPECT_EQ(race.find(99), nullptr);
  EXPECT_EQ(race.find(1)->referee.log().size(), 0u);
}

}  // namespace
}  // namespace sr::server
