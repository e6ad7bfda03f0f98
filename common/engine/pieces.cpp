#include "common/engine/pieces.h"

#include <cassert>

namespace sr::engine {
namespace {

using Table = std::array<std::array<PieceCells, 4>, kPieceKinds + 1>;

// North shapes in box coordinates (y up).
constexpr std::array<PieceCells, kPieceKinds + 1> kNorth = {{
    {},                                  // none
    {{{0, 2}, {1, 2}, {2, 2}, {3, 2}}},  // I
    {{{0, 2}, {0, 1}, {1, 1}, {2, 1}}},  // J
    {{{2, 2}, {0, 1}, {1, 1}, {2, 1}}},  // L
    {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}},  // O
    {{{1, 2}, {2, 2}, {0, 1}, {1, 1}}},  // S
    {{{1, 2}, {0, 1}, {1, 1}, {2, 1}}},  // T
    {{{0, 2}, {1, 2}, {1, 1}, {2, 1}}},  // Z
}};

constexpr int kBoxSize[kPieceKinds + 1] = {0, 4, 3, 3, 2, 3, 3, 3};

constexpr Table build_table() {
  Table t{};
  for (int p = 1; p <= kPieceKinds; ++p) {
    const int n = kBoxSize[p] - 1;
    t[p][0] = kNorth[p];
    for (int r = 1; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        const Cell prev = t[p][r - 1][c];
        // Clockwise about the box centre: (x, y) -> (y, n - x).
        t[p][r][c] = Cell{prev.y, static_cast<std::int8_t>(n - prev.x)};
      }
    }
    if (p == static_cast<int>(Piece::kO)) {
      for (int r = 1; r < 4; ++r) t[p][r] = kNorth[p];
    }
  }
  return t;
}

constexpr Table kTable = build_table();

}  // namespace

const PieceCells& piece_cells(Piece piece, Rotation rotation) {
  assert(is_tetromino(piece));
  return kTable[static_cast<std::size_t>(piece)][static_cast<std::size_t>(rotation)];
}

int box_size(Piece piece) { return kBoxSize[static_cast<std::size_t>(piece)]; }

Cell spawn_position(Piece piece) {
  switch (piece) {
    case Piece::kI: return {3, 18};
    case Piece::kO: return {4, 20};
    default: return {3, 19};
  }
}

}  // namespace sr::engine
