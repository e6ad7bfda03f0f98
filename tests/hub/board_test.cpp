// hub/records/board.h over common/replay/record_board.h: the sentences for a game without a board and a result that
// does not count, and the rank values the record book orders by (common/protocol/RECORDS.md section 4).
#include "hub/records/board.h"

#include <gtest/gtest.h>

namespace sr::hub::records {
namespace {

replay::RacerResult result(replay::ResultStatus status, std::int64_t time_us = 40'000'000, std::int64_t score = 0) {
  replay::RacerResult r;
  r.status = status;
  r.stats.time_us = time_us;
  r.stats.score = score;
  return r;
}

TEST(Board, TheBoardIsRecordBoards) {
  auto sprint = board_of(engine::make_sprint(40));
  ASSERT_TRUE(sprint);
  EXPECT_EQ(sprint.value(), *replay::record_board(engine::make_sprint(40)));
  EXPECT_EQ(sprint.value().id, "sprint-40l");
  EXPECT_TRUE(is_board_id("sprint-40l.3fa2c9d1"));
  EXPECT_FALSE(is_board_id("<script>"));
  EXPECT_FALSE(is_board_id(""));
}

TEST(Board, AGameWithoutABoardSaysWhy) {
  auto endless = board_of(engine::make_endless());
  ASSERT_FALSE(endless);
  EXPECT_EQ(endless.error(), "the game has no records board: it has no limit (endless), so its results do not compare");
  engine::GameConfig lines = engine::make_sprint(40);
  lines.goal = engine::GoalKind::kLines;
  auto same = board_of(lines);
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error(),
            "the game has no records board: its limit is what it is ranked by, so every result is the same");
}

TEST(Board, OnlyWhatRecordBoardsCountCountsAndTheSentenceSaysWhy) {
  const Board sprint = board_of(engine::make_sprint(40)).value();
  EXPECT_TRUE(counts_on_board(sprint, result(replay::ResultStatus::kFinished)));
  EXPECT_EQ(counts_on_board(sprint, result(replay::ResultStatus::kToppedOut)).error(),
            "topped out: only finished runs count on sprint-40l");
  EXPECT_EQ(counts_on_board(sprint, result(replay::ResultStatus::kDisconnected)).error(),
            "disconnected before the end: only finished runs count on sprint-40l");
  const Board ultra = board_of(engine::make_ultra(120)).value();
  EXPECT_EQ(counts_on_board(ultra, result(replay::ResultStatus::kToppedOut)).error(),
            "topped out: only finished runs count on ultra-120s");
  const Board marathon = board_of(engine::make_marathon()).value();
  EXPECT_TRUE(counts_on_board(marathon, result(replay::ResultStatus::kToppedOut)));
  EXPECT_EQ(counts_on_board(marathon, result(replay::ResultStatus::kForfeited)).error(),
            "forfeited: only finished or topped-out runs count on marathon-15v");
}

TEST(Board, RankValuesPutTheBetterResultFirst) {
  const Board sprint = board_of(engine::make_sprint(40)).value();
  const Board ultra = board_of(engine::make_ultra(120)).value();
  EXPECT_EQ(rank_value(sprint, result(replay::ResultStatus::kFinished, 41'000'000)), 41'000'000);
  EXPECT_LT(rank_value(sprint, 40'000'000), rank_value(sprint, 41'000'000));
  EXPECT_EQ(rank_value(ultra, result(replay::ResultStatus::kFinished, 120'000'000, 9000)), -9000);
  EXPECT_LT(rank_value(ultra, 9000), rank_value(ultra, 5000));
  EXPECT_STREQ(goal_name(engine::GoalKind::kScore), "score");
}

}  // namespace
}  // namespace sr::hub::records
