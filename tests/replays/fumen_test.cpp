#include "common/replay/fumen.h"

#include <gtest/gtest.h>

#include <set>

#include "common/replay/codec.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

using engine::Piece;
using engine::Rotation;

std::string fumen(const std::vector<engine::BoardRow>& board, const std::vector<std::optional<Placement>>& pages) {
  Result<std::string> f = encode_fumen(board, pages);
  EXPECT_TRUE(f.ok());
  return f.ok() ? f.value() : "";
}

// Expected strings come from knewjade/tetris-fumen's own tests and README.
TEST(Fumen, EmptyPage) { EXPECT_EQ(fumen({}, {std::nullopt}), "v115@vhAAgH"); }

TEST(Fumen, RepeatedEmptyPagesShareOneField) { EXPECT_EQ(fumen({}, {std::nullopt, std::nullopt}), "v115@vhBAgHAAA"); }

TEST(Fumen, FlatIOnTheFloor) {
  // I flat on row 0, x 3..6: fumen centre (4, 0), spawn orientation.
  EXPECT_EQ(fumen({}, {Placement{Piece::kI, Rotation::kNorth, 3, -2}}), "v115@vhARQJ");
}

std::vector<engine::BoardRow> four_row_well() {
  engine::BoardRow row(10, Piece::kGarbage);
  row[9] = Piece::kNone;
  return {row, row, row, row};
}

TEST(Fumen, GarbageField) { EXPECT_EQ(fumen(four_row_well(), {std::nullopt}), "v115@9gI8AeI8AeI8AeI8KeAgH"); }

TEST(Fumen, VerticalIIntoTheWell) {
  // The README's "4 Lines" page (I, left, centre x 9 y 1) without its comment.
  EXPECT_EQ(fumen(four_row_well(), {Placement{Piece::kI, Rotation::kWest, 8, 0}}), "v115@9gI8AeI8AeI8AeI8Ke5IJ");
}

TEST(Fumen, EveryPieceAndOrientationHasADistinctPosition) {
  // Same box position, every orientation: the positions must differ from one another where the cells do.
  std::set<std::string> seen;
  for (Piece p : {Piece::kI, Piece::kJ, Piece::kL, Piece::kS, Piece::kT, Piece::kZ}) {
    for (int r = 0; r < 4; ++r) {
      const std::string f = fumen({}, {Placement{p, static_cast<Rotation>(r), 4, 4}});
      EXPECT_TRUE(seen.insert(f).second) << f;
    }
  }
}

TEST(Fumen, LongFumensAreSplitWithQuestionMarks) {
  std::vector<std::optional<Placement>> pages(20, Placement{Piece::kO, Rotation::kNorth, 0, 0});
  const std::string f = fumen({}, pages);
  ASSERT_EQ(f.size(), 5u + 3 + 20 * 3 + 1);
  EXPECT_EQ(f[5 + 42], '?');
  EXPECT_EQ(f.find('?'), 5u + 42);
  EXPECT_EQ(f.find('?', 48), std::string::npos);
}

TEST(Fumen, RefusesBlocksAboveTheField) {
  Result<std::string> f =
      encode_fumen({}, std::vector<std::optional<Placement>>{Placement{Piece::kO, Rotation::kNorth, 0, 22}});
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, ErrorKind::kOutOfRange);
}

TEST(Fumen, TSpinGoldenStartsWithItsBoardAndTheTSpinDouble) {
  Result<Replay> r = decode_binary(testing::read_bytes(testing::data_dir() / "tspin.srr"));
  ASSERT_TRUE(r.ok());
  Result<FumenExport> f = replay_fumen(r.value(), 0);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f.value().pages, static_cast<std::size_t>(r.value().racers[0].result.stats.pieces));
  // Page 1: the TSD board (rows 2, 1, 0 of GGGG......, GGG...GGGG, GGGG.GGGGG), T south with centre (4, 1).
  EXPECT_EQ(f.value().fumen.substr(0, 26), "v115@HhD8FeC8CeH8AeE8JeFLJ");
}

}  // namespace
}  // namespace sr::replay
