// A puzzle attempt as the client plays it: a stage's solution (found by the same search as
// tests/bot/puzzle_stages_test.cpp) pressed through SoloSession at key-callback times, saved through ReplayLink,
// loaded from the store and verified; the replay names its stage. A quick failed attempt is stored too.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "client/replay/replay_link.h"
#include "client/solo/puzzle_progress.h"
#include "client/solo/solo_session.h"
#include "common/bot/chooser.h"
#include "common/bot/evaluation.h"
#include "common/bot/search.h"
#include "common/engine/puzzles.h"
#include "common/replay/verify.h"
#include "replays/store/file_io.h"
#include "tests/support/puzzle_solver.h"

namespace sr::client {
namespace {

namespace fs = std::filesystem;
using bot::Action;

using test::button_of;

class PuzzleReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("stackrace-puzzle-replay-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// Every tap is a press and a release 5 ms apart, taps 10 ms apart, starting 1 s after the session's start (no
// countdown): the times a player's keys could have.
TEST_F(PuzzleReplay, AClearedAttemptIsStoredAndVerifies) {
  const std::size_t stage = 22;  // "T-spin Triple": a T, an L and a J
  engine::GameConfig config = engine::make_puzzle(engine::puzzle_stages()[stage]);
  config.handling.sdf = 0;  // soft drop to the floor, as the search assumes
  std::vector<test::PuzzleStep> steps;
  {
    const engine::Game fresh(config, 1);
    ASSERT_TRUE(test::solve_puzzle(bot::Bitboard(fresh.matrix()), config, 0, steps));
  }
  SoloSession session(config, 42, 100.0, 0.0);
  double t = 101.0;
  auto tap = [&](engine::Buttons b) {
    session.set_buttons(t, b);
    session.set_buttons(t + 0.005, 0);
    t += 0.010;
  };
  for (const test::PuzzleStep& step : steps) {
    for (const Action a : step.path) {
      const int repeats = a == Action::kDasLeft || a == Action::kDasRight ? engine::kMatrixWidth : 1;
      for (int i = 0; i < repeats; ++i) tap(button_of(a));
    }
    tap(engine::button::kHardDrop);
  }
  session.tick(t + 1.0);
  ASSERT_EQ(session.phase(), SessionPhase::kOver);
  EXPECT_TRUE(engine::puzzle_cleared(session.game()));
  EXPECT_EQ(judge_attempt(1, engine::puzzle_cleared(session.game())), AttemptEnd::kCleared);

  SoloRecord record = record_of(session, "solver", 1'700'000'000'000);
  record.place = puzzle_place(stage);
  EXPECT_TRUE(worth_storing(record, 0));
  ReplayLink link(dir_);
  const SaveOutcome saved = link.save(record);
  ASSERT_EQ(saved.error, "");
  auto loaded = replay::load_replay_file(saved.path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  const replay::Replay& r = loaded.value();
  EXPECT_EQ(replay::verify(r).verdict, replay::Verdict::kVerified) << replay::verify(r).message;
  EXPECT_EQ(r.place, "puzzle 23: T-spin Triple");
  EXPECT_EQ(r.config.mode, engine::ModeKind::kCustom);
  EXPECT_EQ(r.config.rotation, engine::RotationSystem::kOcular);
  ASSERT_EQ(r.racers.size(), 1u);
  EXPECT_EQ(r.racers[0].inputs, session.run().log());
  EXPECT_EQ(r.racers[0].result.status, replay::ResultStatus::kFinished);
  // Replayed from the file alone, the stage is cleared.
  engine::Game again(replay::racer_config(r, 0), r.seed);
  for (const auto& change : r.racers[0].inputs)
    ASSERT_EQ(again.update(change.time_us, change.buttons).error, engine::UpdateError::kOk);
  (void)again.update(again.now() + 5'000'000);
  EXPECT_TRUE(engine::puzzle_cleared(again));
}

// Hard-dropping the I of stage 1 at once tops nothing out but leaves cells: not cleared. Given up after 0.3 s, far
// inside settings' "given up" window, a puzzle attempt is still stored (the app passes 0) and verifies.
TEST_F(PuzzleReplay, AQuickFailedAttemptIsStoredToo) {
  const engine::GameConfig config = engine::make_puzzle(engine::puzzle_stages()[0]);
  SoloSession session(config, 1, 0.0, 0.0);
  session.set_buttons(0.100, engine::button::kHardDrop);
  session.set_buttons(0.150, 0);
  session.tick(0.300);
  session.abandon(0.300);
  EXPECT_FALSE(engine::puzzle_cleared(session.game()));
  EXPECT_EQ(judge_attempt(1, false), AttemptEnd::kRetryLeft);
  SoloRecord record = record_of(session, "me", 0);
  record.place = puzzle_place(0);
  EXPECT_FALSE(worth_storing(record, 10)) << "a solo game this short would not be kept";
  EXPECT_TRUE(worth_storing(record, 0));
  ReplayLink link(dir_);
  const SaveOutcome saved = link.save(record);
  ASSERT_EQ(saved.error, "");
  auto loaded = replay::load_replay_file(saved.path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().describe();
  EXPECT_EQ(replay::verify(loaded.value()).verdict, replay::Verdict::kVerified);
  EXPECT_EQ(loaded.value().racers.at(0).result.status, replay::ResultStatus::kForfeited);
  EXPECT_EQ(loaded.value().place, "puzzle 1: I-spin");
}

}  // namespace
}  // namespace sr::client
