// The playing field: 10 x 40 cells, each empty or naming the piece that left it.
// Occupancy is kept as one bit per cell per row, so a collision test is a few shifts and ands of a piece's row
// masks (pieces.h) with four rows at once.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "common/engine/pieces.h"
#include "common/engine/types.h"

namespace sr::engine {

class Matrix {
 public:
  // Whether (x, y) is outside the matrix or holds a block. Outside counts as occupied (walls, floor, ceiling).
  [[nodiscard]] bool occupied(int x, int y) const {
    if (x < 0 || x >= kMatrixWidth || y < 0 || y >= kMatrixHeight) return true;
    return (rows_[static_cast<std::size_t>(y)] >> x) & 1u;
  }
  [[nodiscard]] Piece at(int x, int y) const { return cells_[index(x, y)]; }
  void set(int x, int y, Piece p);

  // Whether `piece` in `rotation` with its box at (x, y) overlaps a block or leaves the matrix.
  [[nodiscard]] bool collides(Piece piece, Rotation rotation, int x, int y) const {
    const PieceRows& m = piece_rows(piece, rotation);
    const int left = x + m.min_x;
    const int bottom = y + m.min_y;
    // Inside the walls and between floor and ceiling: 0 <= left <= width - piece width, and so for rows.
    if (static_cast<unsigned>(left) > static_cast<unsigned>(kMatrixWidth - m.width) ||
        static_cast<unsigned>(bottom) > static_cast<unsigned>(kMatrixHeight - m.height)) {
      return true;
    }
    return (window(bottom) & (m.rows << left)) != 0;
  }

  // How many rows `piece` in `rotation` can fall from box position (x, y) before it would collide: the largest d
  // such that it collides at none of y - 1, ..., y - d. 0 when it cannot move down (also when x or y - 1 is past
  // a wall or the ceiling). Where it stands at (x, y) itself is not tested.
  [[nodiscard]] int drop_distance(Piece piece, Rotation rotation, int x, int y) const;

  // Writes the piece's cells. The piece must fit. Returns whether a row the piece reaches is now full.
  bool place(Piece piece, Rotation rotation, int x, int y);

  // Removes every full row, dropping the rows above. Returns a mask with bit y set for each removed row y.
  std::uint64_t clear_full_rows();

  [[nodiscard]] bool empty() const;
  [[nodiscard]] std::uint16_t row_bits(int y) const { return rows_[static_cast<std::size_t>(y)]; }
  // Height of the stack: 1 + the highest occupied row, 0 when empty.
  [[nodiscard]] int height() const;

  // Feeds every cell, row 0 first, x 0..9 within a row, to a hasher (see state_hash in game.h). A row with no block
  // goes as one call of h.empty_rows(1), the rows from empty_from() up as one h.empty_rows(n).
  template <typename H>
  void hash_into(H& h) const {
    const int top = std::min(empty_from(), kMatrixHeight);
    for (int y = 0; y < top; ++y) {
      if (rows_[static_cast<std::size_t>(y)] == 0) {
        h.empty_rows(1);
        continue;
      }
      for (int x = 0; x < kMatrixWidth; ++x) h.u8(static_cast<std::uint8_t>(cells_[index(x, y)]));
    }
    h.empty_rows(kMatrixHeight - top);
  }
  bool operator==(const Matrix&) const = default;

  static constexpr std::uint16_t kFullRow = (1u << kMatrixWidth) - 1;

 private:
  // Rows past the top that are always empty, so that window() may read four rows from any row of the matrix (and
  // any_full_row() whole groups of four).
  static constexpr std::size_t kRowsStored = kMatrixHeight + 4;

  static std::size_t index(int x, int y) { return static_cast<std::size_t>(y * kMatrixWidth + x); }
  [[nodiscard]] bool any_full_row() const;
  // A row from which up every row is empty, a multiple of four: height() <= empty_from() < height() + 4.
  [[nodiscard]] int empty_from() const;
  // Rows bottom .. bottom + 3 in one word, row bottom + j in bits 16 j .. 16 j + 9 (the layout of PieceRows::rows).
  // 0 <= bottom < kMatrixHeight.
  [[nodiscard]] std::uint64_t window(int bottom) const {
    const auto b = static_cast<std::size_t>(bottom);
    if constexpr (std::endian::native == std::endian::little) {
      std::uint64_t w;  // on a little-endian machine the four rows in memory are exactly that word
      std::memcpy(&w, &rows_[b], sizeof w);
      return w;
    } else {
      return std::uint64_t{rows_[b]} | std::uint64_t{rows_[b + 1]} << 16 | std::uint64_t{rows_[b + 2]} << 32 |
             std::uint64_t{rows_[b + 3]} << 48;
    }
  }

  std::array<std::uint16_t, kRowsStored> rows_{};            // bit x of row y: cell (x, y) holds a block
  std::array<Piece, kMatrixWidth * kMatrixHeight> cells_{};  // row 0 first, x 0..9 within a row
};

}  // namespace sr::engine
