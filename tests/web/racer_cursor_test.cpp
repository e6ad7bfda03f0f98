// The viewer's cursor (web/wasm/racer_cursor.h): every position it seeks to is the game replay::game_at() gives,
// from any starting point, and its per-change hashes are those of the canonical feeding.
#include "web/wasm/racer_cursor.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/engine/racer_run.h"
#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "tests/replays/test_support.h"

namespace sr::web {
namespace {

using replay::ViewPoint;
namespace rt = replay::testing;

std::vector<std::pair<std::string, replay::Replay>> goldens() {
  std::vector<std::pair<std::string, replay::Replay>> out;
  for (const auto& dir : {rt::data_dir(), rt::current_dir()}) {
    for (const auto& path : rt::golden_files(dir)) {
      auto r = replay::decode_binary(rt::read_bytes(path));
      EXPECT_TRUE(r.ok()) << path;
      if (r.ok()) out.emplace_back(path.parent_path().filename().string() + "/" + path.filename().string(), r.value());
    }
  }
  return out;
}

std::uint64_t hash_at(const replay::Replay& r, std::size_t racer, ViewPoint at) {
  auto g = replay::game_at(r, racer, at);
  EXPECT_TRUE(g.ok());
  return g.ok() ? g.value().state_hash() : 0;
}

TEST(RacerCursor, EveryPieceOfEveryGoldenIsTheGameGameAtGives) {
  const auto files = goldens();
  ASSERT_GE(files.size(), 29u);  // tests/data and tests/data/current
  for (const auto& [name, r] : files) {
    for (std::size_t i = 0; i < r.racers.size(); ++i) {
      SCOPED_TRACE(name + " racer " + std::to_string(i));
      RacerCursor cursor(r, i);
      ASSERT_EQ(cursor.piece_count(), r.racers[i].result.stats.pieces);
      for (std::int64_t k = 0; k <= cursor.piece_count(); ++k) {
        ASSERT_TRUE(cursor.seek_piece(k));
        ASSERT_EQ(cursor.game().stats().pieces, k);
        ASSERT_EQ(cursor.game().state_hash(), hash_at(r, i, {ViewPoint::Kind::kPiece, k})) << "piece " << k;
      }
    }
  }
}

TEST(RacerCursor, SeeksBackwardsAndForwardsGiveTheGameAtThatTime) {
  for (const auto& [name, r] : goldens()) {
    SCOPED_TRACE(name);
    RacerCursor cursor(r, 0);
    const engine::TimeUs end = cursor.end_us();
    // Far to near and back: each seek starts from a snapshot or from the game the previous one left.
    for (const engine::TimeUs t : {end, end / 2, end / 3, end / 2 + 1, 0L, end * 9 / 10, end / 7, end + 5'000'000}) {
      cursor.seek_time(t);
      const engine::TimeUs clamped = std::min(t, end);
      EXPECT_EQ(cursor.position().time_us, clamped);
      ASSERT_EQ(cursor.game().state_hash(), hash_at(r, 0, {ViewPoint::Kind::kTime, clamped})) << "t=" << t;
    }
  }
}

TEST(RacerCursor, EveryChangeHashIsTheCanonicalFeedings) {
  for (const auto& [name, r] : goldens()) {
    for (std::size_t i = 0; i < r.racers.size(); ++i) {
      SCOPED_TRACE(name + " racer " + std::to_string(i));
      RacerCursor cursor(r, i);
      // simulate()'s feeding, the verifier's: a RacerRun pressed with each change, then advanced to the end.
      engine::RacerRun run(replay::racer_config(r, i), r.seed);
      const auto& inputs = r.racers[i].inputs;
      ASSERT_EQ(cursor.change_count(), inputs.size());
      for (std::size_t c = 1; c <= inputs.size(); ++c) {
        (void)run.press(inputs[c - 1].time_us, inputs[c - 1].buttons);
        ASSERT_EQ(cursor.change_hash(c), run.game().state_hash()) << "change " << c;
        ASSERT_EQ(cursor.change_time(c), inputs[c - 1].time_us);
        ASSERT_EQ(cursor.change_buttons(c), inputs[c - 1].buttons);
        if (c % 17 == 0) {
          ASSERT_TRUE(cursor.seek_change(c));
          ASSERT_EQ(cursor.game().state_hash(), cursor.change_hash(c));
        }
      }
      (void)run.advance(r.racers[i].result.stats.time_us);
      EXPECT_EQ(cursor.end_hash(), run.game().state_hash());
      EXPECT_EQ(cursor.end_hash(), r.racers[i].result.final_hash);
    }
  }
}

TEST(RacerCursor, LockTimesAreTheCheckpointTimes) {
  const replay::Replay r = rt::small_sprint(30);
  RacerCursor cursor(r, 0);
  ASSERT_EQ(cursor.piece_count(), 30);
  ASSERT_EQ(r.racers[0].checkpoints.size(), 3u);  // every 10 pieces
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(cursor.lock_time(static_cast<std::int64_t>(10 * (j + 1))), r.racers[0].checkpoints[j].time_us);
  }
}

TEST(RacerCursor, StartsAtTheStartWithTheFirstPieceOut) {
  const replay::Replay r = rt::small_sprint(5);
  RacerCursor cursor(r, 0);
  EXPECT_EQ(cursor.position(), (Position{0, 0}));
  EXPECT_EQ(cursor.game().state_hash(), hash_at(r, 0, {ViewPoint::Kind::kTime, 0}));
  ASSERT_TRUE(cursor.game().active().has_value());
  EXPECT_EQ(cursor.buttons(), 0);
}

TEST(RacerCursor, PiecesAndChangesOutOfRangeDoNotMove) {
  const replay::Replay r = rt::small_sprint(5);
  RacerCursor cursor(r, 0);
  ASSERT_TRUE(cursor.seek_piece(3));
  const Position at = cursor.position();
  EXPECT_FALSE(cursor.seek_piece(6));
  EXPECT_FALSE(cursor.seek_piece(-1));
  EXPECT_FALSE(cursor.seek_change(cursor.change_count() + 1));
  EXPECT_EQ(cursor.position(), at);
  EXPECT_EQ(cursor.game().stats().pieces, 3);
}

TEST(RacerCursor, StepPieceGoesLockByLockBothWays) {
  const replay::Replay r = rt::small_sprint(4);
  RacerCursor cursor(r, 0);
  EXPECT_FALSE(cursor.step_piece(-1));  // at the start
  for (std::int64_t k = 1; k <= 4; ++k) {
    ASSERT_TRUE(cursor.step_piece(1));
    EXPECT_EQ(cursor.position().time_us, cursor.lock_time(k));
    EXPECT_EQ(cursor.game().stats().pieces, k);
  }
  EXPECT_FALSE(cursor.step_piece(1));  // no fifth lock
  EXPECT_EQ(cursor.game().stats().pieces, 4);
  // Between two locks, back goes to the last lock first, then to the one before.
  cursor.seek_time((cursor.lock_time(2) + cursor.lock_time(3)) / 2);
  ASSERT_EQ(cursor.game().stats().pieces, 2);
  ASSERT_TRUE(cursor.step_piece(-1));
  EXPECT_EQ(cursor.position().time_us, cursor.lock_time(2));
  ASSERT_TRUE(cursor.step_piece(-1));
  EXPECT_EQ(cursor.position().time_us, cursor.lock_time(1));
  ASSERT_TRUE(cursor.step_piece(-1));
  EXPECT_EQ(cursor.position(), (Position{0, 0}));
  EXPECT_FALSE(cursor.step_piece(-1));
}

TEST(RacerCursor, StepChangeGoesChangeByChangeAndBackFromBetweenTwo) {
  const replay::Replay r = rt::small_sprint(3);
  RacerCursor cursor(r, 0);
  EXPECT_FALSE(cursor.step_change(-1));
  ASSERT_TRUE(cursor.step_change(1));
  EXPECT_EQ(cursor.position(), (Position{1, cursor.change_time(1)}));
  EXPECT_EQ(cursor.buttons(), cursor.change_buttons(1));
  ASSERT_TRUE(cursor.step_change(1));
  EXPECT_EQ(cursor.position(), (Position{2, cursor.change_time(2)}));
  // Half way to change 3: back is change 2, forward is change 3.
  cursor.seek_time(cursor.change_time(2) + (cursor.change_time(3) - cursor.change_time(2)) / 2);
  ASSERT_EQ(cursor.position().changes, 2u);
  ASSERT_TRUE(cursor.step_change(-1));
  EXPECT_EQ(cursor.position(), (Position{2, cursor.change_time(2)}));
  ASSERT_TRUE(cursor.step_change(-1));
  EXPECT_EQ(cursor.position(), (Position{1, cursor.change_time(1)}));
  ASSERT_TRUE(cursor.seek_change(cursor.change_count()));
  EXPECT_FALSE(cursor.step_change(1));
}

// The handwritten T-spin (tests/data/handwritten_tspin.json): a T on a fixed sequence, over three garbage rows.
TEST(RacerCursor, ActiveAndGhostCellsAreMatrixCells) {
  std::vector<std::uint8_t> bytes = rt::read_bytes(rt::data_dir() / "handwritten_tspin.json");
  auto r = replay::decode_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                               replay::JsonOptions{.record_missing = true});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  RacerCursor cursor(r.value(), 0);
  const auto active = cursor.active_cells();
  ASSERT_TRUE(active.has_value());
  // The T is out at time 0 with its box at (3, 18) (it spawns above the visible rows and drops a row at once): its
  // point up at x 4, flat side on row 19, x 3..5 (`stackrace-replay board ... --piece 0` says "T north x=3 y=18"),
  // in engine::piece_cells' order.
  EXPECT_EQ(*active, (std::array<CellXY, 4>{{{4, 20}, {3, 19}, {4, 19}, {5, 19}}}));
  // Dropped straight down its flat side stops on the garbage's top row (row 2, "GGGG......", blocks x 0..3).
  EXPECT_EQ(*cursor.ghost_cells(), (std::array<CellXY, 4>{{{4, 4}, {3, 3}, {4, 3}, {5, 3}}}));
}

}  // namespace
}  // namespace sr::web
