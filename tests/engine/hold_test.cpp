// Hold, initial hold and initial rotation (IHS / IRS).
#include <gtest/gtest.h>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Driver;
using test::of_kind;

TEST(Hold, PutsTheActivePieceAwayAndTakesTheNext) {
  Driver d(test::rules_config("TIO"));
  (void)d.at(0);
  const auto events = d.play("HOLD");
  const auto holds = of_kind(events, EventKind::kHold);
  ASSERT_EQ(holds.size(), 1u);
  EXPECT_EQ(holds[0].piece, Piece::kT);
  const auto spawns = of_kind(events, EventKind::kSpawn);
  ASSERT_EQ(spawns.size(), 1u);
  EXPECT_EQ(spawns[0].piece, Piece::kI);
  EXPECT_EQ(d.game().hold(), Piece::kT);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kI, Rotation::kNorth, 3, 17}));
  EXPECT_EQ(d.game().stats().holds, 1);
  EXPECT_EQ(d.game().preview()[0], Piece::kO);
}

TEST(Hold, OncePerPiece) {
  Driver d(test::rules_config("TIO"));
  (void)d.play("HOLD");
  EXPECT_TRUE(of_kind(d.play("HOLD"), EventKind::kHold).empty());
  EXPECT_EQ(d.piece().piece, Piece::kI);
  EXPECT_EQ(d.game().hold(), Piece::kT);
  (void)d.play("HD");  // I locks, O comes
  EXPECT_EQ(d.piece().piece, Piece::kO);
  (void)d.play("HOLD");
  EXPECT_EQ(d.piece().piece, Piece::kT) << "the held piece comes back";
  EXPECT_EQ(d.game().hold(), Piece::kO);
  EXPECT_EQ(d.game().stats().holds, 2);
}

TEST(Hold, HeldPieceReturnsInSpawnOrientationAtTheTop) {
  Driver d(test::rules_config("TIO"));
  (void)d.play("CW L L SD SD HOLD HD HOLD");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 3, 18}));
}

TEST(Hold, ActsBeforeATurnPressedWithIt) {
  Driver d(test::rules_config("TIO"));
  (void)d.at(0);
  (void)d.press(1, button::kHold | button::kRotateCw);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kI, Rotation::kEast, 3, 17})) << "the turn applies to the piece from hold";
  EXPECT_EQ(d.game().hold(), Piece::kT);
}

TEST(Hold, DisabledDoesNothing) {
  GameConfig c = test::rules_config("TIO");
  c.hold_enabled = false;
  Driver d(c);
  EXPECT_TRUE(of_kind(d.play("HOLD"), EventKind::kHold).empty());
  EXPECT_EQ(d.piece().piece, Piece::kT);
  EXPECT_EQ(d.game().hold(), Piece::kNone);
  EXPECT_EQ(d.game().stats().holds, 0);
}

GameConfig with_spawn_delay(bool irs, bool ihs) {
  GameConfig c = test::rules_config("TIO");
  c.handling.are_us = 100'000;
  c.handling.irs = irs;
  c.handling.ihs = ihs;
  return c;
}

TEST(InitialHold, HoldPressedDuringTheDelayActsAtTheSpawn) {
  Driver d(with_spawn_delay(true, true));
  (void)d.at(100'000);
  (void)d.tap(100'010, button::kHardDrop);  // the I is due at 200,010
  (void)d.tap(150'000, button::kHold);
  EXPECT_FALSE(d.game().active().has_value());
  const auto events = d.at(200'010);
  ASSERT_EQ(of_kind(events, EventKind::kHold).size(), 1u);
  EXPECT_EQ(d.piece().piece, Piece::kO);
  EXPECT_EQ(d.game().hold(), Piece::kI);
  EXPECT_TRUE(of_kind(d.play("HOLD"), EventKind::kHold).empty()) << "the initial hold used this piece's hold";
}

TEST(InitialHold, DroppedWhenOff) {
  Driver d(with_spawn_delay(true, false));
  (void)d.at(100'000);
  (void)d.tap(100'010, button::kHardDrop);
  (void)d.tap(150'000, button::kHold);
  (void)d.at(200'010);
  EXPECT_EQ(d.piece().piece, Piece::kI);
  EXPECT_EQ(d.game().hold(), Piece::kNone);
}

TEST(InitialRotation, RotationPressedDuringTheDelayActsAtTheSpawn) {
  Driver d(with_spawn_delay(true, true));
  (void)d.at(100'000);
  (void)d.tap(100'010, button::kHardDrop);
  (void)d.tap(150'000, button::kRotateCw);
  (void)d.at(200'010);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kI, Rotation::kEast, 3, 17}));
}

TEST(InitialRotation, DroppedWhenOff) {
  Driver d(with_spawn_delay(false, true));
  (void)d.at(100'000);
  (void)d.tap(100'010, button::kHardDrop);
  (void)d.tap(150'000, button::kRotateCcw);
  (void)d.at(200'010);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kI, Rotation::kNorth, 3, 17}));
}

TEST(InitialRotation, HoldAndRotationTogetherTurnThePieceFromHold) {
  Driver d(with_spawn_delay(true, true));
  (void)d.at(100'000);
  (void)d.tap(100'010, button::kHardDrop);
  (void)d.tap(150'000, button::kHold | button::kRotateCcw);
  (void)d.at(200'010);
  EXPECT_EQ(d.piece().piece, Piece::kO);
  EXPECT_EQ(d.game().hold(), Piece::kI);
  (void)d.play("HD");  // next: T, no initial input pending
  (void)d.at(400'000);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 3, 18}));
}

}  // namespace
}  // namespace sr::engine
