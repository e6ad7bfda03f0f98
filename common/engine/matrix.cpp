#include "common/engine/matrix.h"

#include <cassert>

namespace sr::engine {

void Matrix::set(int x, int y, Piece p) {
  assert(x >= 0 && x < kMatrixWidth && y >= 0 && y < kMatrixHeight);
  cells_[index(x, y)] = p;
  const auto bit = static_cast<std::uint16_t>(1u << x);
  auto& row = rows_[static_cast<std::size_t>(y)];
  row = p == Piece::kNone ? static_cast<std::uint16_t>(row & ~bit) : static_cast<std::uint16_t>(row | bit);
}

bool Matrix::collides(Piece piece, Rotation rotation, int x, int y) const {
  for (const Cell c : piece_cells(piece, rotation)) {
    if (occupied(x + c.x, y + c.y)) return true;
  }
  return false;
}

void Matrix::place(Piece piece, Rotation rotation, int x, int y) {
  for (const Cell c : piece_cells(piece, rotation)) {
    assert(!occupied(x + c.x, y + c.y));
    set(x + c.x, y + c.y, piece);
  }
}

std::uint64_t Matrix::clear_full_rows() {
  std::uint64_t mask = 0;
  int write = 0;
  for (int read = 0; read < kMatrixHeight; ++read) {
    const auto r = static_cast<std::size_t>(read);
    if (rows_[r] == kFullRow) {
      mask |= std::uint64_t{1} << read;
      continue;
    }
    if (write != read) {
      const auto w = static_cast<std::size_t>(write);
      rows_[w] = rows_[r];
      for (int x = 0; x < kMatrixWidth; ++x) cells_[index(x, write)] = cells_[index(x, read)];
    }
    ++write;
  }
  for (; write < kMatrixHeight; ++write) {
    rows_[static_cast<std::size_t>(write)] = 0;
    for (int x = 0; x < kMatrixWidth; ++x) cells_[index(x, write)] = Piece::kNone;
  }
  return mask;
}

bool Matrix::empty() const {
  for (auto r : rows_) {
    if (r != 0) return false;
  }
  return true;
}

int Matrix::height() const {
  for (int y = kMatrixHeight - 1; y >= 0; --y) {
    if (rows_[static_cast<std::size_t>(y)] != 0) return y + 1;
  }
  return 0;
}

}  // namespace sr::engine
