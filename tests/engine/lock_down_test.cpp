// Lock down: the 0.5 s timer and what resets it under each rule (extended, infinite, classic, timer), and hard drop.
// Pieces are T; soft drop is instant, so a soft-drop tap is a touch-down at a known time.
#include <gtest/gtest.h>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Driver;

GameConfig lock_config(LockDown rule, std::vector<BoardRow> rows = {}) {
  GameConfig c = test::rules_config("T", std::move(rows));
  c.handling.sdf = 0;
  c.lock_down = rule;
  return c;
}

// Row 0 filled at x 0..4: a T at box x 1..4 rests on it (box row 0); at x 5 it falls to the floor (box row -1).
std::vector<BoardRow> ledge() { return test::board({"XXXXX....."}); }

bool locked(Driver& d, TimeUs t) {
  (void)d.at(t);
  return d.game().stats().pieces == 1;
}

TEST(ExtendedLockDown, LocksHalfASecondAfterTouchDown) {
  Driver d(lock_config(LockDown::kExtended));
  (void)d.at(0);
  (void)d.tap(10, button::kSoftDrop);
  EXPECT_FALSE(locked(d, 500'009));
  EXPECT_TRUE(locked(d, 500'010));
  const auto locks = test::of_kind(d.log(), EventKind::kLock);
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(locks[0].time_us, 500'010);
}

TEST(ExtendedLockDown, LockDelayComesFromTheConfig) {
  GameConfig c = lock_config(LockDown::kExtended);
  c.lock_delay_us = 200'000;
  Driver d(c);
  (void)d.at(0);
  (void)d.tap(10, button::kSoftDrop);
  EXPECT_FALSE(locked(d, 200'009));
  EXPECT_TRUE(locked(d, 200'010));
}

// Touches down at 10, then moves left/right every 10 ms `moves` times, on the floor.
Driver shuffle_on_floor(LockDown rule, int moves, TimeUs gap = 10'000) {
  Driver d(lock_config(rule));
  (void)d.at(0);
  (void)d.tap(10, button::kSoftDrop);
  for (int i = 1; i <= moves; ++i) (void)d.tap(10 + gap * i, i % 2 ? button::kMoveLeft : button::kMoveRight);
  return d;
}

TEST(ExtendedLockDown, FifteenMovesResetTheTimer) {
  Driver d = shuffle_on_floor(LockDown::kExtended, 15);
  EXPECT_EQ(d.game().state().lock_resets, 15);
  EXPECT_FALSE(locked(d, 150'010 + 499'999));
  EXPECT_TRUE(locked(d, 150'010 + 500'000));
}

TEST(ExtendedLockDown, SixteenthMoveOnTheGroundLocksAtOnce) {
  Driver d = shuffle_on_floor(LockDown::kExtended, 15);
  ASSERT_EQ(d.game().stats().pieces, 0);
  (void)d.tap(160'010, button::kMoveLeft);
  EXPECT_EQ(d.game().stats().pieces, 1);
  const auto locks = test::of_kind(d.log(), EventKind::kLock);
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(locks[0].time_us, 160'010);
  EXPECT_EQ(static_cast<int>(locks[0].x), 1) << "locked where the sixteenth move put it";
}

TEST(ExtendedLockDown, MovesInTheAirDoNotCount) {
  Driver d(lock_config(LockDown::kExtended));
  for (int i = 0; i < 20; ++i) (void)d.play(i % 2 ? "R" : "L");
  EXPECT_EQ(d.game().state().lock_resets, 0);
  (void)d.tap(100, button::kSoftDrop);
  EXPECT_FALSE(locked(d, 500'099));
  EXPECT_TRUE(locked(d, 500'100));
}

TEST(ExtendedLockDown, NewLowestRowGivesFifteenMoreResets) {
  Driver d(lock_config(LockDown::kExtended, ledge()));
  (void)d.play("L SD");  // on the ledge at box (2, 0)
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 2, 0}));
  (void)d.play("L R L R L R L R L R L R R R");  // 14 resets, ending at x 4, still on the ledge
  ASSERT_EQ(d.game().state().lock_resets, 14);
  (void)d.play("R");  // 15th reset: x 5, off the ledge, in the air
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 5, 0}));
  EXPECT_EQ(d.game().state().lock_resets, 15);
  (void)d.play("SD");
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 5, -1}));
  EXPECT_EQ(d.game().state().lock_resets, 0) << "a new lowest row resets the count";
  (void)d.play("R L R L R L R L R L R L R L R");  // 15 more
  EXPECT_EQ(d.game().stats().pieces, 0);
  (void)d.play("R");
  EXPECT_EQ(d.game().stats().pieces, 1);
}

// On the floor a T turned east and back north ends one row up, in the air, without having reached a new lowest row.
TEST(ExtendedLockDown, ResetsUsedUpInTheAirLockOnLanding) {
  Driver d(lock_config(LockDown::kExtended));
  (void)d.play("SD L R L R L R L R L R L R L R");  // 14 resets
  (void)d.play("CW");                              // the 15th: kicked up to east (2, 0), still grounded
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kEast, 2, 0}));
  (void)d.tap(100, button::kRotateCcw);  // north at (2, 0): in the air with no reset left
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 2, 0}));
  EXPECT_TRUE(d.game().state().lock_on_landing);
  EXPECT_FALSE(locked(d, 1'000'099));
  EXPECT_TRUE(locked(d, 1'000'100)) << "gravity brings it down at 1,000,100 and it locks on touching";
}

TEST(InfiniteLockDown, NeverLocksWhileThePieceKeepsMoving) {
  Driver d = shuffle_on_floor(LockDown::kInfinite, 100, 400'000);  // 40 s of moves
  const TimeUs last_move = 10 + 400'000 * 100;
  EXPECT_FALSE(locked(d, last_move + 499'999));
  EXPECT_TRUE(locked(d, last_move + 500'000));
}

TEST(ClassicLockDown, MovesDoNotResetTheTimer) {
  Driver d = shuffle_on_floor(LockDown::kClassic, 4, 100'000);
  EXPECT_FALSE(locked(d, 500'009));
  EXPECT_TRUE(locked(d, 500'010));
}

TEST(ClassicLockDown, FallingToANewLowestRowRestartsTheTimer) {
  Driver d(lock_config(LockDown::kClassic, ledge()));
  (void)d.play("L SD");  // touches the ledge at t = 1
  (void)d.tap(300'000, button::kMoveRight);
  (void)d.tap(300'001, button::kMoveRight);
  (void)d.tap(300'002, button::kMoveRight);  // x 5: in the air; gravity steps at 1,300,002
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 5, 0}));
  EXPECT_FALSE(locked(d, 1'300'001)) << "the timer ran out in the air at 500,001: no lock before landing";
  EXPECT_EQ(d.piece().y, 0);
  EXPECT_FALSE(locked(d, 1'300'002));
  EXPECT_EQ(d.piece().y, -1);
  EXPECT_FALSE(locked(d, 1'800'001));
  EXPECT_TRUE(locked(d, 1'800'002));
}

TEST(TimerLockDown, MovesResetTheTimerUntilTheGroundTimeCap) {
  Driver d = shuffle_on_floor(LockDown::kTimer, 5, 400'000);  // the last move, at 2,000,010, sets 2,500,010
  EXPECT_FALSE(locked(d, 2'250'009));
  EXPECT_TRUE(locked(d, 2'250'010));
  const auto locks = test::of_kind(d.log(), EventKind::kLock);
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(locks[0].time_us, 10 + 2'250'000);
}

TEST(TimerLockDown, TimerStillLocksWithoutMoves) {
  Driver d = shuffle_on_floor(LockDown::kTimer, 2, 400'000);
  EXPECT_FALSE(locked(d, 800'010 + 499'999));
  EXPECT_TRUE(locked(d, 800'010 + 500'000));
}

TEST(TimerLockDown, NewLowestRowResetsTheGroundTime) {
  Driver d(lock_config(LockDown::kTimer, ledge()));
  (void)d.play("L SD");  // touches the ledge at t = 1
  for (int i = 1; i <= 4; ++i) (void)d.tap(400'000 * i, i % 2 ? button::kMoveLeft : button::kMoveRight);
  // 1.6 s on the ledge; now off it: in the air from 1,800,002, lands on the floor at 2,800,002.
  (void)d.tap(1'800'000, button::kMoveRight);
  (void)d.tap(1'800'001, button::kMoveRight);
  (void)d.tap(1'800'002, button::kMoveRight);
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 5, 0}));
  EXPECT_FALSE(locked(d, 2'800'002));
  EXPECT_EQ(d.piece().y, -1);
  for (int i = 1; i <= 5; ++i) (void)d.tap(2'800'002 + 400'000 * i, i % 2 ? button::kMoveRight : button::kMoveLeft);
  EXPECT_FALSE(locked(d, 2'800'002 + 2'249'999));
  EXPECT_TRUE(locked(d, 2'800'002 + 2'250'000));
}

TEST(TimerLockDown, GroundTimeAddsUpAcrossTimeInTheAir) {
  Driver d(lock_config(LockDown::kTimer));
  (void)d.at(0);
  (void)d.tap(10, button::kSoftDrop);       // on the floor from 10
  (void)d.tap(400'000, button::kMoveLeft);  // keep the lock timer from running out
  (void)d.tap(800'000, button::kMoveRight);
  (void)d.tap(1'000'000, button::kRotateCw);   // kicked up to east (2, 0), grounded
  (void)d.tap(1'000'001, button::kRotateCcw);  // north at (2, 0), in the air: 999,991 us on the ground so far
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 2, 0}));
  (void)d.at(2'000'001);  // gravity: back on the floor, not a new lowest row
  ASSERT_EQ(d.piece().y, -1);
  (void)d.tap(2'400'000, button::kMoveLeft);
  (void)d.tap(2'800'000, button::kMoveRight);
  (void)d.tap(3'200'000, button::kMoveLeft);
  EXPECT_FALSE(locked(d, 3'250'009));
  EXPECT_TRUE(locked(d, 3'250'010)) << "2,000,001 + (2,250,000 - 999,991)";
}

TEST(HardDrop, LocksAtOnce) {
  Driver d(test::rules_config("TO"));
  (void)d.at(0);
  const auto events = d.tap(7, button::kHardDrop);
  const auto locks = test::of_kind(events, EventKind::kLock);
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(locks[0].time_us, 7);
  EXPECT_EQ(static_cast<int>(locks[0].y), -1);
  const auto spawns = test::of_kind(events, EventKind::kSpawn);
  ASSERT_EQ(spawns.size(), 1u);
  EXPECT_EQ(spawns[0].piece, Piece::kO);
}

}  // namespace
}  // namespace sr::engine
