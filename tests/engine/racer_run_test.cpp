#include "common/engine/racer_run.h"

#include <gtest/gtest.h>

#include <vector>

namespace sr::engine {
namespace {

using button::kHardDrop;
using button::kMoveLeft;
using button::kRotateCw;

// Changes every millisecond that alternate between a tap and nothing: each one changes the held buttons.
std::vector<InputChange> taps(std::size_t n) {
  std::vector<InputChange> out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back({static_cast<TimeUs>(i * 1000), static_cast<Buttons>(i % 2 == 0 ? kMoveLeft : 0)});
  }
  return out;
}

TEST(RacerRun, PressLogsChangesAndFeedsTheGame) {
  RacerRun run(make_sprint(), 7);
  ASSERT_EQ(run.press(100'000, kHardDrop).error, UpdateError::kOk);
  ASSERT_EQ(run.press(150'000, 0).error, UpdateError::kOk);
  EXPECT_EQ(run.log(), (std::vector<InputChange>{{100'000, kHardDrop}, {150'000, 0}}));
  EXPECT_EQ(run.next_seq(), 2u);
  EXPECT_EQ(run.now_us(), 150'000);
  EXPECT_EQ(run.game().stats().pieces, 1);
  ASSERT_EQ(run.locks().size(), 1u);
  EXPECT_EQ(run.locks()[0].time_us, 100'000);
}

TEST(RacerRun, AChangeToTheButtonsAlreadyHeldCountsInTheStreamButIsNeitherLoggedNorFed) {
  RacerRun run(make_sprint(), 7);
  ASSERT_EQ(run.press(10'000, kMoveLeft).error, UpdateError::kOk);
  const std::uint64_t hash_before = [&] {
    Game g(make_sprint(), 7);
    (void)g.update(10'000, kMoveLeft);
    (void)g.update(20'000);
    return g.state_hash();
  }();
  ASSERT_EQ(run.press(20'000, kMoveLeft).error, UpdateError::kOk);
  ASSERT_EQ(run.press(20'000, kMoveLeft).error, UpdateError::kOk);
  EXPECT_EQ(run.log().size(), 1u) << "a replay may not hold a change that changes nothing";
  EXPECT_EQ(run.next_seq(), 3u) << "the sender numbered all three";
  EXPECT_EQ(run.now_us(), 20'000);
  EXPECT_EQ(run.game().state_hash(), hash_before) << "time advanced to the no-op's time, nothing else";
  // Even a first "change" to nothing held is no change.
  RacerRun fresh(make_sprint(), 7);
  ASSERT_EQ(fresh.press(0, 0).error, UpdateError::kOk);
  EXPECT_TRUE(fresh.log().empty());
}

TEST(RacerRun, RefusedPressesChangeNothingButTheCount) {
  RacerRun run(make_sprint(), 7);
  ASSERT_EQ(run.press(50'000, kMoveLeft).error, UpdateError::kOk);
  EXPECT_EQ(run.press(40'000, 0).error, UpdateError::kTimeInPast);
  EXPECT_EQ(run.press(60'000, Buttons{1u << 12}).error, UpdateError::kInvalidButtons);
  EXPECT_EQ(run.log().size(), 1u);
  EXPECT_EQ(run.now_us(), 50'000);
  EXPECT_EQ(run.next_seq(), 3u);
}

TEST(RacerRun, NothingIsLoggedAfterTheGameEnds) {
  RacerRun run(make_sprint(1), 3);
  TimeUs t = 0;
  for (int i = 0; i < 200 && !run.game().over(); ++i) {
    ASSERT_EQ(run.press(t += 50'000, kHardDrop).error, UpdateError::kOk);
    ASSERT_EQ(run.press(t += 50'000, 0).error, UpdateError::kOk);
  }
  ASSERT_TRUE(run.game().over());
  const std::size_t logged = run.log().size();
  const TimeUs ended = run.game().now();
  ASSERT_EQ(run.press(t + 1'000'000, kRotateCw).error, UpdateError::kOk);
  EXPECT_EQ(run.log().size(), logged);
  EXPECT_EQ(run.now_us(), t + 1'000'000) << "the stream's time still moves on";
  EXPECT_EQ(run.game().now(), ended) << "the game's does not";
}

// The client reported the digest after the whole update call for every lock in it, so a frame that locked two
// pieces (a long frame at 20G) reported piece k with piece k+1's digest, and an honest game was called a desync.
TEST(RacerRun, LockDigestsDoNotDependOnHowOftenTheRunIsAdvanced) {
  RacerRun coarse(make_master(), 11);
  RacerRun fine(make_master(), 11);
  (void)coarse.advance(6'000'000);  // 20G, no input: a piece locks every lock delay, many in this one call
  for (TimeUs t = 0; t <= 6'000'000; t += 1'000) (void)fine.advance(t);
  ASSERT_GE(coarse.locks().size(), 5u);
  EXPECT_EQ(coarse.locks(), fine.locks());
  for (std::size_t k = 1; k < coarse.locks().size(); ++k) {
    EXPECT_NE(coarse.locks()[k].digest, coarse.locks()[k - 1].digest);
    EXPECT_LT(coarse.locks()[k - 1].time_us, coarse.locks()[k].time_us);
  }
  EXPECT_EQ(coarse.digest_after(2), coarse.locks()[1].digest);
  EXPECT_EQ(coarse.digest_after(0), std::nullopt);
  EXPECT_EQ(coarse.digest_after(static_cast<std::int64_t>(coarse.locks().size()) + 1), std::nullopt);
}

TEST(RacerRun, CheckpointsHashTheStateAfterTheCallOfEveryNthLock) {
  RacerRun run(make_sprint(), 5, /*checkpoint_every=*/2);
  TimeUs t = 0;
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(run.press(t += 100'000, kHardDrop).error, UpdateError::kOk);
    ASSERT_EQ(run.press(t += 100'000, 0).error, UpdateError::kOk);
  }
  ASSERT_EQ(run.locks().size(), 5u);
  ASSERT_EQ(run.checkpoints().size(), 2u);
  // Pieces 2 and 4 locked in the hard-drop calls at 300 ms and 700 ms: the hash is the state right after them.
  Game g(make_sprint(), 5);
  for (const InputChange& c : run.log()) {
    (void)g.update(c.time_us, c.buttons);
    if (c.time_us == 300'000) {
      EXPECT_EQ(run.checkpoints()[0], (Checkpoint{300'000, g.state_hash()}));
    }
    if (c.time_us == 700'000) {
      EXPECT_EQ(run.checkpoints()[1], (Checkpoint{700'000, g.state_hash()}));
    }
  }
  EXPECT_TRUE(RacerRun(make_sprint(), 5).checkpoints().empty());
}

TEST(RacerRun, AcceptsContiguousBatches) {
  RacerRun run(make_sprint(), 1);
  const auto log = taps(5);
  ASSERT_EQ(run.accept(0, 1500, std::span(log).first(2)), StreamError::kOk);
  ASSERT_EQ(run.accept(2, 1500, {}), StreamError::kOk);  // time passes, nothing pressed
  ASSERT_EQ(run.accept(2, 4000, std::span(log).subspan(2)), StreamError::kOk);
  EXPECT_EQ(run.next_seq(), 5u);
  EXPECT_EQ(run.now_us(), 4000);
  EXPECT_EQ(run.game().now(), 4000);
  EXPECT_EQ(run.log(), log);
}

TEST(RacerRun, RefusesGapsOverlapsTimeTravelAndBadBatchesWithoutChanging) {
  RacerRun run(make_sprint(), 1);
  const auto log = taps(4);
  ASSERT_EQ(run.accept(0, 1000, std::span(log).first(2)), StreamError::kOk);
  EXPECT_EQ(run.accept(3, 5000, std::span(log).subspan(3)), StreamError::kGap);
  EXPECT_EQ(run.accept(1, 5000, std::span(log).subspan(1)), StreamError::kOverlap);
  EXPECT_EQ(run.accept(2, 999, {}), StreamError::kNowBackwards);
  const std::vector<InputChange> early{{999, 0}};
  EXPECT_EQ(run.accept(2, 2000, early), StreamError::kTimeBackwards);
  const std::vector<InputChange> unordered{{3000, kMoveLeft}, {2000, 0}};
  EXPECT_EQ(run.accept(2, 4000, unordered), StreamError::kBadBatch);
  const std::vector<InputChange> past_now{{3000, kMoveLeft}};
  EXPECT_EQ(run.accept(2, 2000, past_now), StreamError::kBadBatch);
  const std::vector<InputChange> unknown{{3000, Buttons{1u << 15}}};
  EXPECT_EQ(run.accept(2, 4000, unknown), StreamError::kBadBatch);
  EXPECT_EQ(run.next_seq(), 2u);
  EXPECT_EQ(run.now_us(), 1000);
  EXPECT_EQ(run.log(), (std::vector<InputChange>(log.begin(), log.begin() + 2)));
  const std::vector<InputChange> same_time{{1000, kHardDrop}};
  EXPECT_EQ(run.accept(2, 1000, same_time), StreamError::kOk) << "a change at exactly the previous now_us is fine";
  EXPECT_EQ(run.next_seq(), 3u);
  EXPECT_STREQ(stream_error_name(StreamError::kGap), "changes missing before this batch");
}

}  // namespace
}  // namespace sr::engine
