// Guideline scoring through real games: tetris, back-to-back chains, combos, perfect clears, drop points, level.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::board;
using test::Driver;
using test::of_kind;

std::vector<BoardRow> rows_of(std::initializer_list<std::pair<int, std::string_view>> runs) {
  // {count, row} pairs, bottom first.
  std::vector<BoardRow> out;
  for (auto [count, row] : runs) {
    for (int i = 0; i < count; ++i) out.push_back(board({row})[0]);
  }
  return out;
}

// An I turned clockwise stands in column 9 (box x 7).
constexpr int kWellColumnBox = 7;

TEST(GuidelineGame, TetrisScoresEightHundredPlusHardDrop) {
  Driver d(test::rules_config("I", rows_of({{4, "XXXXXXXXX."}, {1, "X........."}})));
  const auto events = d.drop_at("CW", kWellColumnBox);
  const auto clears = of_kind(events, EventKind::kClear);
  ASSERT_EQ(clears.size(), 1u);
  EXPECT_EQ(clears[0].lines, 4);
  EXPECT_EQ(clears[0].points, 800);
  EXPECT_FALSE(clears[0].b2b);
  const auto drops = of_kind(events, EventKind::kHardDrop);
  ASSERT_EQ(drops.size(), 1u);
  EXPECT_EQ(drops[0].rows, 17) << "spawned at box row 18, dropped to 17, turned, hard dropped to 0";
  EXPECT_EQ(d.game().stats().score, 800 + 2 * 17);
  EXPECT_EQ(d.game().stats().tetrises, 1);
  EXPECT_EQ(d.game().stats().lines, 4);
}

TEST(GuidelineGame, LevelMultipliesTheClear) {
  GameConfig c = test::rules_config("I", rows_of({{4, "XXXXXXXXX."}, {1, "X........."}}));
  c.start_level = 3;
  Driver d(c);
  const auto clears = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(clears.size(), 1u);
  EXPECT_EQ(clears[0].points, 2400);
}

TEST(GuidelineGame, TetrisAfterTetrisIsBackToBack) {
  Driver d(test::rules_config("I", rows_of({{8, "XXXXXXXXX."}, {1, "X........."}})));
  const auto first = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  const auto second = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_FALSE(first[0].b2b);
  EXPECT_TRUE(second[0].b2b);
  EXPECT_EQ(second[0].points, 1200 + 50) << "back-to-back tetris, second clear in a combo";
  EXPECT_EQ(d.game().stats().max_b2b, 1);
}

TEST(GuidelineGame, BackToBackTetrisPerfectClear) {
  Driver d(test::rules_config("I", rows_of({{8, "XXXXXXXXX."}})));
  (void)d.drop_at("CW", kWellColumnBox);
  const auto clears = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(clears.size(), 1u);
  EXPECT_TRUE(clears[0].b2b);
  EXPECT_TRUE(clears[0].perfect_clear);
  EXPECT_EQ(clears[0].points, 1200 + 50 + 3200) << "b2b tetris, combo 1, b2b tetris perfect-clear bonus";
  EXPECT_EQ(d.game().stats().perfect_clears, 1);
  EXPECT_TRUE(d.game().matrix().empty());
}

TEST(GuidelineGame, SingleBetweenTetrisesBreaksBackToBack) {
  Driver d(test::rules_config("I", rows_of({{8, "XXXXXXXXX."}, {1, "XXXXXX...."}, {1, "X........."}})));
  (void)d.drop_at("CW", kWellColumnBox);
  const auto single = of_kind(d.drop_at("", 6), EventKind::kClear);  // flat I on row 4, x 6..9
  ASSERT_EQ(single.size(), 1u);
  EXPECT_EQ(single[0].lines, 1);
  EXPECT_EQ(single[0].points, 100 + 50) << "a single, second clear in a combo";
  const auto tetris = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(tetris.size(), 1u);
  EXPECT_FALSE(tetris[0].b2b);
  EXPECT_EQ(tetris[0].points, 800 + 100) << "no back-to-back, third clear in a combo";
  EXPECT_EQ(d.game().stats().max_b2b, 0);
}

TEST(GuidelineGame, TSpinWithoutLinesKeepsBackToBack) {
  // Two tetrises in column 9 with a T-spin (no lines) in between, in a slot above the first four rows.
  GameConfig c =
      test::rules_config("ITI", rows_of({{8, "XXXXXXXXX."}, {1, "XXXX.XXXX."}, {1, "XXX...XXX."}, {1, "XXXX..XXX."}}));
  c.handling.sdf = 0;
  Driver d(c);
  const auto first = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].points, 800);
  const auto spin = of_kind(d.play("R CCW SD CCW HD"), EventKind::kClear);
  ASSERT_EQ(spin.size(), 1u);
  EXPECT_EQ(spin[0].spin, SpinKind::kFull);
  EXPECT_EQ(spin[0].lines, 0);
  EXPECT_EQ(spin[0].points, 400);
  const auto second = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_TRUE(second[0].b2b);
  EXPECT_EQ(second[0].combo, 0) << "the T-spin without lines broke the combo";
  EXPECT_EQ(second[0].points, 1200);
}

TEST(GuidelineGame, TSpinDoubleThenTetrisIsBackToBack) {
  GameConfig c =
      test::rules_config("TI", rows_of({{4, "XXXXXXXXX."}, {1, "XXXX.XXXXX"}, {1, "XXX...XXXX"}, {1, "XXXX..XXX."}}));
  c.handling.sdf = 0;
  Driver d(c);
  // The T-spin double clears the slot rows 4 and 5; column 9 then opens down to the well.
  const auto tsd = of_kind(d.play("R CCW SD CCW HD"), EventKind::kClear);
  ASSERT_EQ(tsd.size(), 1u);
  EXPECT_EQ(tsd[0].spin, SpinKind::kFull);
  EXPECT_EQ(tsd[0].lines, 2);
  EXPECT_EQ(tsd[0].rows_mask, 0b110000);
  EXPECT_EQ(tsd[0].points, 1200);
  const auto tetris = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(tetris.size(), 1u);
  EXPECT_TRUE(tetris[0].b2b);
  EXPECT_EQ(tetris[0].points, 1200 + 50) << "back-to-back tetris, second clear in a combo";
}

TEST(GuidelineGame, CombosCountConsecutiveClearingPieces) {
  Driver d(test::rules_config("O", rows_of({{6, "XXXXXXXX.."}, {1, "X........."}})));
  const std::int64_t kPoints[3] = {300, 350, 400};
  for (int i = 0; i < 3; ++i) {
    const auto clears = of_kind(d.drop_at("", 8), EventKind::kClear);
    ASSERT_EQ(clears.size(), 1u) << "O " << i;
    EXPECT_EQ(clears[0].lines, 2);
    EXPECT_EQ(clears[0].combo, i);
    EXPECT_EQ(clears[0].points, kPoints[i]);
  }
  EXPECT_EQ(d.game().stats().max_combo, 2);
  EXPECT_TRUE(of_kind(d.drop_at("", 0), EventKind::kClear).empty());
  EXPECT_EQ(d.game().state().combo, -1) << "a lock without lines ends the combo";
}

TEST(GuidelineGame, PerfectClearDouble) {
  Driver d(test::rules_config("O", rows_of({{2, "XXXXXXXX.."}})));
  const auto clears = of_kind(d.drop_at("", 8), EventKind::kClear);
  ASSERT_EQ(clears.size(), 1u);
  EXPECT_TRUE(clears[0].perfect_clear);
  EXPECT_EQ(clears[0].points, 300 + 1200);
  EXPECT_EQ(d.game().stats().perfect_clears, 1);
}

TEST(GuidelineGame, ClearsScoreAtTheLevelBeforeTheClear) {
  Driver d(test::rules_config("I", rows_of({{16, "XXXXXXXXX."}, {1, "X........."}})));
  const std::int64_t kPoints[4] = {800, 1200 + 50, 1200 + 100, (1200 + 150) * 2};
  for (int i = 0; i < 4; ++i) {
    const auto events = d.drop_at("CW", kWellColumnBox);
    const auto clears = of_kind(events, EventKind::kClear);
    ASSERT_EQ(clears.size(), 1u);
    EXPECT_EQ(clears[0].points, kPoints[i]) << "tetris " << i;
    const auto level_ups = of_kind(events, EventKind::kLevelUp);
    EXPECT_EQ(level_ups.size(), i == 2 ? 1u : 0u) << "tetris " << i;
  }
  EXPECT_EQ(d.game().stats().level, 2);
}

TEST(TetrsGame, QuadsChainBackToBackAndCombo) {
  GameConfig c = test::rules_config("I", rows_of({{8, "XXXXXXXXX."}, {1, "X........."}}));
  c.scoring = Scoring::kTetrs;
  Driver d(c);
  const auto first = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  const auto second = of_kind(d.drop_at("CW", kWellColumnBox), EventKind::kClear);
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(first[0].points, 160);
  EXPECT_EQ(second[0].points, 160 * 2 * 4) << "combo x2, second quad in a row x2^2";
  EXPECT_EQ(d.game().stats().score, 160 + 1280) << "no drop points";
}

TEST(DropPoints, SoftDropOnePerCellHardDropTwoPerCell) {
  Driver d(test::rules_config("T"));  // sdf 20: one row per soft-drop tap
  (void)d.play("SD SD SD");
  EXPECT_EQ(d.piece().y, 15);
  EXPECT_EQ(d.game().stats().score, 3);
  (void)d.play("HD");
  EXPECT_EQ(d.game().stats().score, 3 + 2 * 16);
}

TEST(DropPoints, InstantSoftDropScoresEveryCell) {
  GameConfig c = test::rules_config("T");
  c.handling.sdf = 0;
  Driver d(c);
  (void)d.play("SD");
  EXPECT_EQ(d.piece().y, -1);
  EXPECT_EQ(d.game().stats().score, 19);
}

TEST(DropPoints, NoneOutsideGuidelineScoring) {
  GameConfig c = test::rules_config("T");
  c.scoring = Scoring::kContest;
  Driver d(c);
  (void)d.play("SD SD HD");
  EXPECT_EQ(d.game().stats().score, 0);
}

}  // namespace
}  // namespace sr::engine
