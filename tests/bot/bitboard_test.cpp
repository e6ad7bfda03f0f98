#include "common/bot/bitboard.h"

#include <gtest/gtest.h>

#include "common/engine/random.h"
#include "tests/bot/bot_test_support.h"

namespace sr::bot {
namespace {

using engine::Piece;
using engine::Rotation;

engine::Matrix random_matrix(engine::Random& rng, int rows) {
  engine::Matrix m;
  for (int y = 0; y < rows; ++y) {
    for (int x = 0; x < 10; ++x) {
      if (rng.below(100) < 45) m.set(x, y, Piece::kGarbage);
    }
  }
  return m;
}

TEST(Bitboard, CollidesExactlyWhereTheEngineMatrixDoes) {
  engine::Random rng(7);
  for (int round = 0; round < 20; ++round) {
    const engine::Matrix m = random_matrix(rng, 1 + round);
    const Bitboard b(m);
    for (int p = 1; p <= 7; ++p) {
      for (int r = 0; r < 4; ++r) {
        for (int x = -4; x <= 11; ++x) {
          for (int y = -4; y <= 41; ++y) {
            const auto piece = static_cast<Piece>(p);
            const auto rot = static_cast<Rotation>(r);
            ASSERT_EQ(b.collides(piece, rot, x, y), m.collides(piece, rot, x, y))
                << "piece " << p << " rot " << r << " x " << x << " y " << y;
          }
        }
      }
    }
  }
}

TEST(Bitboard, ClearsFullRowsLikeTheMatrix) {
  engine::Matrix m;
  for (int x = 0; x < 10; ++x) {
    m.set(x, 0, Piece::kGarbage);
    m.set(x, 2, Piece::kGarbage);
  }
  m.set(3, 1, Piece::kGarbage);
  m.set(5, 3, Piece::kGarbage);
  Bitboard b(m);
  EXPECT_EQ(b.clear_full_rows(), 2);
  m.clear_full_rows();
  EXPECT_EQ(b, Bitboard(m));
  EXPECT_EQ(b.height(), 2);
  EXPECT_EQ(b.row(0), 1u << 3);
  EXPECT_EQ(b.row(1), 1u << 5);
}

TEST(Bitboard, PlaceWritesThePieceCells) {
  Bitboard b;
  b.place(Piece::kT, Rotation::kNorth, 0, 0);  // cells (1,2) (0,1) (1,1) (2,1)
  EXPECT_EQ(b.row(1), 0b111u);
  EXPECT_EQ(b.row(2), 0b010u);
  EXPECT_EQ(b.height(), 3);
  EXPECT_TRUE(b.occupied(-1, 0));  // walls and floor count as occupied
  EXPECT_TRUE(b.occupied(0, -1));
  EXPECT_FALSE(b.occupied(0, 0));
}

TEST(Bitboard, DropYFindsTheFloorAndTheStack) {
  const Bitboard b = test::board({
      "....#.....",
      "....#.....",
  });
  EXPECT_EQ(b.drop_y(Piece::kO, Rotation::kNorth, 0, 20), 0);
  EXPECT_EQ(b.drop_y(Piece::kO, Rotation::kNorth, 3, 20), 2);
}

TEST(PieceMask, SAndZAndIHaveTwoShapesEachOHasOne) {
  auto distinct = [](Piece p) {
    int n = 0;
    for (int r = 0; r < 4; ++r) n += piece_mask(p, static_cast<Rotation>(r)).canonical == static_cast<Rotation>(r);
    return n;
  };
  EXPECT_EQ(distinct(Piece::kS), 2);
  EXPECT_EQ(distinct(Piece::kZ), 2);
  EXPECT_EQ(distinct(Piece::kI), 2);
  EXPECT_EQ(distinct(Piece::kO), 1);
  EXPECT_EQ(distinct(Piece::kT), 4);
  EXPECT_EQ(distinct(Piece::kJ), 4);
  EXPECT_EQ(distinct(Piece::kL), 4);
}

TEST(PieceMask, CanonicalShiftCoversTheSameCells) {
  for (int p = 1; p <= 7; ++p) {
    for (int r = 0; r < 4; ++r) {
      const auto piece = static_cast<Piece>(p);
      const auto rot = static_cast<Rotation>(r);
      const PieceMask& m = piece_mask(piece, rot);
      Bitboard a, c;
      a.place(piece, rot, 4, 10);
      c.place(piece, m.canonical, 4 + m.canonical_dx, 10 + m.canonical_dy);
      EXPECT_EQ(a, c) << "piece " << p << " rot " << r;
    }
  }
}

}  // namespace
}  // namespace sr::bot
