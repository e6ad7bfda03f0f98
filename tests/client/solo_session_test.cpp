#include "client/solo/solo_session.h"

#include <gtest/gtest.h>

#include "client/replay/replay_link.h"

namespace sr::client {
namespace {

namespace button = engine::button;

TEST(SoloSession, CountdownHoldsTheGameAndAppliesHeldButtonsAtZero) {
  SoloSession s(engine::make_sprint(40), 7, 100.0, 3.0);
  EXPECT_EQ(s.phase(), SessionPhase::kCountdown);
  EXPECT_NEAR(s.countdown_left(101.0), 2.0, 1e-9);
  s.set_buttons(102.5, button::kMoveLeft);  // DAS charged during the countdown
  EXPECT_TRUE(s.run().log().empty());
  s.tick(103.0);
  EXPECT_EQ(s.phase(), SessionPhase::kPlaying);
  ASSERT_EQ(s.run().log().size(), 1u);
  EXPECT_EQ(s.run().log()[0], (engine::InputChange{0, button::kMoveLeft}));
}

TEST(SoloSession, StampsKeyEventsOnTheMillisecondGridInGameTime) {
  SoloSession s(engine::make_sprint(40), 7, 10.0, 0.0);
  s.set_buttons(10.2504, button::kHardDrop);
  s.set_buttons(10.2611, 0);
  s.set_buttons(10.2611, 0);  // no change: not logged
  s.tick(10.5);
  ASSERT_EQ(s.run().log().size(), 2u);
  EXPECT_EQ(s.run().log()[0], (engine::InputChange{250'000, button::kHardDrop}));
  EXPECT_EQ(s.run().log()[1], (engine::InputChange{261'000, 0}));
  EXPECT_EQ(s.game().stats().pieces, 1);
  EXPECT_EQ(s.game_time(), 500'000);
}

TEST(SoloSession, PausedTimeDoesNotCount) {
  SoloSession s(engine::make_sprint(40), 7, 0.0, 0.0);
  s.tick(1.0);
  s.pause(1.0);
  EXPECT_EQ(s.phase(), SessionPhase::kPaused);
  s.set_buttons(5.0, button::kHardDrop);  // ignored while paused
  s.tick(30.0);
  EXPECT_EQ(s.game_time(), 1'000'000);
  s.resume(30.0, 0);
  s.tick(30.5);
  EXPECT_EQ(s.game_time(), 1'500'000);
  EXPECT_TRUE(s.run().log().empty());
}

TEST(SoloSession, ResumeAppliesButtonsThatChangedDuringThePause) {
  SoloSession s(engine::make_sprint(40), 7, 0.0, 0.0);
  s.set_buttons(0.5, button::kSoftDrop);
  s.pause(1.0);
  s.resume(9.0, 0);  // released during the pause
  ASSERT_EQ(s.run().log().size(), 2u);
  EXPECT_EQ(s.run().log()[1], (engine::InputChange{1'000'000, 0}));
}

TEST(SoloSession, AbandonEndsTheGameAndIgnoresLaterKeys) {
  SoloSession s(engine::make_sprint(40), 7, 0.0, 0.0);
  s.set_buttons(0.1, button::kHardDrop);
  s.abandon(0.2);
  EXPECT_EQ(s.phase(), SessionPhase::kOver);
  EXPECT_TRUE(s.abandoned());
  s.set_buttons(0.3, 0);
  EXPECT_EQ(s.run().log().size(), 1u);
}

TEST(SoloSession, ToppingOutEndsTheSessionWithoutAbandoning) {
  SoloSession s(engine::make_sprint(40), 7, 0.0, 0.0);
  double t = 0.0;
  for (int i = 0; i < 200 && s.phase() != SessionPhase::kOver; ++i) {
    s.set_buttons(t += 0.01, button::kHardDrop);
    s.set_buttons(t += 0.01, 0);
  }
  EXPECT_EQ(s.phase(), SessionPhase::kOver);
  EXPECT_FALSE(s.abandoned());
  EXPECT_NE(s.game().state().top_out, engine::TopOut::kNone);
}

TEST(SoloSession, TheLogReplaysToTheSameGame) {
  SoloSession s(engine::make_sprint(40), 99, 0.0, 0.0);
  const engine::Buttons pattern[] = {button::kMoveLeft,
                                     0,
                                     button::kRotateCw,
                                     button::kRotateCw | button::kHardDrop,
                                     0,
                                     button::kHold,
                                     0,
                                     button::kMoveRight,
                                     0,
                                     button::kHardDrop,
                                     0};
  double t = 0.0;
  for (int round = 0; round < 5; ++round) {
    for (auto b : pattern) {
      s.set_buttons(t += 0.0371, b);
      s.tick(t + 0.01);
    }
  }
  engine::Game replayed(s.game().config(), 99);
  for (const auto& in : s.run().log())
    ASSERT_EQ(replayed.update(in.time_us, in.buttons).error, engine::UpdateError::kOk);
  ASSERT_EQ(replayed.update(s.game().now()).error, engine::UpdateError::kOk);
  EXPECT_EQ(replayed.state_hash(), s.game().state_hash());

  const SoloRecord record = record_of(s, "tester", 1'700'000'000'000);
  EXPECT_EQ(record.run.log(), s.run().log());
  EXPECT_EQ(record.run.game().seed(), 99u);
  EXPECT_EQ(record.run.game().state_hash(), s.game().state_hash());
  EXPECT_EQ(record.player_name, "tester");
}

TEST(SoloSession, EveryUpdateLeavesItsSoundCuesUntilTaken) {
  SoloSession s(engine::make_sprint(40), 7, 10.0, 0.0);
  s.tick(10.1);
  EXPECT_EQ(s.take_cues(), std::vector<audio::Cue>{});  // the first piece spawned: silent
  s.set_buttons(10.2, button::kMoveRight);
  s.set_buttons(10.21, 0);
  s.set_buttons(10.3, button::kRotateCw);
  s.set_buttons(10.31, 0);
  EXPECT_EQ(s.take_cues(), (std::vector<audio::Cue>{audio::Cue::kMove, audio::Cue::kRotate}));
  EXPECT_EQ(s.take_cues(), std::vector<audio::Cue>{});
  s.set_buttons(10.4, button::kHold);
  s.set_buttons(10.41, button::kHardDrop);
  EXPECT_EQ(s.take_cues(), (std::vector<audio::Cue>{audio::Cue::kHold, audio::Cue::kHardDrop}));
}

TEST(SoloSession, UntakenCuesKeepOnlyTheNewest) {
  SoloSession s(engine::make_sprint(40), 7, 10.0, 0.0);
  double t = 10.0;
  for (int i = 0; i < 50; ++i) {  // 100 cues: a move and a rotation each
    s.set_buttons(t += 0.01, i % 2 == 0 ? button::kMoveRight : button::kMoveLeft);
    s.set_buttons(t += 0.01, button::kRotateCw);
    s.set_buttons(t += 0.01, 0);
  }
  EXPECT_EQ(s.take_cues().size(), SoloSession::kMaxPendingCues);
}

}  // namespace
}  // namespace sr::client
