// Tetromino shapes, as the guideline's SRS defines them, and their spawn positions.
//
// A piece's position (x, y) is the bottom-left corner of its bounding box: 3x3 for J, L, S, T, Z, 4x4 for I,
// 2x2 for O. Turning rotates the cells about the box centre, which is exactly SRS "true rotation"; wall kicks then
// shift the box (rotation.h).
//
// The tables are constant data built at compile time and read inline: the engine looks a shape up on every
// collision test.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "common/engine/types.h"

namespace sr::engine {

struct Cell {
  std::int8_t x;
  std::int8_t y;
  bool operator==(const Cell&) const = default;
};

using PieceCells = std::array<Cell, 4>;

// A piece in one orientation as row masks, for collision tests of a few shifts and ands (Matrix::collides).
// rows holds box row min_y + j in bits 16 j .. 16 j + 3, with bit 16 j + i set for a cell in column min_x + i; rows
// of the piece past its top are 0. So `rows << (x + min_x)` is the piece with its box at x, a 10-bit row per 16.
struct PieceRows {
  std::uint64_t rows = 0;
  std::int8_t min_x = 0, max_x = 0, min_y = 0, max_y = 0;  // bounds of the cells inside the box
  std::int8_t width = 0, height = 0;                       // max_x - min_x + 1, max_y - min_y + 1
};

namespace detail {

// North shapes in box coordinates (y up).
inline constexpr std::array<PieceCells, kPieceKinds + 1> kNorthCells = {{
    {},                                  // none
    {{{0, 2}, {1, 2}, {2, 2}, {3, 2}}},  // I
    {{{0, 2}, {0, 1}, {1, 1}, {2, 1}}},  // J
    {{{2, 2}, {0, 1}, {1, 1}, {2, 1}}},  // L
    {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},  // O
    {{{1, 2}, {2, 2}, {0, 1}, {1, 1}}},  // S
    {{{1, 2}, {0, 1}, {1, 1}, {2, 1}}},  // T
    {{{0, 2}, {1, 2}, {1, 1}, {2, 1}}},  // Z
}};

inline constexpr std::array<int, kPieceKinds + 1> kBoxSizes = {0, 4, 3, 3, 2, 3, 3, 3};

using CellTable = std::array<std::array<PieceCells, 4>, kPieceKinds + 1>;
using RowsTable = std::array<std::array<PieceRows, 4>, kPieceKinds + 1>;

constexpr CellTable build_cells() {
  CellTable t{};
  for (std::size_t p = 1; p <= kPieceKinds; ++p) {
    const int n = kBoxSizes[p] - 1;
    t[p][0] = kNorthCells[p];
    for (std::size_t r = 1; r < 4; ++r) {
      for (std::size_t c = 0; c < 4; ++c) {
        const Cell prev = t[p][r - 1][c];
        // Clockwise about the box centre: (x, y) -> (y, n - x).
        t[p][r][c] = Cell{prev.y, static_cast<std::int8_t>(n - prev.x)};
      }
    }
    if (p == static_cast<std::size_t>(Piece::kO)) {
      for (std::size_t r = 1; r < 4; ++r) t[p][r] = kNorthCells[p];
    }
  }
  return t;
}

inline constexpr CellTable kCells = build_cells();

constexpr RowsTable build_rows() {
  RowsTable t{};
  for (std::size_t p = 1; p <= kPieceKinds; ++p) {
    for (std::size_t r = 0; r < 4; ++r) {
      PieceRows m;
      m.min_x = m.min_y = 3;
      for (const Cell c : kCells[p][r]) {
        m.min_x = c.x < m.min_x ? c.x : m.min_x;
        m.max_x = c.x > m.max_x ? c.x : m.max_x;
        m.min_y = c.y < m.min_y ? c.y : m.min_y;
        m.max_y = c.y > m.max_y ? c.y : m.max_y;
      }
      m.width = static_cast<std::int8_t>(m.max_x - m.min_x + 1);
      m.height = static_cast<std::int8_t>(m.max_y - m.min_y + 1);
      for (const Cell c : kCells[p][r]) m.rows |= std::uint64_t{1} << (16 * (c.y - m.min_y) + (c.x - m.min_x));
      t[p][r] = m;
    }
  }
  return t;
}

inline constexpr RowsTable kRows = build_rows();

}  // namespace detail

// The four cells of `piece` in orientation `rotation`, relative to the box's bottom-left corner.
// `piece` must be a tetromino.
[[nodiscard]] inline const PieceCells& piece_cells(Piece piece, Rotation rotation) {
  assert(is_tetromino(piece));
  return detail::kCells[static_cast<std::size_t>(piece)][static_cast<std::size_t>(rotation)];
}

// The same cells as row masks. `piece` must be a tetromino.
[[nodiscard]] inline const PieceRows& piece_rows(Piece piece, Rotation rotation) {
  assert(is_tetromino(piece));
  return detail::kRows[static_cast<std::size_t>(piece)][static_cast<std::size_t>(rotation)];
}

// Bounding-box size (3, 4 for I, 2 for O).
[[nodiscard]] inline int box_size(Piece piece) { return detail::kBoxSizes[static_cast<std::size_t>(piece)]; }

// Where a piece's box spawns: J, L, S, T, Z and I occupy x 3..5 (3..6 for I) with their flat side on row 20,
// O occupies x 4..5, rows 20..21.
[[nodiscard]] inline Cell spawn_position(Piece piece) {
  switch (piece) {
    case Piece::kI: return {3, 18};
    case Piece::kO: return {4, 20};
    default: return {3, 19};
  }
}

}  // namespace sr::engine
