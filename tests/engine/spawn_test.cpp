// Spawn timing (ARE, line clear delay) and the piece queue / preview.
#include <gtest/gtest.h>

#include <vector>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Driver;
using test::of_kind;

TEST(Spawn, FirstPieceAtTimeZero) {
  Driver d(test::rules_config("T"));
  const auto spawns = of_kind(d.at(0), EventKind::kSpawn);
  ASSERT_EQ(spawns.size(), 1u);
  EXPECT_EQ(spawns[0].time_us, 0);
}

TEST(Spawn, FirstPieceWaitsForTheSpawnDelay) {
  GameConfig c = test::rules_config("T");
  c.handling.are_us = 100'000;
  Driver d(c);
  (void)d.at(99'999);
  EXPECT_FALSE(d.game().active().has_value());
  const auto spawns = of_kind(d.at(100'000), EventKind::kSpawn);
  ASSERT_EQ(spawns.size(), 1u);
  EXPECT_EQ(spawns[0].time_us, 100'000);
}

TEST(Spawn, NextPieceAfterTheSpawnDelay) {
  GameConfig c = test::rules_config("TO");
  c.handling.are_us = 100'000;
  c.handling.line_clear_delay_us = 250'000;
  Driver d(c);
  (void)d.at(100'000);
  (void)d.tap(100'005, button::kHardDrop);
  (void)d.at(200'004);
  EXPECT_FALSE(d.game().active().has_value());
  EXPECT_EQ(d.game().state().phase, Phase::kSpawnDelay);
  (void)d.at(200'005);
  EXPECT_EQ(d.piece().piece, Piece::kO) << "no lines cleared: no line clear delay";
}

TEST(Spawn, LineClearDelayAddsToTheSpawnDelay) {
  GameConfig c = test::rules_config("IO", test::board({"X.........", "XXXXXX...."}));
  c.handling.are_us = 100'000;
  c.handling.line_clear_delay_us = 250'000;
  Driver d(c);
  (void)d.at(100'000);
  (void)d.press(100'001, button::kMoveRight);
  (void)d.release(100'002, button::kMoveRight);
  (void)d.press(100'003, button::kMoveRight);
  (void)d.release(100'004, button::kMoveRight);
  (void)d.press(100'005, button::kMoveRight);
  (void)d.release(100'006, button::kMoveRight);
  ASSERT_EQ(d.piece().x, 6);
  const auto clears = of_kind(d.tap(100'010, button::kHardDrop), EventKind::kClear);
  ASSERT_EQ(clears.size(), 1u);
  (void)d.at(450'009);
  EXPECT_FALSE(d.game().active().has_value());
  const auto spawns = of_kind(d.at(450'010), EventKind::kSpawn);
  ASSERT_EQ(spawns.size(), 1u);
  EXPECT_EQ(spawns[0].piece, Piece::kO);
}

TEST(Spawn, ButtonsDuringTheDelayOnlyCountAsPresses) {
  GameConfig c = test::rules_config("TO");
  c.handling.are_us = 100'000;
  Driver d(c);
  (void)d.at(100'000);
  (void)d.tap(100'001, button::kHardDrop);
  (void)d.tap(150'000, button::kHardDrop);
  (void)d.tap(150'001, button::kMoveLeft);
  (void)d.at(200'001);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kO, Rotation::kNorth, 4, 19})) << "no hard drop, no move";
  EXPECT_EQ(d.game().stats().pieces, 1);
  EXPECT_EQ(d.game().stats().key_presses, 3);
}

TEST(Ghost, IsWhereAHardDropLands) {
  Driver d(test::rules_config("TT", test::board({"....X.....", "XXXXX....X"})));
  (void)d.at(0);
  EXPECT_EQ(d.game().ghost_y(), 1) << "T over column 4, which stands two high";
  (void)d.play("R R");
  EXPECT_EQ(d.game().ghost_y(), -1);
  const auto locks = of_kind(d.play("HD"), EventKind::kLock);
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(static_cast<int>(locks[0].y), -1);
}

TEST(Queue, PreviewShowsTheNextPiecesInOrder) {
  GameConfig c = make_endless();
  c.preview = 5;
  Driver d(c, 42);
  (void)d.at(0);
  for (int i = 0; i < 20; ++i) {
    const std::vector<Piece> shown(d.game().preview().begin(), d.game().preview().end());
    ASSERT_EQ(shown.size(), 5u);
    (void)d.drop_at("", i % 3 * 3);
    if (d.game().over()) break;
    EXPECT_EQ(d.piece().piece, shown[0]) << "piece " << i;
  }
}

TEST(Queue, PreviewLengthNeverChangesTheSequence) {
  std::vector<Piece> sequences[2];
  for (int k = 0; k < 2; ++k) {
    GameConfig c = make_endless();
    c.preview = k == 0 ? 0 : 7;
    Driver d(c, 7);
    (void)d.at(0);
    EXPECT_EQ(d.game().preview().size(), c.preview);
    for (int i = 0; i < 14 && !d.game().over(); ++i) {
      sequences[k].push_back(d.piece().piece);
      (void)d.drop_at("", i % 2 ? 0 : 6);
    }
  }
  EXPECT_EQ(sequences[0], sequences[1]);
}

}  // namespace
}  // namespace sr::engine
