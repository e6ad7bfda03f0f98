#include "common/bot/evaluation.h"

#include <gtest/gtest.h>

#include "common/bot/features.h"
#include "common/bot/weights.h"
#include "tests/bot/bot_test_support.h"

namespace sr::bot {
namespace {

using engine::Piece;
using engine::Rotation;
using engine::SpinKind;

TEST(Features, CountHolesHeightsAndTransitions) {
  const Bitboard b = test::board({
      "##........",
      "#.#.......",
      "###......#",
  });
  const BoardFeatures f = measure(b);
  EXPECT_EQ(f.heights[0], 3);
  EXPECT_EQ(f.heights[1], 3);
  EXPECT_EQ(f.heights[2], 2);
  EXPECT_EQ(f.heights[9], 1);
  EXPECT_EQ(f.max_height, 3);
  EXPECT_EQ(f.aggregate_height, 3 + 3 + 2 + 1);
  EXPECT_EQ(f.holes, 1);  // (1, 1)
  EXPECT_EQ(f.hole_rows, 1);
  EXPECT_EQ(f.covered, 1);
}

TEST(Features, TheMainWellIsTheLowestColumn) {
  const Bitboard b = test::board({
      "#########.",
      "#########.",
      "#########.",
      "#########.",
  });
  const BoardFeatures f = measure(b);
  EXPECT_EQ(f.well_column, 9);
  EXPECT_EQ(f.well_depth, 4);
  EXPECT_EQ(f.bumpiness, 0);  // the well's edges are not bumpiness
  EXPECT_EQ(f.deep_wells, 0);
  EXPECT_EQ(f.holes, 0);
}

TEST(Features, SecondDeepWellIsCounted) {
  const Bitboard b = test::board({
      "###.####..",
      "###.####..",
      "###.####..",
  });
  const BoardFeatures f = measure(b, 9);
  EXPECT_EQ(f.well_column, 9);
  EXPECT_EQ(f.deep_wells, 1);  // column 3
}

TEST(Features, RecognisesATSpinDoubleSlot) {
  const Bitboard slot = test::board({
      "##........",
      "#...######",
      "##.#######",
  });
  EXPECT_EQ(measure(slot).tslots, 1);
  const Bitboard no_roof = test::board({
      "..........",
      "#...######",
      "##.#######",
  });
  EXPECT_EQ(measure(no_roof).tslots, 0);
}

TEST(Evaluation, LockPieceClearsLinesAndSeesPerfectClears) {
  Bitboard b = test::board({"######...."});
  const LockResult r = lock_piece(b, PieceState{Piece::kI, Rotation::kNorth, 6, -2});
  EXPECT_EQ(r.lines, 1);
  EXPECT_TRUE(r.perfect_clear);
  EXPECT_FALSE(r.lock_out);
  Bitboard high;
  EXPECT_TRUE(lock_piece(high, PieceState{Piece::kO, Rotation::kNorth, 4, 20}).lock_out);
}

TEST(Evaluation, ContextFollowsTheEngineRules) {
  PlayContext c;
  c = next_context(c, 4, SpinKind::kNone);
  EXPECT_EQ(c.combo, 0);
  EXPECT_EQ(c.b2b_chain, 1);
  c = next_context(c, 2, SpinKind::kFull);
  EXPECT_EQ(c.combo, 1);
  EXPECT_EQ(c.b2b_chain, 2);
  c = next_context(c, 1, SpinKind::kNone);
  EXPECT_EQ(c.b2b_chain, 0);
  c = next_context(c, 0, SpinKind::kNone);
  EXPECT_EQ(c.combo, -1);
}

TEST(Evaluation, HolesCostMoreThanHeight) {
  const Weights w = *weights_by_name("survival");
  const Bitboard flat = test::board({"#########.", "#########."});
  const Bitboard holed = test::board({"####.####.", "#########."});
  EXPECT_GT(board_value(flat, w), board_value(holed, w));
}

TEST(Evaluation, SprintPrefersTetrisesAndContestPrefersSingles) {
  const Weights sprint = *weights_by_name("sprint");
  const Weights contest = *weights_by_name("contest");
  const LockResult one{1, false, false}, four{4, false, false};
  const PlayContext ctx;
  EXPECT_GT(lock_value(four, SpinKind::kNone, Piece::kI, ctx, {}, sprint),
            4 * lock_value(one, SpinKind::kNone, Piece::kI, ctx, {}, sprint));
  EXPECT_GT(4 * lock_value(one, SpinKind::kNone, Piece::kI, ctx, {}, contest),
            lock_value(four, SpinKind::kNone, Piece::kI, ctx, {}, contest));
}

TEST(Evaluation, LockOutIsDeath) {
  const Weights w = *weights_by_name("sprint");
  EXPECT_EQ(lock_value(LockResult{0, false, true}, SpinKind::kNone, Piece::kO, {}, {}, w), w.death);
}

TEST(Weights, PresetsHaveNamesAndModesHaveDefaults) {
  EXPECT_EQ(weights_presets().size(), 4u);
  for (const auto& p : weights_presets()) EXPECT_TRUE(weights_by_name(p.name).has_value());
  EXPECT_FALSE(weights_by_name("nonsense").has_value());
  EXPECT_STREQ(default_weights_name(engine::ModeKind::kSprint), "sprint");
  EXPECT_STREQ(default_weights_name(engine::ModeKind::kMarathon), "survival");
  EXPECT_STREQ(default_weights_name(engine::ModeKind::kContest), "contest");
}

}  // namespace
}  // namespace sr::bot
