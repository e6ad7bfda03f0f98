// The playing field: 10 x 40 cells, each empty or naming the piece that left it.
// Occupancy is kept as one bit per cell per row so collision tests are a few shifts and ands.
#pragma once

#include <array>
#include <cstdint>

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
  [[nodiscard]] bool collides(Piece piece, Rotation rotation, int x, int y) const;

  // Writes the piece's cells. The piece must fit.
  void place(Piece piece, Rotation rotation, int x, int y);

  // Removes every full row, dropping the rows above. Returns a mask with bit y set for each removed row y.
  std::uint64_t clear_full_rows();

  [[nodiscard]] bool empty() const;
  [[nodiscard]] std::uint16_t row_bits(int y) const { return rows_[static_cast<std::size_t>(y)]; }
  // Height of the stack: 1 + the highest occupied row, 0 when empty.
  [[nodiscard]] int height() const;

  template <typename H>
  void hash_into(H& h) const {
    for (auto c : cells_) h.u8(static_cast<std::uint8_t>(c));
  }
  bool operator==(const Matrix&) const = default;

  static constexpr std::uint16_t kFullRow = (1u << kMatrixWidth) - 1;

 private:
  static std::size_t index(int x, int y) { return static_cast<std::size_t>(y * kMatrixWidth + x); }
  std::array<std::uint16_t, kMatrixHeight> rows_{};
  std::array<Piece, kMatrixWidth * kMatrixHeight> cells_{};
};

}  // namespace sr::engine
