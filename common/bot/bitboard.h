// A compact copy of the matrix for the bot's searches: one 10-bit row mask per row, and per-piece row masks so a
// collision test is at most four ands. Cheap to copy (80 bytes), so lookahead places pieces on copies.
//
// Coordinates and piece positions are the engine's (types.h, pieces.h): x right, y up, a piece's (x, y) is the
// bottom-left corner of its bounding box. Outside the 10 x 40 matrix counts as occupied, as in engine::Matrix.
#pragma once

#include <array>
#include <cstdint>

#include "common/engine/matrix.h"
#include "common/engine/pieces.h"
#include "common/engine/types.h"

namespace sr::bot {

using engine::Piece;
using engine::Rotation;

// The shape of one piece in one orientation, as row masks over its box. Derived from engine::piece_cells, so the
// bot can never disagree with the engine about a shape.
struct PieceMask {
  std::array<std::uint16_t, 4> rows{};                     // bit x set for each cell (x, j) of the box, j = 0..3
  std::int8_t min_x = 0, max_x = 0, min_y = 0, max_y = 0;  // bounds of the cells inside the box
  // The orientation with the smallest number that covers the same cells, and the box shift that gets there:
  // S, Z and I have two orientation pairs with identical cells, O has one shape. Used to deduplicate placements.
  Rotation canonical = Rotation::kNorth;
  std::int8_t canonical_dx = 0, canonical_dy = 0;
};

// `piece` must be a tetromino.
[[nodiscard]] const PieceMask& piece_mask(Piece piece, Rotation rotation);

class Bitboard {
 public:
  Bitboard() = default;
  // Occupancy of `matrix` (what each cell holds is dropped: the bot needs only full or empty).
  explicit Bitboard(const engine::Matrix& matrix);

  [[nodiscard]] bool occupied(int x, int y) const {
    if (x < 0 || x >= engine::kMatrixWidth || y < 0 || y >= engine::kMatrixHeight) return true;
    return (rows_[static_cast<std::size_t>(y)] >> x) & 1u;
  }
  // Whether `piece` in `rotation` with its box at (x, y) overlaps a block or leaves the matrix.
  [[nodiscard]] bool collides(Piece piece, Rotation rotation, int x, int y) const {
    const PieceMask& m = piece_mask(piece, rotation);
    if (x + m.min_x < 0 || x + m.max_x >= engine::kMatrixWidth || y + m.min_y < 0 ||
        y + m.max_y >= engine::kMatrixHeight) {
      return true;
    }
    for (int j = m.min_y; j <= m.max_y; ++j) {
      const std::uint32_t mask = x >= 0 ? (std::uint32_t{m.rows[static_cast<std::size_t>(j)]} << x)
                                        : (std::uint32_t{m.rows[static_cast<std::size_t>(j)]} >> -x);
      if (mask & rows_[static_cast<std::size_t>(y + j)]) return true;
    }
    return false;
  }
  // The lowest box row at or below y where the piece still fits (the piece must fit at y).
  [[nodiscard]] int drop_y(Piece piece, Rotation rotation, int x, int y) const {
    while (!collides(piece, rotation, x, y - 1)) --y;
    return y;
  }

  void set(int x, int y) { rows_[static_cast<std::size_t>(y)] |= static_cast<std::uint16_t>(1u << x); }
  // Writes the piece's cells; the piece must fit.
  void place(Piece piece, Rotation rotation, int x, int y);
  // Removes full rows like engine::Matrix::clear_full_rows. Returns the number of rows removed.
  int clear_full_rows();

  [[nodiscard]] std::uint16_t row(int y) const { return rows_[static_cast<std::size_t>(y)]; }
  // 1 + the highest occupied row, 0 when empty.
  [[nodiscard]] int height() const;
  [[nodiscard]] bool empty() const { return height() == 0; }
  bool operator==(const Bitboard&) const = default;

  static constexpr std::uint16_t kFullRow = (1u << engine::kMatrixWidth) - 1;

 private:
  std::array<std::uint16_t, engine::kMatrixHeight> rows_{};
};

}  // namespace sr::bot
