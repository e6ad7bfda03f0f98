#include "common/engine/matrix.h"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace sr::engine {

void Matrix::set(int x, int y, Piece p) {
  assert(x >= 0 && x < kMatrixWidth && y >= 0 && y < kMatrixHeight);
  cells_[index(x, y)] = p;
  const auto bit = static_cast<std::uint16_t>(1u << x);
  auto& row = rows_[static_cast<std::size_t>(y)];
  row = p == Piece::kNone ? static_cast<std::uint16_t>(row & ~bit) : static_cast<std::uint16_t>(row | bit);
}

int Matrix::drop_distance(Piece piece, Rotation rotation, int x, int y) const {
  const PieceRows& m = piece_rows(piece, rotation);
  const int left = x + m.min_x;
  if (static_cast<unsigned>(left) > static_cast<unsigned>(kMatrixWidth - m.width) || y - 1 + m.max_y >= kMatrixHeight) {
    return 0;
  }
  const std::uint64_t mask = m.rows << left;
  // b is the piece's bottom row one step further down. Every step down to empty_from() fits (those rows are
  // empty); below it a window of four rows slides down a row per step.
  int b = y - 1 + m.min_y;
  if (b < 0) return 0;
  int d = 0;
  const int empty = empty_from();
  if (b >= empty) {
    d = b - empty + 1;
    b = empty - 1;
    if (b < 0) return d;
  }
  std::uint64_t w = window(b);
  while ((w & mask) == 0) {
    ++d;
    if (--b < 0) break;
    w = (w << 16) | rows_[static_cast<std::size_t>(b)];
  }
  return d;
}

// Most locks clear nothing, so first a quick look: four rows at a time as the 16-bit lanes of one word. A lane
// holding a full row (0x3FF) becomes 0x400 when 1 is added to it, and no lane carries into the next. The lanes'
// order in the word depends on the machine's byte order, which does not matter for "is any lane full".
bool Matrix::any_full_row() const {
  static_assert(kRowsStored % 4 == 0);
  constexpr std::uint64_t kLow10 = 0x03FF03FF03FF03FFull, kOnes = 0x0001000100010001ull, kBit10 = 0x0400040004000400ull;
  std::uint64_t full = 0;
  for (std::size_t i = 0; i < kRowsStored; i += 4) {
    std::uint64_t lanes;
    std::memcpy(&lanes, &rows_[i], sizeof lanes);
    full |= ((lanes & kLow10) + kOnes) & kBit10;
  }
  return full != 0;
}

int Matrix::empty_from() const {
  for (std::size_t i = kRowsStored - 8;; i -= 4) {
    std::uint64_t four_rows;
    std::memcpy(&four_rows, &rows_[i], sizeof four_rows);
    if (four_rows != 0) return static_cast<int>(i) + 4;
    if (i == 0) return 0;
  }
}

bool Matrix::place(Piece piece, Rotation rotation, int x, int y) {
  for (const Cell c : piece_cells(piece, rotation)) {
    assert(!occupied(x + c.x, y + c.y));
    set(x + c.x, y + c.y, piece);
  }
  const PieceRows& m = piece_rows(piece, rotation);
  bool full = false;
  for (int j = m.min_y; j <= m.max_y; ++j) full |= rows_[static_cast<std::size_t>(y + j)] == kFullRow;
  return full;
}

std::uint64_t Matrix::clear_full_rows() {
  if (!any_full_row()) return 0;
  const int top = height();
  std::uint64_t mask = 0;
  for (int y = 0; y < top; ++y) mask |= std::uint64_t{rows_[static_cast<std::size_t>(y)] == kFullRow} << y;
  int write = 0;
  for (int read = 0; read < top; ++read) {
    if ((mask >> read) & 1u) continue;
    if (write != read) {
      rows_[static_cast<std::size_t>(write)] = rows_[static_cast<std::size_t>(read)];
      std::copy_n(cells_.begin() + static_cast<std::ptrdiff_t>(index(0, read)), kMatrixWidth,
                  cells_.begin() + static_cast<std::ptrdiff_t>(index(0, write)));
    }
    ++write;
  }
  // Rows write .. top - 1 held what moved down (or the cleared rows): empty them. Rows from top up were empty.
  std::fill(rows_.begin() + write, rows_.begin() + top, std::uint16_t{0});
  std::fill(cells_.begin() + static_cast<std::ptrdiff_t>(index(0, write)),
            cells_.begin() + static_cast<std::ptrdiff_t>(index(0, top)), Piece::kNone);
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
