// The matrix (cells, collision, line clears) and the small value types it is built on.
#include "common/engine/matrix.h"

#include <gtest/gtest.h>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

TEST(Matrix, OutsideCountsAsOccupied) {
  const Matrix m;
  EXPECT_FALSE(m.occupied(0, 0));
  EXPECT_FALSE(m.occupied(9, 39));
  EXPECT_TRUE(m.occupied(-1, 0));
  EXPECT_TRUE(m.occupied(10, 5));
  EXPECT_TRUE(m.occupied(4, -1));
  EXPECT_TRUE(m.occupied(4, 40));
  EXPECT_TRUE(m.empty());
  EXPECT_EQ(m.height(), 0);
}

TEST(Matrix, SetKeepsCellsAndOccupancyBitsTogether) {
  Matrix m;
  m.set(3, 7, Piece::kS);
  EXPECT_EQ(m.at(3, 7), Piece::kS);
  EXPECT_TRUE(m.occupied(3, 7));
  EXPECT_EQ(m.row_bits(7), 1u << 3);
  EXPECT_EQ(m.height(), 8);
  m.set(3, 7, Piece::kNone);
  EXPECT_FALSE(m.occupied(3, 7));
  EXPECT_TRUE(m.empty());
}

TEST(Matrix, CollidesWithBlocksWallsAndFloor) {
  Matrix m;
  m.set(5, 1, Piece::kGarbage);
  // T north at box (3, 0): cells (4, 2), (3, 1), (4, 1), (5, 1).
  EXPECT_TRUE(m.collides(Piece::kT, Rotation::kNorth, 3, 0));
  EXPECT_FALSE(m.collides(Piece::kT, Rotation::kNorth, 2, 0));
  EXPECT_FALSE(m.collides(Piece::kT, Rotation::kNorth, 0, -1));
  EXPECT_TRUE(m.collides(Piece::kT, Rotation::kNorth, 0, -2));
  EXPECT_TRUE(m.collides(Piece::kT, Rotation::kNorth, -1, 5));
  EXPECT_FALSE(m.collides(Piece::kI, Rotation::kEast, -2, 0)) << "I standing in column 0";
  EXPECT_TRUE(m.collides(Piece::kI, Rotation::kEast, -3, 0));
}

TEST(Matrix, ClearFullRowsDropsTheRowsAboveWithTheirPieces) {
  Matrix m;
  for (int x = 0; x < kMatrixWidth; ++x) {
    m.set(x, 0, Piece::kGarbage);
    m.set(x, 2, Piece::kJ);
    if (x != 4) m.set(x, 1, Piece::kL);
  }
  m.set(7, 3, Piece::kZ);
  m.set(2, 39, Piece::kO);
  EXPECT_EQ(m.clear_full_rows(), 0b101u);
  EXPECT_EQ(test::rows_of(m, 3), (std::vector<std::string>{"..........", ".......Z..", "LLLL.LLLLL"}));
  EXPECT_EQ(m.at(2, 37), Piece::kO);
  EXPECT_EQ(m.at(2, 39), Piece::kNone);
  EXPECT_FALSE(m.occupied(2, 38));
  EXPECT_EQ(m.clear_full_rows(), 0u);
}

TEST(Matrix, PlaceWritesThePieceCells) {
  Matrix m;
  m.place(Piece::kL, Rotation::kSouth, 0, 0);  // L south: cells (0,0), (0,1), (1,1), (2,1)
  EXPECT_EQ(test::rows_of(m, 2), (std::vector<std::string>{"LLL.......", "L........."}));
}

TEST(Types, PieceLetters) {
  EXPECT_EQ(piece_letter(Piece::kNone), '.');
  EXPECT_EQ(piece_letter(Piece::kI), 'I');
  EXPECT_EQ(piece_letter(Piece::kZ), 'Z');
  EXPECT_EQ(piece_letter(Piece::kGarbage), 'G');
  EXPECT_EQ(piece_letter(static_cast<Piece>(9)), '?');
  for (char c : std::string(".IJLOSTZG")) {
    Piece p = Piece::kO;
    ASSERT_TRUE(piece_from_letter(c, p)) << c;
    EXPECT_EQ(piece_letter(p), c);
  }
  Piece p = Piece::kO;
  EXPECT_TRUE(piece_from_letter('t', p));
  EXPECT_EQ(p, Piece::kT);
  EXPECT_FALSE(piece_from_letter('x', p));
  EXPECT_FALSE(piece_from_letter(' ', p));
  EXPECT_EQ(p, Piece::kT) << "unchanged on failure";
}

TEST(Types, RotationArithmetic) {
  EXPECT_EQ(rotate_cw(Rotation::kWest), Rotation::kNorth);
  EXPECT_EQ(rotate_ccw(Rotation::kNorth), Rotation::kWest);
  EXPECT_EQ(rotate_180(Rotation::kEast), Rotation::kWest);
  EXPECT_TRUE(is_tetromino(Piece::kI));
  EXPECT_FALSE(is_tetromino(Piece::kGarbage));
  EXPECT_FALSE(is_tetromino(Piece::kNone));
}

}  // namespace
}  // namespace sr::engine
