// The matrix (cells, collision, line clears) and the small value types it is built on.
#include "common/engine/matrix.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/engine/random.h"
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

TEST(Matrix, PlaceTellsWhetherItFilledARow) {
  Matrix m;
  for (int x = 0; x < 6; ++x) m.set(x, 0, Piece::kGarbage);
  EXPECT_FALSE(m.place(Piece::kO, Rotation::kNorth, 6, 0)) << "row 0 still has a hole at x 8..9";
  EXPECT_TRUE(m.place(Piece::kO, Rotation::kNorth, 8, 0));
  EXPECT_EQ(m.clear_full_rows(), 0b1u);
  EXPECT_FALSE(m.place(Piece::kI, Rotation::kEast, 0, 0)) << "rows 0..3 of column 2 only";
}

// Random boards of every height and density, row 39 included, some rows full.
std::vector<Matrix> random_boards() {
  Random rng(2024);
  std::vector<Matrix> boards;
  for (int i = 0; i < 24; ++i) {
    Matrix m;
    const int height = static_cast<int>(rng.below(kMatrixHeight + 1));
    const std::uint32_t density = 20 + rng.below(80);
    for (int y = 0; y < height; ++y) {
      const bool full = rng.below(6) == 0;
      for (int x = 0; x < kMatrixWidth; ++x) {
        if (full || rng.below(100) < density) m.set(x, y, static_cast<Piece>(1 + rng.below(8)));
      }
    }
    if (i % 4 == 0) m.set(static_cast<int>(rng.below(kMatrixWidth)), kMatrixHeight - 1, Piece::kGarbage);
    boards.push_back(m);
  }
  return boards;
}

// The definition: any cell of the piece is outside the matrix or occupied.
bool collides_by_cells(const Matrix& m, Piece piece, Rotation rotation, int x, int y) {
  for (const Cell c : piece_cells(piece, rotation)) {
    if (m.occupied(x + c.x, y + c.y)) return true;
  }
  return false;
}

TEST(Matrix, CollisionsAndDropDistancesAgreeWithTheCellsOnRandomBoards) {
  for (const Matrix& m : random_boards()) {
    for (int p = 1; p <= kPieceKinds; ++p) {
      for (int r = 0; r < 4; ++r) {
        const auto piece = static_cast<Piece>(p);
        const auto rotation = static_cast<Rotation>(r);
        for (int x = -4; x <= kMatrixWidth + 1; ++x) {
          int fall = 0;  // from y: 0 if it collides at y - 1, else one more than from y - 1 (y goes up)
          for (int y = -4; y <= kMatrixHeight + 1; ++y) {
            ASSERT_EQ(m.collides(piece, rotation, x, y), collides_by_cells(m, piece, rotation, x, y))
                << piece_letter(piece) << " rotation " << r << " at " << x << ", " << y;
            fall = collides_by_cells(m, piece, rotation, x, y - 1) ? 0 : fall + 1;
            ASSERT_EQ(m.drop_distance(piece, rotation, x, y), fall)
                << piece_letter(piece) << " rotation " << r << " at " << x << ", " << y;
          }
        }
      }
    }
  }
}

TEST(Matrix, ClearFullRowsAgreesWithRemovingRowByRowOnRandomBoards) {
  for (const Matrix& board : random_boards()) {
    Matrix m = board;
    // Row by row from the top, through the public cells only.
    Matrix expected;
    std::uint64_t expected_mask = 0;
    int write = 0;
    for (int y = 0; y < kMatrixHeight; ++y) {
      if (board.row_bits(y) == Matrix::kFullRow) {
        expected_mask |= std::uint64_t{1} << y;
        continue;
      }
      for (int x = 0; x < kMatrixWidth; ++x) expected.set(x, write, board.at(x, y));
      ++write;
    }
    ASSERT_EQ(m.clear_full_rows(), expected_mask);
    EXPECT_TRUE(m == expected);
    for (int y = 0; y < kMatrixHeight; ++y) {
      for (int x = 0; x < kMatrixWidth; ++x) ASSERT_EQ(m.at(x, y), expected.at(x, y)) << x << ", " << y;
    }
    EXPECT_EQ(m.height(), expected.height());
  }
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
