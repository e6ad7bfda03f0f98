#include "common/replay/simulate.h"

#include <gtest/gtest.h>

#include "common/engine/racer_run.h"
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

// simulate() makes the calls of a RacerRun pressed with every input and advanced to the end (simulate.h): the same
// events, checkpoints and final state, and it stops where the run's feeding fails. Here against a real RacerRun, on
// a played log, on one with changes after the game ended (one with unknown bits, which the run never applies) or
// that change nothing, and on one with unknown bits while the game is on.
TEST(Simulate, MakesTheCallsOfARacerRun) {
  const Replay sprint = testing::small_sprint(35);
  const engine::GameConfig config = racer_config(sprint, 0);
  // Nobody presses anything after the last input: pieces pile up until one cannot come out.
  engine::Game idle(config, sprint.seed);
  for (const engine::InputChange& c : sprint.racers[0].inputs) (void)idle.update(c.time_us, c.buttons);
  (void)idle.update(sprint.racers[0].inputs.back().time_us + 3'600'000'000);
  ASSERT_TRUE(idle.over());
  const engine::TimeUs over_at = idle.now();
  std::vector<engine::InputChange> after_end = sprint.racers[0].inputs;
  after_end.push_back({over_at + 1, button::kHardDrop});  // the game runs to its end before it would apply this
  after_end.push_back({over_at + 2, 0x100});              // unknown bits in a game already over
  after_end.push_back({over_at + 3, 0});
  std::vector<engine::InputChange> no_change = sprint.racers[0].inputs;
  no_change.insert(no_change.begin() + 20, no_change[19]);
  no_change[20].time_us = no_change[21].time_us;
  std::vector<engine::InputChange> bad_bits = sprint.racers[0].inputs;
  bad_bits[100].buttons = 0x300;

  struct Case {
    const char* what;
    std::vector<engine::InputChange> inputs;
    engine::TimeUs end_us;
    std::int32_t every;
    std::optional<std::string> feed_error;
  };
  const Case cases[] = {
      {"a played log", sprint.racers[0].inputs, sprint.racers[0].result.stats.time_us, 10, std::nullopt},
      {"every lock a checkpoint", sprint.racers[0].inputs, sprint.racers[0].result.stats.time_us, 1, std::nullopt},
      {"changes after the end", after_end, over_at + 4, 7, std::nullopt},
      {"a change that changes nothing", no_change, sprint.racers[0].result.stats.time_us, 10, std::nullopt},
      {"unknown bits", bad_bits, sprint.racers[0].result.stats.time_us, 10,
       "inputs[100]: it holds an unknown button bit"},
  };
  for (const Case& c : cases) {
    std::vector<engine::EventKind> run_events, sim_events;
    engine::RacerRun run(config, sprint.seed, c.every);
    bool fed = true;
    for (const engine::InputChange& change : c.inputs) {
      const engine::UpdateResult r = run.press(change.time_us, change.buttons);
      for (const engine::Event& e : r.events) run_events.push_back(e.kind);
      if (r.error != engine::UpdateError::kOk) {
        fed = false;
        break;
      }
    }
    if (fed) {
      for (const engine::Event& e : run.advance(c.end_us).events) run_events.push_back(e.kind);
    }
    const Simulation sim = simulate(config, sprint.seed, c.inputs, c.end_us, c.every,
                                    [&](const engine::Event& e) { sim_events.push_back(e.kind); });
    EXPECT_EQ(sim.feed_error, c.feed_error) << c.what;
    EXPECT_EQ(sim_events, run_events) << c.what;
    EXPECT_EQ(sim.checkpoints, run.checkpoints()) << c.what;
    EXPECT_EQ(sim.game.state_hash(), run.game().state_hash()) << c.what;
    EXPECT_FALSE(sim.checkpoints.empty()) << c.what;
  }
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
