// T-spin detection (3-corner rule, mini, the test-5 upgrade) and all-spin, played through real games.
// Boards are drawn top row first; scripts are taps (test_support.h) with instant soft drop.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::board;
using test::Driver;

struct Lock {
  ActivePiece before;  // where the piece was just before the hard drop
  int last_kick = -1;
  bool has_clear = false;
  Event clear;  // the kClear event, if any
  Stats stats;
  std::vector<std::string> rows;  // rows 0..3 afterwards, top first
};

Lock play_and_lock(const std::vector<BoardRow>& rows, const char* piece, const char* script, bool all_spin = false) {
  GameConfig c = test::rules_config(piece, rows);
  c.handling.sdf = 0;
  c.all_spin = all_spin;
  Driver d(c);
  (void)d.play(script);
  Lock out;
  out.before = d.piece();
  out.last_kick = d.game().state().last_kick;
  const auto clears = test::of_kind(d.play("HD"), EventKind::kClear);
  EXPECT_LE(clears.size(), 1u);
  if (!clears.empty()) out.has_clear = true, out.clear = clears[0];
  out.stats = d.game().stats();
  out.rows = test::rows_of(d.game().matrix(), 4);
  return out;
}

const std::vector<BoardRow> kTsdSlot = board({"XXXX..XXXX", "XXX...XXXX", "XXXX.XXXXX"});

TEST(TSpin, TPieceKicksIntoTSpinDoubleSlot) {
  const Lock l = play_and_lock(kTsdSlot, "T", "R CCW SD CCW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kSouth, 3, 0}));
  EXPECT_EQ(l.last_kick, 2) << "L->2 test 3 (-1, -1)";
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kFull);
  EXPECT_EQ(l.clear.lines, 2);
  EXPECT_EQ(l.clear.rows_mask, 0b11);
  EXPECT_EQ(l.clear.points, 1200);
  EXPECT_EQ(l.stats.tspin_doubles, 1);
  EXPECT_EQ(l.stats.doubles, 0);
  EXPECT_EQ(l.rows, (std::vector<std::string>{"..........", "..........", "..........", "XXXX..XXXX"}));
}

TEST(TSpin, TPieceKicksIntoTSpinTripleSlot) {
  const auto rows = board({"...X......", "..........", "XXX.XXXXXX", "XX..XXXXXX", "XXX.XXXXXX"});
  const Lock l = play_and_lock(rows, "T", "L L L SD R CCW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kWest, 2, 0}));
  EXPECT_EQ(l.last_kick, 4) << "0->L test 5 (+1, -2)";
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kFull);
  EXPECT_EQ(l.clear.lines, 3);
  EXPECT_EQ(l.clear.points, 1600);
  EXPECT_EQ(l.stats.tspin_triples, 1);
  EXPECT_EQ(l.rows, (std::vector<std::string>{"..........", "..........", "...X......", ".........."}));
}

TEST(TSpinMini, NorthFacingWithOneTopCorner) {
  // East into the slot, then back to north in place: bottom corners and the top-left one are taken.
  const Lock l = play_and_lock(kTsdSlot, "T", "CW SD CCW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kNorth, 3, 0}));
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kMini);
  EXPECT_EQ(l.clear.lines, 1);
  EXPECT_EQ(l.clear.points, 200);
}

TEST(TSpin, SingleWhenOnlyOneRowFills) {
  const Lock l = play_and_lock(board({"XXXX..XXXX", "XXX...XXXX", "XXXX.XXXX."}), "T", "R CCW SD CCW");
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kFull);
  EXPECT_EQ(l.clear.lines, 1);
  EXPECT_EQ(l.clear.points, 800);
  EXPECT_EQ(l.stats.tspin_singles, 1);
}

TEST(TSpin, NoLinesStillScoresAsTSpin) {
  const Lock l = play_and_lock(board({"XXXX..XXXX", "XXX...XXX.", "XXXX.XXXX."}), "T", "R CCW SD CCW");
  ASSERT_TRUE(l.has_clear) << "a spin without lines is still reported";
  EXPECT_EQ(l.clear.spin, SpinKind::kFull);
  EXPECT_EQ(l.clear.lines, 0);
  EXPECT_EQ(l.clear.points, 400);
  EXPECT_EQ(l.stats.tspins, 1);
  EXPECT_EQ(l.stats.score, 400 + 17) << "400 plus 17 soft-dropped cells";
}

TEST(TSpin, FailedMoveAfterTheTurnKeepsTheSpin) {
  const Lock l = play_and_lock(kTsdSlot, "T", "R CCW SD CCW L R");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kSouth, 3, 0}));
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kFull);
}

TEST(TSpin, TwoCornersAreNoSpin) {
  // Turned in place between two blocks: one front and one back corner.
  const Lock l = play_and_lock(board({"X.X......."}), "T", "L L L SD CW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kEast, 0, 0}));
  EXPECT_TRUE(l.last_kick == 0);
  EXPECT_FALSE(l.has_clear);
  EXPECT_EQ(l.stats.minis + l.stats.tspins, 0);
}

// A south T slides under a ceiling to x 0, where it has the corners of a mini: (0,0), (0,2) and (2,2).
const std::vector<BoardRow> kCeiling = board({"XXXXXXX...", "..........", "X........."});

TEST(TSpin, SlideAfterTheTurnIsNoSpin) {
  const Lock l = play_and_lock(kCeiling, "T", "CW R R R SD CW L L L L L L");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kSouth, 0, 0}));
  EXPECT_FALSE(l.has_clear);
  EXPECT_EQ(l.stats.minis, 0);
}

TEST(TSpin, AutoShiftSlideAfterTheTurnIsNoSpin) {
  GameConfig c = test::rules_config("T", kCeiling);
  c.handling.sdf = 0;
  c.handling.arr_us = 0;
  c.handling.das_us = 100'000;
  Driver d(c);
  (void)d.play("CW R R R SD");
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kEast, 6, 0}));
  (void)d.press(10, button::kMoveLeft);  // blocked by the ceiling at (6, 2); charged at 100,010
  (void)d.at(200'000);
  ASSERT_EQ(d.piece().x, 6);
  (void)d.tap(200'001, button::kRotateCw);  // south fits in place, then the charge slides it to the wall
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kSouth, 0, 0}));
  EXPECT_FALSE(d.game().state().last_rotated);
  EXPECT_TRUE(test::of_kind(d.tap(200'002, button::kHardDrop), EventKind::kClear).empty());
}

// Against the left wall on a floor with a hole at x = 0: both back corners are the wall, one front corner is taken.
const std::vector<BoardRow> kMiniSlot = board({".XXXXXXXXX"});

TEST(TSpinMini, OneFrontTwoBackCornersIsAMini) {
  const Lock l = play_and_lock(kMiniSlot, "T", "L L L SD CW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kEast, -1, 0}));
  EXPECT_EQ(l.last_kick, 1) << "0->R test 2 (-1, 0)";
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kMini);
  EXPECT_EQ(l.clear.lines, 1);
  EXPECT_EQ(l.clear.points, 200);
  EXPECT_EQ(l.stats.mini_singles, 1);
  EXPECT_EQ(l.stats.singles, 0);
}

TEST(TSpinMini, MirroredAgainstTheRightWall) {
  const Lock l = play_and_lock(board({"XXXXXXXXX."}), "T", "R R R R SD CCW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kWest, 8, 0}));
  EXPECT_EQ(l.last_kick, 1) << "0->L test 2 (+1, 0)";
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kMini);
  EXPECT_EQ(l.clear.points, 200);
}

TEST(TSpinMini, NoLines) {
  const Lock l = play_and_lock(board({".XXXXXXXX."}), "T", "L L L SD CW");
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kMini);
  EXPECT_EQ(l.clear.lines, 0);
  EXPECT_EQ(l.clear.points, 100);
  EXPECT_EQ(l.stats.minis, 1);
}

TEST(TSpin, MovedIntoTheSlotIsNoSpin) {
  // Same final position as the mini, but the last action was the soft drop.
  const Lock l = play_and_lock(kMiniSlot, "T", "CW L L L L SD");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kEast, -1, 0}));
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kNone);
  EXPECT_EQ(l.clear.points, 100);
  EXPECT_EQ(l.stats.singles, 1);
}

TEST(TSpin, HardDropAfterTheTurnIsNoSpin) {
  const Lock l = play_and_lock(kMiniSlot, "T", "CW L L L L");  // turned in the air, then hard dropped 18 rows
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kNone);
  EXPECT_EQ(l.stats.score, 100 + 2 * 18);
}

// The T turns clockwise into x = 1, rows 0..2. Corners: both back (left) taken, front-top taken, front-bottom free.
const std::vector<BoardRow> kFinSlot = board({"..X.......", "..........", "XX.XXXXXXX", "XX..XXXXXX", "XX..XXXXXX"});

TEST(TSpinMini, KickTestFiveUpgradesToFullTSpin) {
  const Lock l = play_and_lock(kFinSlot, "T", "SD L CW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kEast, 1, 0}));
  EXPECT_EQ(l.last_kick, 4) << "0->R test 5 (-1, -2)";
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kFull);
  EXPECT_EQ(l.clear.lines, 2);
  EXPECT_EQ(l.clear.points, 1200);
}

TEST(TSpinMini, SameCornersReachedByKickTestFourStayMini) {
  // East -> south -> east again, the last turn (2->R) using test 4 (0, -2) into the same place.
  const Lock l = play_and_lock(kFinSlot, "T", "SD L CW CW CCW");
  EXPECT_EQ(l.before, (ActivePiece{Piece::kT, Rotation::kEast, 1, 0}));
  EXPECT_EQ(l.last_kick, 3);
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kMini);
  EXPECT_EQ(l.clear.lines, 2);
  EXPECT_EQ(l.clear.points, 400);
  EXPECT_EQ(l.stats.mini_doubles, 1);
}

const std::vector<BoardRow> kSSlot = board({"X.........", "XXX..XXXXX", "XX..XXXXXX"});  // no perfect clear

TEST(AllSpin, StuckNonTPieceAfterATurnScoresAsMini) {
  const Lock l = play_and_lock(kSSlot, "S", "SD CW L CW", true);
  EXPECT_EQ(l.before, (ActivePiece{Piece::kS, Rotation::kSouth, 2, 0}));
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kMini);
  EXPECT_EQ(l.clear.lines, 2);
  EXPECT_EQ(l.clear.points, 400);
  EXPECT_EQ(l.stats.mini_doubles, 1);
}

TEST(AllSpin, OffByDefault) {
  const Lock l = play_and_lock(kSSlot, "S", "SD CW L CW", false);
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kNone);
  EXPECT_EQ(l.clear.points, 300);
  EXPECT_EQ(l.stats.doubles, 1);
}

TEST(AllSpin, PieceThatCanMoveUpIsNoSpin) {
  const Lock l = play_and_lock({}, "S", "SD CW", true);
  EXPECT_EQ(l.before.rotation, Rotation::kEast);
  EXPECT_FALSE(l.has_clear);
  EXPECT_EQ(l.stats.minis, 0);
}

TEST(AllSpin, TStillUsesTheCornerRule) {
  const Lock l = play_and_lock(kTsdSlot, "T", "R CCW SD CCW", true);
  ASSERT_TRUE(l.has_clear);
  EXPECT_EQ(l.clear.spin, SpinKind::kFull);
  EXPECT_EQ(l.clear.points, 1200);
}

}  // namespace
}  // namespace sr::engine
