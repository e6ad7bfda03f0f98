// Board features for the evaluation: exact integer counts measured on a bitboard. See weights.h for how each is
// weighted. Pure functions of the board; the same board always gives the same features.
#pragma once

#include <array>
#include <cstdint>

#include "common/bot/bitboard.h"

namespace sr::bot {

struct BoardFeatures {
  std::array<std::int8_t, engine::kMatrixWidth> heights{};  // 1 + highest block per column, 0 when empty
  std::int32_t aggregate_height = 0;
  std::int32_t max_height = 0;
  std::int32_t holes = 0;      // empty cells below their column's top
  std::int32_t hole_rows = 0;  // rows with at least one hole
  std::int32_t covered = 0;    // blocks above each column's lowest hole, at most 6 per column
  std::int32_t bumpiness = 0;  // sum of |h[c] - h[c+1]|, skipping the two edges of the well column
  std::int32_t bumpiness_sq = 0;
  std::int32_t row_transitions = 0;
  std::int32_t col_transitions = 0;
  std::int8_t well_column = 0;  // the lowest column (leftmost of equals... see features.cpp for the tie rule)
  std::int32_t well_depth = 0;  // rows below the lower of its neighbours (walls count as high)
  std::int32_t deep_wells = 0;  // other columns at least 3 below both neighbours
  std::int32_t tslots = 0;      // TSD (two-line T-spin) slots ready for a T
};

// `preferred_well`: the column that wins ties for the main well (rightmost lowest column otherwise).
[[nodiscard]] BoardFeatures measure(const Bitboard& board, int preferred_well = engine::kMatrixWidth - 1);

}  // namespace sr::bot
