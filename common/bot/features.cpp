#include "common/bot/features.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

namespace sr::bot {
namespace {

constexpr int kWidth = engine::kMatrixWidth;
constexpr int kWallHeight = engine::kMatrixHeight;  // a wall is as high as the matrix

int popcount16(std::uint32_t v) { return std::popcount(v); }

}  // namespace

BoardFeatures measure(const Bitboard& board, int preferred_well) {
  BoardFeatures f;
  const int top = board.height();
  std::array<std::int8_t, kWidth> lowest_hole;
  lowest_hole.fill(-1);

  // One pass from the top down: heights, holes and row transitions.
  std::uint32_t above = 0;  // columns with a block above the current row
  for (int y = top - 1; y >= 0; --y) {
    const std::uint32_t row = board.row(y);
    const std::uint32_t fresh = row & ~above;
    for (std::uint32_t m = fresh; m != 0; m &= m - 1) {
      f.heights[static_cast<std::size_t>(std::countr_zero(m))] = static_cast<std::int8_t>(y + 1);
    }
    const std::uint32_t holes = above & ~row & Bitboard::kFullRow;
    if (holes != 0) {
      f.holes += popcount16(holes);
      ++f.hole_rows;
      for (std::uint32_t m = holes; m != 0; m &= m - 1) {
        lowest_hole[static_cast<std::size_t>(std::countr_zero(m))] = static_cast<std::int8_t>(y);
      }
    }
    above |= row;
    // Walls on both sides count as filled: bit 0 and bit 11 of the widened row.
    const std::uint32_t wide = (row << 1) | 1u | (1u << (kWidth + 1));
    f.row_transitions += popcount16((wide ^ (wide >> 1)) & ((1u << (kWidth + 1)) - 1));
  }
  // Column transitions, with the floor filled and the row above the stack empty.
  std::uint32_t below = Bitboard::kFullRow;
  for (int y = 0; y <= top && y < engine::kMatrixHeight; ++y) {
    const std::uint32_t row = board.row(y);
    f.col_transitions += popcount16(row ^ below);
    below = row;
  }

  int lowest = kWallHeight;
  for (int c = 0; c < kWidth; ++c) {
    const int h = f.heights[static_cast<std::size_t>(c)];
    f.aggregate_height += h;
    f.max_height = std::max(f.max_height, h);
    lowest = std::min(lowest, h);
    const int hole = lowest_hole[static_cast<std::size_t>(c)];
    if (hole >= 0) f.covered += std::min(6, h - hole - 1);
  }

  // The main well: the lowest column; the preferred column wins ties, then the rightmost.
  int well = -1;
  if (preferred_well >= 0 && preferred_well < kWidth && f.heights[static_cast<std::size_t>(preferred_well)] == lowest) {
    well = preferred_well;
  } else {
    for (int c = kWidth - 1; c >= 0; --c) {
      if (f.heights[static_cast<std::size_t>(c)] == lowest) {
        well = c;
        break;
      }
    }
  }
  f.well_column = static_cast<std::int8_t>(well);
  auto height_at = [&](int c) {
    return c < 0 || c >= kWidth ? kWallHeight : int{f.heights[static_cast<std::size_t>(c)]};
  };
  f.well_depth = std::max(0, std::min(height_at(well - 1), height_at(well + 1)) - lowest);

  for (int c = 0; c + 1 < kWidth; ++c) {
    if (c == well || c + 1 == well) continue;
    const int d = std::abs(height_at(c) - height_at(c + 1));
    f.bumpiness += d;
    f.bumpiness_sq += d * d;
  }
  for (int c = 0; c < kWidth; ++c) {
    if (c == well) continue;
    if (std::min(height_at(c - 1), height_at(c + 1)) - height_at(c) >= 3) ++f.deep_wells;
  }

  // T-spin double slots: the stem cell (c, y) is the only hole of its row, the three cells above it are open, and
  // exactly one side has a roof two rows up (the T turns in from the open side).
  for (int c = 1; c + 1 < kWidth; ++c) {
    const int y = f.heights[static_cast<std::size_t>(c)];
    if (y + 2 >= engine::kMatrixHeight) continue;
    if (board.row(y) != (Bitboard::kFullRow & ~(1u << c))) continue;
    if (board.occupied(c - 1, y + 1) || board.occupied(c, y + 1) || board.occupied(c + 1, y + 1)) continue;
    if (board.occupied(c - 1, y + 2) == board.occupied(c + 1, y + 2)) continue;
    ++f.tslots;
  }
  return f;
}

}  // namespace sr::bot
