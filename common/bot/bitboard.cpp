#include "common/bot/bitboard.h"

#include <algorithm>
#include <cassert>

namespace sr::bot {
namespace {

using Table = std::array<std::array<PieceMask, 4>, engine::kPieceKinds + 1>;

PieceMask build_mask(Piece piece, Rotation rotation) {
  PieceMask m;
  m.min_x = m.min_y = 3;
  m.max_x = m.max_y = 0;
  for (const engine::Cell c : engine::piece_cells(piece, rotation)) {
    m.rows[static_cast<std::size_t>(c.y)] |= static_cast<std::uint16_t>(1u << c.x);
    m.min_x = std::min(m.min_x, c.x);
    m.max_x = std::max(m.max_x, c.x);
    m.min_y = std::min(m.min_y, c.y);
    m.max_y = std::max(m.max_y, c.y);
  }
  return m;
}

// The same cells up to a shift: compare the masks normalised to their bounding boxes.
bool same_shape(const PieceMask& a, const PieceMask& b) {
  if (a.max_x - a.min_x != b.max_x - b.min_x || a.max_y - a.min_y != b.max_y - b.min_y) return false;
  for (int j = 0; j <= a.max_y - a.min_y; ++j) {
    if ((a.rows[static_cast<std::size_t>(a.min_y + j)] >> a.min_x) !=
        (b.rows[static_cast<std::size_t>(b.min_y + j)] >> b.min_x)) {
      return false;
    }
  }
  return true;
}

Table build_table() {
  Table t{};
  for (int p = 1; p <= engine::kPieceKinds; ++p) {
    const auto piece = static_cast<Piece>(p);
    auto& row = t[static_cast<std::size_t>(p)];
    for (int r = 0; r < 4; ++r) row[static_cast<std::size_t>(r)] = build_mask(piece, static_cast<Rotation>(r));
    for (int r = 0; r < 4; ++r) {
      PieceMask& m = row[static_cast<std::size_t>(r)];
      for (int q = 0; q <= r; ++q) {
        const PieceMask& other = row[static_cast<std::size_t>(q)];
        if (!same_shape(m, other)) continue;
        // Box (x, y) in orientation r covers what box (x + dx, y + dy) covers in orientation q.
        m.canonical = static_cast<Rotation>(q);
        m.canonical_dx = static_cast<std::int8_t>(m.min_x - other.min_x);
        m.canonical_dy = static_cast<std::int8_t>(m.min_y - other.min_y);
        break;
      }
    }
  }
  return t;
}

const Table kTable = build_table();

}  // namespace

const PieceMask& piece_mask(Piece piece, Rotation rotation) {
  assert(engine::is_tetromino(piece));
  return kTable[static_cast<std::size_t>(piece)][static_cast<std::size_t>(rotation)];
}

Bitboard::Bitboard(const engine::Matrix& matrix) {
  for (int y = 0; y < engine::kMatrixHeight; ++y) rows_[static_cast<std::size_t>(y)] = matrix.row_bits(y);
}

void Bitboard::place(Piece piece, Rotation rotation, int x, int y) {
  assert(!collides(piece, rotation, x, y));
  const PieceMask& m = piece_mask(piece, rotation);
  for (int j = m.min_y; j <= m.max_y; ++j) {
    const std::uint32_t mask = x >= 0 ? (std::uint32_t{m.rows[static_cast<std::size_t>(j)]} << x)
                                      : (std::uint32_t{m.rows[static_cast<std::size_t>(j)]} >> -x);
    rows_[static_cast<std::size_t>(y + j)] |= static_cast<std::uint16_t>(mask);
  }
}

int Bitboard::clear_full_rows() {
  int out = 0;
  int cleared = 0;
  for (int y = 0; y < engine::kMatrixHeight; ++y) {
    const std::uint16_t r = rows_[static_cast<std::size_t>(y)];
    if (r == kFullRow) {
      ++cleared;
      continue;
    }
    rows_[static_cast<std::size_t>(out++)] = r;
  }
  for (int y = out; y < engine::kMatrixHeight; ++y) rows_[static_cast<std::size_t>(y)] = 0;
  return cleared;
}

int Bitboard::height() const {
  for (int y = engine::kMatrixHeight - 1; y >= 0; --y) {
    if (rows_[static_cast<std::size_t>(y)] != 0) return y + 1;
  }
  return 0;
}

}  // namespace sr::bot
