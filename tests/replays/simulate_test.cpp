#include "common/replay/simulate.h"

#include <gtest/gtest.h>

#include "common/replay/codec.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

namespace button = engine::button;

TEST(Simulate, TakesACheckpointEveryNLocks) {
  const Replay r = testing::small_sprint(35);
  const Simulation sim = simulate(racer_config(r, 0), r.seed, r.racers[0].inputs, r.racers[0].result.stats.time_us, 10);
  ASSERT_FALSE(sim.feed_error);
  EXPECT_EQ(sim.game.stats().pieces, 35);
  ASSERT_EQ(sim.checkpoints.size(), 3u);  // pieces 10, 20, 30
  EXPECT_EQ(sim.checkpoints, r.racers[0].checkpoints);
  EXPECT_LT(sim.checkpoints[0].time_us, sim.checkpoints[1].time_us);
}

TEST(Simulate, CheckpointTimeIsTheLockEventTime) {
  const Replay r = testing::small_sprint(12);
  std::vector<engine::TimeUs> locks;
  const auto on_event = [&](const engine::Event& e) {
    if (e.kind == engine::EventKind::kLock) locks.push_back(e.time_us);
  };
  const Simulation sim =
      simulate(racer_config(r, 0), r.seed, r.racers[0].inputs, r.racers[0].result.stats.time_us, 5, on_event);
  ASSERT_EQ(locks.size(), 12u);
  ASSERT_EQ(sim.checkpoints.size(), 2u);
  EXPECT_EQ(sim.checkpoints[0].time_us, locks[4]);
  EXPECT_EQ(sim.checkpoints[1].time_us, locks[9]);
}

TEST(Simulate, AnEndBeforeTheLastInputIsAFeedError) {
  const std::vector<engine::InputChange> inputs = {{5000, button::kMoveLeft}, {9000, 0}};
  const Simulation sim = simulate(engine::make_sprint(), 1, inputs, 4000, 25);
  ASSERT_TRUE(sim.feed_error);
  EXPECT_NE(sim.feed_error->find("end time"), std::string::npos);
}

TEST(RecordRacer, GivesTheStatusTheGameEndedWith) {
  Replay r = testing::small_sprint(5);
  EXPECT_EQ(r.racers[0].result.status, ResultStatus::kForfeited);
  record_racer(r, 0, r.racers[0].result.stats.time_us, ResultStatus::kDisconnected);
  EXPECT_EQ(r.racers[0].result.status, ResultStatus::kDisconnected);
  // Nobody presses anything for ten minutes: pieces pile up until one cannot spawn.
  r.racers[0].inputs.clear();
  record_racer(r, 0, 600'000'000);
  EXPECT_EQ(r.racers[0].result.status, ResultStatus::kToppedOut);
  EXPECT_NE(r.racers[0].result.top_out, engine::TopOut::kNone);
  EXPECT_LT(r.racers[0].result.stats.time_us, 600'000'000);
}

TEST(RecordRacer, EndsNoEarlierThanTheLastInput) {
  Replay r = testing::small_sprint(5);
  const engine::TimeUs last = r.racers[0].inputs.back().time_us;
  record_racer(r, 0, 0);
  EXPECT_EQ(r.racers[0].result.stats.time_us, last);
}

// The server's measurements are not in the inputs: recording keeps them, and cuts late time to the game's own time
// (a batch may vouch for game time past a finish or top out).
TEST(RecordRacer, KeepsUnverifiedTimeAndReconnectsWithinTheGame) {
  Replay r = testing::small_sprint(5);
  const engine::TimeUs end = r.racers[0].result.stats.time_us;
  r.racers[0].result.unverified_us = end / 2;
  r.racers[0].result.reconnects = 2;
  record_racer(r, 0, end);
  EXPECT_EQ(r.racers[0].result.unverified_us, end / 2);
  EXPECT_EQ(r.racers[0].result.reconnects, 2u);
  r.racers[0].result.unverified_us = end + 1'000'000;
  record_racer(r, 0, end);
  EXPECT_EQ(r.racers[0].result.unverified_us, end);
  EXPECT_EQ(r.racers[0].result.reconnects, 2u);
  EXPECT_TRUE(check_replay(r).ok());
}

TEST(GameAt, PieceZeroIsTheStart) {
  const Replay r = testing::small_sprint(10);
  Result<engine::Game> g = game_at(r, 0, {ViewPoint::Kind::kPiece, 0});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g.value().stats().pieces, 0);
  EXPECT_EQ(g.value().now(), 0);
  EXPECT_TRUE(g.value().active().has_value());
}

TEST(GameAt, StopsAtTheExactMicrosecondAPieceLocked) {
  const Replay r = testing::small_sprint(20);
  std::vector<engine::TimeUs> locks;
  (void)simulate(racer_config(r, 0), r.seed, r.racers[0].inputs, r.racers[0].result.stats.time_us, 25,
                 [&](const engine::Event& e) {
                   if (e.kind == engine::EventKind::kLock) locks.push_back(e.time_us);
                 });
  for (std::int64_t k : {1, 7, 20}) {
    Result<engine::Game> g = game_at(r, 0, {ViewPoint::Kind::kPiece, k});
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(g.value().stats().pieces, k);
    EXPECT_EQ(g.value().now(), locks[static_cast<std::size_t>(k - 1)]);
  }
  Result<engine::Game> none = game_at(r, 0, {ViewPoint::Kind::kPiece, 21});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, ErrorKind::kOutOfRange);
}

TEST(GameAt, TimeIsClampedToTheRecordedEnd) {
  const Replay r = testing::small_sprint(10);
  const engine::TimeUs end = r.racers[0].result.stats.time_us;
  Result<engine::Game> at_end = game_at(r, 0, {ViewPoint::Kind::kTime, end + 60'000'000});
  ASSERT_TRUE(at_end.ok());
  EXPECT_EQ(at_end.value().now(), end);
  EXPECT_EQ(at_end.value().state_hash(), r.racers[0].result.final_hash);
  Result<engine::Game> mid = game_at(r, 0, {ViewPoint::Kind::kTime, 1'000'000});
  ASSERT_TRUE(mid.ok());
  EXPECT_EQ(mid.value().now(), 1'000'000);
  EXPECT_FALSE(game_at(r, 3, {}).ok());
}

}  // namespace
}  // namespace sr::replay
