// DAS, ARR, soft drop factor and DAS cut delay, to the microsecond, on an empty matrix with T pieces.
// A T spawns at box x 3 (row 18 after the spawn drop) and reaches the right wall at box x 7.
#include <gtest/gtest.h>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Driver;

GameConfig handling(std::int32_t das_us, std::int32_t arr_us) {
  GameConfig c = test::rules_config("T");
  c.handling.das_us = das_us;
  c.handling.arr_us = arr_us;
  return c;
}

int x_at(Driver& d, TimeUs t) {
  (void)d.at(t);
  return d.piece().x;
}

TEST(Das, FirstMoveAtOnceSecondAfterDasThenEveryArr) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(d.piece().x, 4);
  EXPECT_EQ(x_at(d, 166'999), 4);
  EXPECT_EQ(x_at(d, 167'000), 5);
  EXPECT_EQ(x_at(d, 199'999), 5);
  EXPECT_EQ(x_at(d, 200'000), 6);
  EXPECT_EQ(x_at(d, 232'999), 6);
  EXPECT_EQ(x_at(d, 233'000), 7);
  EXPECT_EQ(x_at(d, 500'000), 7) << "stops at the wall";
  EXPECT_EQ(d.piece().y, 18) << "no gravity step before 1 s";
}

TEST(Das, ReleaseStopsTheRepeat) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveLeft);
  EXPECT_EQ(x_at(d, 167'000), 1);
  (void)d.release(170'000, button::kMoveLeft);
  EXPECT_EQ(x_at(d, 400'000), 1);
}

// Pushing at a wall: the repeat waits for the piece to change, then resumes on the same ARR rhythm
// (repeats at 167, 200, 233, 266, 299, 332 ms ...).
TEST(Arr, BlockedRepeatResumesOnItsRhythmWhenThePieceChanges) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(x_at(d, 300'000), 7) << "at the wall";
  (void)d.press(300'000, button::kMoveRight | button::kRotateCcw);  // west: one column narrower on the right
  EXPECT_EQ(d.piece().rotation, Rotation::kWest);
  EXPECT_EQ(x_at(d, 331'999), 7);
  EXPECT_EQ(x_at(d, 332'000), 8);
  EXPECT_EQ(x_at(d, 500'000), 8);
}

TEST(Arr, ChangeAtTheTimeOfABlockedRepeatWaitsForTheNextOne) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveRight);
  (void)d.at(250'000);
  // 299 ms is a repeat time: the repeat comes (blocked) before the turn, so the next move is at 332 ms.
  (void)d.press(299'000, button::kMoveRight | button::kRotateCcw);
  EXPECT_EQ(x_at(d, 331'999), 7);
  EXPECT_EQ(x_at(d, 332'000), 8);
}

TEST(Arr, HoldingAtAWallForHoursCostsNoEventPerRepeat) {
  // With ARR 1 us this would be 3.6e9 engine events per hour if every blocked repeat were an event.
  GameConfig c = handling(167'000, 1);
  c.lock_down = LockDown::kInfinite;
  Driver d(c);
  (void)d.press(0, button::kMoveRight);
  (void)d.at(3'600'000'000);
  EXPECT_TRUE(d.game().over() || d.piece().x == 7);
}

TEST(Das, ZeroDasTapMovesOneCellAndRepeatsEveryArr) {
  Driver d(handling(0, 33'000));
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(d.piece().x, 4) << "a tap moves one cell, not two";
  EXPECT_EQ(x_at(d, 32'999), 4);
  EXPECT_EQ(x_at(d, 33'000), 5);
  EXPECT_EQ(x_at(d, 66'000), 6);
}

TEST(Das, ZeroDasAndZeroArrGoToTheWallAtOnce) {
  Driver d(handling(0, 0));
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(d.piece().x, 7);
}

TEST(Arr, ZeroSendsThePieceToTheWallAtDas) {
  Driver d(handling(167'000, 0));
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(d.piece().x, 4);
  EXPECT_EQ(x_at(d, 166'999), 4);
  EXPECT_EQ(x_at(d, 167'000), 7);
}

TEST(Arr, ZeroDasChargeCarriesToTheNextPiece) {
  Driver d(handling(167'000, 0));
  (void)d.press(0, button::kMoveRight);
  (void)d.at(200'000);
  const auto events = d.press(300'000, button::kHardDrop);
  ASSERT_EQ(test::of_kind(events, EventKind::kSpawn).size(), 1u);
  EXPECT_EQ(d.piece().x, 7) << "the new piece spawns and slides to the wall at once";
  EXPECT_EQ(d.game().stats().pieces, 1);
}

TEST(Arr, ChargeCarriesThroughTheSpawnDelay) {
  GameConfig c = handling(167'000, 0);
  c.handling.are_us = 100'000;
  Driver d(c);
  (void)d.at(100'000);                         // the first piece, after the spawn delay
  (void)d.tap(100'010, button::kHardDrop);     // the next one is due at 200,010
  (void)d.press(100'020, button::kMoveRight);  // DAS runs out during the delay, at 267,020
  EXPECT_FALSE(d.game().active().has_value());
  (void)d.at(200'009);
  EXPECT_FALSE(d.game().active().has_value());
  EXPECT_EQ(x_at(d, 200'010), 3) << "DAS not charged yet";
  EXPECT_EQ(x_at(d, 267'019), 3);
  EXPECT_EQ(x_at(d, 267'020), 7);
}

TEST(Arr, ChargedDuringTheSpawnDelaySlidesTheNewPieceAtOnce) {
  GameConfig c = handling(50'000, 0);
  c.handling.are_us = 100'000;
  Driver d(c);
  (void)d.at(100'000);
  (void)d.tap(100'010, button::kHardDrop);
  (void)d.press(100'020, button::kMoveLeft);  // charged at 150,020, before the spawn at 200,010
  (void)d.at(200'009);
  EXPECT_FALSE(d.game().active().has_value());
  EXPECT_EQ(x_at(d, 200'010), 0);
}

TEST(Arr, RepeatKeepsItsRhythmIntoTheNextPiece) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(x_at(d, 299'999), 7);
  (void)d.press(300'000, button::kHardDrop);  // repeats were due at 167,000 + 33,000 k: ..., 299,000, 332,000
  EXPECT_EQ(d.piece().x, 3);
  EXPECT_EQ(x_at(d, 331'999), 3);
  EXPECT_EQ(x_at(d, 332'000), 4);
  EXPECT_EQ(x_at(d, 365'000), 5);
}

TEST(DasCutDelay, NewPieceWaitsBeforeSliding) {
  GameConfig c = handling(100'000, 0);
  c.handling.dcd_us = 50'000;
  Driver d(c);
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(x_at(d, 100'000), 7);
  (void)d.press(200'000, button::kHardDrop);
  EXPECT_EQ(d.piece().x, 3);
  EXPECT_EQ(x_at(d, 249'999), 3);
  EXPECT_EQ(x_at(d, 250'000), 7);
}

TEST(DasCutDelay, PostponesAPendingRepeat) {
  GameConfig c = handling(167'000, 33'000);
  c.handling.dcd_us = 50'000;
  Driver d(c);
  (void)d.press(0, button::kMoveRight);
  (void)d.press(300'000, button::kHardDrop);  // the repeat due at 332,000 moves to 350,000
  EXPECT_EQ(x_at(d, 349'999), 3);
  EXPECT_EQ(x_at(d, 350'000), 4);
  EXPECT_EQ(x_at(d, 383'000), 5);
}

TEST(Direction, NewestPressWinsAndReleaseHandsBackWithFreshDas) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveRight);
  EXPECT_EQ(d.piece().x, 4);
  (void)d.press(50'000, button::kMoveLeft);
  EXPECT_EQ(d.piece().x, 3) << "left, pressed last, wins at once";
  EXPECT_EQ(x_at(d, 166'999), 3) << "right's DAS no longer applies";
  EXPECT_EQ(x_at(d, 216'999), 3);
  EXPECT_EQ(x_at(d, 217'000), 2);
  (void)d.release(230'000, button::kMoveLeft);
  EXPECT_EQ(d.piece().x, 3) << "right takes over with a move at once";
  EXPECT_EQ(x_at(d, 396'999), 3);
  EXPECT_EQ(x_at(d, 397'000), 4);
  EXPECT_EQ(x_at(d, 430'000), 5);
}

TEST(Direction, ReleasingTheOlderDirectionChangesNothing) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveRight);
  (void)d.press(50'000, button::kMoveLeft);
  (void)d.release(100'000, button::kMoveRight);
  EXPECT_EQ(x_at(d, 216'999), 3);
  EXPECT_EQ(x_at(d, 217'000), 2);
}

TEST(Direction, BothPressedTogetherFavoursRight) {
  Driver d(handling(167'000, 33'000));
  (void)d.press(0, button::kMoveLeft | button::kMoveRight);
  EXPECT_EQ(d.piece().x, 4);
  EXPECT_EQ(x_at(d, 167'000), 5);
}

TEST(TieOrder, GravityStepsBeforeAnAutoShiftDueAtTheSameTime) {
  // Gravity and the first auto-shift are both due at 1 s. Gravity first: the T drops to row 17, where the block at
  // (7, 18) stops the shift. Shifting first would have left it at (5, 18).
  GameConfig c = handling(167'000, 33'000);
  std::vector<BoardRow> rows(19, BoardRow(kMatrixWidth, Piece::kNone));
  rows[18][7] = Piece::kGarbage;
  c.initial_board = rows;
  Driver d(c);
  (void)d.at(0);
  (void)d.press(833'000, button::kMoveRight);
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 4, 18}));
  (void)d.at(1'000'000);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 4, 17}));
}

TEST(SoftDrop, SdfTwentyStepsEveryFiftyMillisecondsAtLevelOne) {
  Driver d(test::rules_config("T"));
  (void)d.at(0);
  (void)d.press(10, button::kSoftDrop);
  EXPECT_EQ(d.piece().y, 17) << "one row at the press";
  (void)d.at(50'009);
  EXPECT_EQ(d.piece().y, 17);
  (void)d.at(50'010);
  EXPECT_EQ(d.piece().y, 16);
  (void)d.at(100'010);
  EXPECT_EQ(d.piece().y, 15);
  (void)d.release(120'000, button::kSoftDrop);
  (void)d.at(1'119'999);
  EXPECT_EQ(d.piece().y, 15) << "normal gravity again, counted from the release";
  (void)d.at(1'120'000);
  EXPECT_EQ(d.piece().y, 14);
  EXPECT_EQ(d.game().stats().score, 3) << "one point per soft-dropped row only";
}

TEST(SoftDrop, SdfIsRelativeToTheLevelsGravity) {
  GameConfig c = test::rules_config("T");
  c.start_level = 2;  // 793,000 us per row: soft drop every 39,650 us
  Driver d(c);
  (void)d.at(0);
  (void)d.press(0, button::kSoftDrop);
  EXPECT_EQ(d.piece().y, 17);
  (void)d.at(39'649);
  EXPECT_EQ(d.piece().y, 17);
  (void)d.at(39'650);
  EXPECT_EQ(d.piece().y, 16);
}

TEST(SoftDrop, SdfZeroIsInstant) {
  GameConfig c = test::rules_config("T");
  c.handling.sdf = 0;
  Driver d(c);
  (void)d.at(0);
  (void)d.press(5, button::kSoftDrop);
  EXPECT_EQ(d.piece().y, -1);
  EXPECT_EQ(d.game().stats().pieces, 0) << "soft drop does not lock";
  (void)d.at(504);
  EXPECT_EQ(d.game().stats().pieces, 0);
  (void)d.at(500'005);
  EXPECT_EQ(d.game().stats().pieces, 1) << "lock delay from the touch down";
}

TEST(Gravity, OneRowPerSecondAtLevelOne) {
  Driver d(test::rules_config("T"));
  (void)d.at(0);
  EXPECT_EQ(d.piece().y, 18);
  (void)d.at(999'999);
  EXPECT_EQ(d.piece().y, 18);
  (void)d.at(1'000'000);
  EXPECT_EQ(d.piece().y, 17);
  (void)d.at(3'000'000);
  EXPECT_EQ(d.piece().y, 15);
}

TEST(Gravity, TwentyGDropsAtOnce) {
  GameConfig c = test::rules_config("TT");
  c.gravity = Gravity::k20G;
  Driver d(c);
  (void)d.at(0);
  EXPECT_EQ(d.piece().y, -1);
  (void)d.press(10, button::kMoveLeft);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 2, -1}));
  EXPECT_EQ(d.game().stats().score, 0) << "gravity earns no drop points";
}

}  // namespace
}  // namespace sr::engine
