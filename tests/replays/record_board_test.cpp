#include "common/replay/record_board.h"

#include <gtest/gtest.h>

namespace sr::replay {
namespace {

using engine::GameConfig;

std::string id_of(const GameConfig& config) {
  auto board = record_board(config);
  return board ? board->id : "(none)";
}

TEST(RecordBoard, EveryStandardModeWithALimitHasItsOwnBoard) {
  EXPECT_EQ(id_of(engine::make_sprint()), "sprint-40l");
  EXPECT_EQ(id_of(engine::make_sprint(20)), "sprint-20l");
  EXPECT_EQ(id_of(engine::make_ultra()), "ultra-120s");
  EXPECT_EQ(id_of(engine::make_ultra(180)), "ultra-180s");
  EXPECT_EQ(id_of(engine::make_marathon()), "marathon-15v");
  EXPECT_EQ(id_of(engine::make_master()), "master-100l");
  EXPECT_EQ(id_of(engine::make_contest()), "contest-90s");
  const RecordBoard sprint = *record_board(engine::make_sprint());
  EXPECT_FALSE(sprint.custom);
  EXPECT_EQ(sprint.limit_text, "40 lines");
  EXPECT_EQ(sprint.goal, engine::GoalKind::kTime);
  EXPECT_EQ(record_board(engine::make_ultra())->limit_text, "120 s");
  EXPECT_EQ(record_board(engine::make_marathon())->limit_text, "level 15");
}

TEST(RecordBoard, GamesWithoutALimitHaveNoBoard) {
  EXPECT_EQ(id_of(engine::make_endless()), "(none)");
  EXPECT_EQ(id_of(engine::make_custom()), "(none)");
  GameConfig lines = engine::make_sprint();
  lines.goal = engine::GoalKind::kLines;  // everyone who reaches 40 lines has 40 lines
  EXPECT_EQ(id_of(lines), "(none)");
}

TEST(RecordBoard, HandlingNeverSplitsABoardButOtherSettingsDo) {
  GameConfig mine = engine::make_sprint();
  mine.handling.das_us = 80'000;
  mine.handling.arr_us = 0;
  EXPECT_EQ(id_of(mine), "sprint-40l");

  GameConfig classic = engine::make_sprint();
  classic.rotation = engine::RotationSystem::kClassic;
  GameConfig no_hold = engine::make_sprint();
  no_hold.hold_enabled = false;
  const std::string a = id_of(classic);
  const std::string b = id_of(no_hold);
  ASSERT_EQ(a.size(), std::string("sprint-40l.").size() + 8) << a;
  EXPECT_EQ(a.substr(0, 11), "sprint-40l.");
  EXPECT_NE(a, b);
  EXPECT_TRUE(record_board(classic)->custom);
  // The same custom settings give the same board, whoever's handling.
  classic.handling.das_us = 100'000;
  EXPECT_EQ(id_of(classic), a);
  EXPECT_TRUE(valid_board_id(a));
}

TEST(RecordBoard, FinishedRunsCountAndToppedOutOnesOnlyWhereNotRankedByTimeOrTimeLimited) {
  RacerResult finished;
  finished.status = ResultStatus::kFinished;
  finished.stats.time_us = 41'000'000;
  finished.stats.score = 12'345;
  RacerResult topped = finished;
  topped.status = ResultStatus::kToppedOut;
  topped.top_out = engine::TopOut::kBlockOut;
  RacerResult left = finished;
  left.status = ResultStatus::kDisconnected;

  const RecordBoard sprint = *record_board(engine::make_sprint());
  const RecordBoard ultra = *record_board(engine::make_ultra());
  const RecordBoard marathon = *record_board(engine::make_marathon());
  EXPECT_TRUE(result_counts(sprint, finished));
  EXPECT_FALSE(result_counts(sprint, topped));
  EXPECT_FALSE(result_counts(ultra, topped));
  EXPECT_TRUE(result_counts(marathon, topped));
  EXPECT_FALSE(result_counts(marathon, left));
  EXPECT_EQ(ranked_value(sprint, finished), 41'000'000);
  EXPECT_TRUE(lower_is_better(sprint));
  EXPECT_EQ(ranked_value(ultra, finished), 12'345);
  EXPECT_FALSE(lower_is_better(ultra));
}

TEST(RecordBoard, BoardIdsFromOutsideAreCheckedForForm) {
  EXPECT_TRUE(valid_board_id("sprint-40l"));
  EXPECT_FALSE(valid_board_id(""));
  EXPECT_FALSE(valid_board_id("Sprint-40l"));
  EXPECT_FALSE(valid_board_id("sprint/../x"));
  EXPECT_FALSE(valid_board_id(std::string(41, 'a')));
}

}  // namespace
}  // namespace sr::replay
