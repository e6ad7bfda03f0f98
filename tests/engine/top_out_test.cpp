// Top out: block out (a new piece overlaps a block where it spawns) and lock out (a piece locks entirely in the
// hidden rows, y >= 20), with the reason in the kGameOver event; and what an ended game does with more updates.
#include <gtest/gtest.h>

#include <vector>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Driver;
using test::of_kind;

std::vector<BoardRow> column_rows(int count, std::string_view row) {
  std::vector<BoardRow> rows;
  for (int i = 0; i < count; ++i) rows.push_back(test::board({row})[0]);
  return rows;
}

TEST(TopOut, BlockOutWhenTheFirstPieceOverlapsAtSpawn) {
  std::vector<BoardRow> rows = column_rows(20, "X.........");
  rows.push_back(test::board({"....X....."})[0]);  // row 20, inside the T's spawn cells
  Driver d(test::rules_config("T", rows));
  const auto events = d.at(0);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::kGameOver);
  EXPECT_EQ(events[0].top_out, TopOut::kBlockOut);
  EXPECT_EQ(events[0].time_us, 0);
  EXPECT_TRUE(d.game().over());
  EXPECT_EQ(d.game().state().top_out, TopOut::kBlockOut);
  EXPECT_FALSE(d.game().state().finished);
  EXPECT_FALSE(d.game().active().has_value());
}

TEST(TopOut, PartlyVisibleLockIsNotLockOutButTheNextSpawnBlocksOut) {
  // Column 4 stands 17 high: an I standing on it fills rows 17..20, three of them visible.
  Driver d(test::rules_config("IT", column_rows(17, "....X.....")));
  (void)d.play("CW L");
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kI, Rotation::kEast, 2, 17}));
  const auto events = d.play("HD");
  const auto locks = of_kind(events, EventKind::kLock);
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(static_cast<int>(locks[0].y), 17);
  const auto over = of_kind(events, EventKind::kGameOver);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].top_out, TopOut::kBlockOut) << "the T cannot spawn over the I in row 20";
  EXPECT_EQ(over[0].time_us, 2);
  EXPECT_TRUE(of_kind(events, EventKind::kSpawn).empty());
  EXPECT_EQ(d.game().stats().pieces, 1);
  EXPECT_EQ(d.game().stats().time_us, 2);
}

TEST(TopOut, HoldIntoABlockedSpawnEndsTheGameWithNothingPending) {
  // Row 20 is taken at x 6: the O (x 4..5) spawns, the I from the queue (x 3..6) cannot.
  std::vector<BoardRow> rows = column_rows(20, "X.........");
  rows.push_back(test::board({"......X..."})[0]);
  Driver d(test::rules_config("OI", rows));
  (void)d.at(0);
  const auto over = of_kind(d.press(5, button::kHold | button::kMoveRight), EventKind::kGameOver);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].top_out, TopOut::kBlockOut);
  const GameState& s = d.game().state();
  for (TimeUs t : {s.end_at, s.spawn_at, s.fall_at, s.shift_at, s.lock_timer_at}) {
    EXPECT_EQ(t, kNever) << "the direction pressed with the hold must not start DAS on an ended game";
  }
}

TEST(TopOut, LockOutWhenAPieceLocksEntirelyAboveRowNineteen) {
  Driver d(test::rules_config("T", column_rows(20, "...XXX....")));
  (void)d.at(0);
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 3, 19})) << "cannot drop at spawn";
  const auto events = d.tap(40, button::kHardDrop);
  ASSERT_EQ(of_kind(events, EventKind::kLock).size(), 1u);
  const auto over = of_kind(events, EventKind::kGameOver);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].top_out, TopOut::kLockOut);
  EXPECT_EQ(over[0].time_us, 40);
  EXPECT_EQ(d.game().state().top_out, TopOut::kLockOut);
  EXPECT_EQ(d.game().stats().time_us, 40);
  EXPECT_EQ(d.game().matrix().at(4, 21), Piece::kT) << "the locked piece stays on the board";
}

TEST(TopOut, LockOutAlsoByLockDelay) {
  Driver d(test::rules_config("T", column_rows(20, "...XXX....")));
  (void)d.at(0);
  const auto events = d.at(500'000);
  const auto over = of_kind(events, EventKind::kGameOver);
  ASSERT_EQ(over.size(), 1u);
  EXPECT_EQ(over[0].top_out, TopOut::kLockOut);
  EXPECT_EQ(over[0].time_us, 500'000);
}

TEST(TopOut, EndedGameIgnoresLaterUpdates) {
  Driver d(test::rules_config("T", column_rows(20, "...XXX....")));
  (void)d.at(0);
  (void)d.tap(40, button::kHardDrop);
  ASSERT_TRUE(d.game().over());
  const std::uint64_t hash = d.game().state_hash();
  Game copy = d.game();
  const UpdateResult r = copy.update(5'000'000, button::kMoveLeft | button::kHardDrop);
  EXPECT_EQ(r.error, UpdateError::kOk);
  EXPECT_TRUE(r.events.empty());
  EXPECT_EQ(copy.state_hash(), hash);
  EXPECT_EQ(copy.now(), 40) << "time stays at the top out";
  EXPECT_EQ(copy.stats().key_presses, d.game().stats().key_presses);
}

}  // namespace
}  // namespace sr::engine
