// The score tables, gravity table and level goals as pure functions (clear_points and friends).
// scoring_game_test.cpp checks the same numbers coming out of real games.
#include "common/engine/scoring.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sr::engine {
namespace {

ClearFacts facts(int lines, SpinKind spin = SpinKind::kNone, std::int32_t level = 1) {
  ClearFacts f;
  f.lines = lines;
  f.spin = spin;
  f.level = level;
  f.combo = lines > 0 ? 0 : -1;
  return f;
}

std::int64_t guideline(const ClearFacts& f) { return clear_points(Scoring::kGuideline, f); }

TEST(GuidelineScore, PlainClearsTimesLevel) {
  const std::int64_t kPoints[5] = {0, 100, 300, 500, 800};
  for (std::int32_t level : {1, 2, 7, 15}) {
    for (int lines = 0; lines <= 4; ++lines) {
      EXPECT_EQ(guideline(facts(lines, SpinKind::kNone, level)), kPoints[lines] * level) << lines << " lines";
    }
  }
}

TEST(GuidelineScore, MiniTSpinsNoLinesSingleDouble) {
  EXPECT_EQ(guideline(facts(0, SpinKind::kMini)), 100);
  EXPECT_EQ(guideline(facts(1, SpinKind::kMini)), 200);
  EXPECT_EQ(guideline(facts(2, SpinKind::kMini)), 400);
  EXPECT_EQ(guideline(facts(2, SpinKind::kMini, 4)), 1600);
}

TEST(GuidelineScore, TSpinsNoLinesToTriple) {
  EXPECT_EQ(guideline(facts(0, SpinKind::kFull)), 400);
  EXPECT_EQ(guideline(facts(1, SpinKind::kFull)), 800);
  EXPECT_EQ(guideline(facts(2, SpinKind::kFull)), 1200);
  EXPECT_EQ(guideline(facts(3, SpinKind::kFull)), 1600);
  EXPECT_EQ(guideline(facts(3, SpinKind::kFull, 5)), 8000);
}

TEST(GuidelineScore, BackToBackIsThreeHalvesOfTheClear) {
  ClearFacts f = facts(4);
  f.b2b = true;
  EXPECT_EQ(guideline(f), 1200);
  f.level = 3;
  EXPECT_EQ(guideline(f), 3600);
  f = facts(2, SpinKind::kFull);
  f.b2b = true;
  EXPECT_EQ(guideline(f), 1800);
  f = facts(1, SpinKind::kMini);
  f.b2b = true;
  EXPECT_EQ(guideline(f), 300);
  f = facts(0, SpinKind::kFull);
  f.b2b = true;
  EXPECT_EQ(guideline(f), 400) << "no bonus without lines";
}

TEST(GuidelineScore, ComboAddsFiftyTimesComboTimesLevel) {
  ClearFacts f = facts(1);
  f.combo = 1;
  EXPECT_EQ(guideline(f), 150);
  f.combo = 3;
  f.level = 2;
  EXPECT_EQ(guideline(f), 200 + 300);
  f = facts(4);
  f.combo = 2;
  f.b2b = true;
  EXPECT_EQ(guideline(f), 1200 + 100) << "the combo bonus is not multiplied by back-to-back";
}

TEST(GuidelineScore, PerfectClearBonusIsAddedToTheClear) {
  const std::int64_t kPlain[5] = {0, 100, 300, 500, 800};
  const std::int64_t kBonus[5] = {0, 800, 1200, 1800, 2000};
  for (std::int32_t level : {1, 3}) {
    for (int lines = 1; lines <= 4; ++lines) {
      ClearFacts f = facts(lines, SpinKind::kNone, level);
      f.perfect_clear = true;
      EXPECT_EQ(guideline(f), (kPlain[lines] + kBonus[lines]) * level) << lines << " lines";
    }
  }
  ClearFacts f = facts(4);
  f.perfect_clear = true;
  f.b2b = true;
  EXPECT_EQ(guideline(f), 1200 + 3200) << "back-to-back tetris perfect clear";
  f.level = 2;
  EXPECT_EQ(guideline(f), 2400 + 6400);
}

TEST(ContestScore, TableTimesLevelAndNothingElse) {
  const std::int64_t kPoints[5] = {0, 800, 1200, 1800, 2000};
  for (std::int32_t level : {1, 4}) {
    for (int lines = 0; lines <= 4; ++lines) {
      ClearFacts f = facts(lines, SpinKind::kNone, level);
      EXPECT_EQ(clear_points(Scoring::kContest, f), kPoints[lines] * level);
      f.spin = SpinKind::kFull;
      f.combo = 5;
      f.b2b = true;
      f.perfect_clear = lines > 0;
      EXPECT_EQ(clear_points(Scoring::kContest, f), kPoints[lines] * level) << "spins, combos, b2b, PC ignored";
    }
  }
}

std::int64_t tetrs(int lines, SpinKind spin = SpinKind::kNone, std::int32_t combo = 0, std::int32_t b2b = 0,
                   bool perfect = false) {
  ClearFacts f = facts(lines, spin);
  f.combo = combo;
  f.tetrs_b2b = b2b;
  f.perfect_clear = perfect;
  return clear_points(Scoring::kTetrs, f);
}

TEST(TetrsScore, ValuesFromItsTable) {
  EXPECT_EQ(tetrs(1), 10);
  EXPECT_EQ(tetrs(2), 40);
  EXPECT_EQ(tetrs(3), 90);
  EXPECT_EQ(tetrs(4, SpinKind::kNone, 0, 1), 160);
  EXPECT_EQ(tetrs(1, SpinKind::kNone, 1), 20) << "single, second in a combo";
  EXPECT_EQ(tetrs(2, SpinKind::kNone, 1), 80) << "double, second in a combo";
  EXPECT_EQ(tetrs(1, SpinKind::kFull, 0, 1), 40);
  EXPECT_EQ(tetrs(2, SpinKind::kFull, 0, 1), 160);
  EXPECT_EQ(tetrs(3, SpinKind::kMini, 0, 1), 360);
  EXPECT_EQ(tetrs(1, SpinKind::kNone, 0, 1, true), 160) << "perfect clear x16";
  EXPECT_EQ(tetrs(4, SpinKind::kNone, 1, 2), 160 * 2 * 4) << "second quad in a row: combo x2, b2b 2^2";
  EXPECT_EQ(tetrs(4, SpinKind::kNone, 2, 3), 160 * 3 * 9);
  EXPECT_EQ(tetrs(0, SpinKind::kFull, -1, 0), 0);
}

TEST(Gravity, TableIsTheGuidelineFormulaInMicroseconds) {
  for (std::int32_t level = 1; level <= 20; ++level) {
    const double seconds = std::pow(0.8 - (level - 1) * 0.007, level - 1);
    EXPECT_EQ(gravity_us_per_row(level), std::llround(seconds * 1e6)) << "level " << level;
  }
  EXPECT_EQ(gravity_us_per_row(1), 1'000'000);
  EXPECT_EQ(gravity_us_per_row(2), 793'000);
  EXPECT_EQ(gravity_us_per_row(10), 64'152);
  EXPECT_EQ(gravity_us_per_row(15), 7'059);
  EXPECT_EQ(gravity_us_per_row(20), 455);
  EXPECT_EQ(gravity_us_per_row(30), 455) << "levels above 20 use level 20's speed";
}

TEST(Levels, FixedGoalIsTenLinesVariableGoalIsFiveTimesLevel) {
  for (std::int32_t level = 1; level <= 30; ++level) {
    EXPECT_EQ(lines_to_pass_level(GoalSystem::kFixed, level), 10);
    EXPECT_EQ(lines_to_pass_level(GoalSystem::kVariable, level), 5 * level);
  }
}

TEST(BackToBack, OnlyTetrisesAndSpinsWithLinesAreDifficult) {
  EXPECT_TRUE(is_difficult_clear(4, SpinKind::kNone));
  EXPECT_TRUE(is_difficult_clear(1, SpinKind::kMini));
  EXPECT_TRUE(is_difficult_clear(3, SpinKind::kFull));
  EXPECT_FALSE(is_difficult_clear(3, SpinKind::kNone));
  EXPECT_FALSE(is_difficult_clear(1, SpinKind::kNone));
  EXPECT_FALSE(is_difficult_clear(0, SpinKind::kFull));
}

}  // namespace
}  // namespace sr::engine
