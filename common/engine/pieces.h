// Tetromino shapes, as the guideline's SRS defines them, and their spawn positions.
//
// A piece's position (x, y) is the bottom-left corner of its bounding box: 3x3 for J, L, S, T, Z, 4x4 for I,
// 2x2 for O. Turning rotates the cells about the box centre, which is exactly SRS "true rotation"; wall kicks then
// shift the box (rotation.h).
#pragma once

#include <array>
#include <cstdint>

#include "common/engine/types.h"

namespace sr::engine {

struct Cell {
  std::int8_t x;
  std::int8_t y;
  bool operator==(const Cell&) const = default;
};

using PieceCells = std::array<Cell, 4>;

// The four cells of `piece` in orientation `rotation`, relative to the box's bottom-left corner.
// `piece` must be a tetromino.
[[nodiscard]] const PieceCells& piece_cells(Piece piece, Rotation rotation);

// Bounding-box size (3, 4 for I, 2 for O).
[[nodiscard]] int box_size(Piece piece);

// Where a piece's box spawns: J, L, S, T, Z and I occupy x 3..5 (3..6 for I) with their flat side on row 20,
// O occupies x 4..5, rows 20..21.
[[nodiscard]] Cell spawn_position(Piece piece);

}  // namespace sr::engine
