// Evaluation weights as data: one struct of integers, with named presets, so variants can be compared game for game
// (stackrace-bot --weights NAME). Positive weights reward a feature, negative ones penalise it. Units: each weight
// is points per unit of its feature (cells, rows, columns, milliseconds) as features.h defines them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "common/engine/config.h"

namespace sr::bot {

struct Weights {
  // Board shape, after the placement and its line clears.
  std::int32_t height = 0;           // per cell of aggregate column height
  std::int32_t max_height = 0;       // per row of the highest column
  std::int32_t top_half = 0;         // per row the highest column reaches above row 10
  std::int32_t top_quarter = 0;      // per row above row 15
  std::int32_t holes = 0;            // per empty cell below its column's top
  std::int32_t hole_rows = 0;        // per row that holds at least one hole
  std::int32_t covered = 0;          // per block above a column's lowest hole (capped at 6 per column)
  std::int32_t bumpiness = 0;        // per row of height difference between neighbours (the well excluded)
  std::int32_t bumpiness_sq = 0;     // per squared row of the same
  std::int32_t row_transitions = 0;  // per filled/empty change along rows (walls count as filled)
  std::int32_t col_transitions = 0;  // per filled/empty change up columns
  std::int32_t well_depth = 0;       // per row of the main well (lowest column), up to well_cap rows
  std::int32_t well_cap = 4;
  std::array<std::int32_t, 10> well_column{};  // bonus when the main well is this column (and at least 1 deep)
  std::int32_t deep_wells = 0;                 // per other column at least 3 below both neighbours (needs an I)
  std::int32_t tslot = 0;                      // per TSD (two-line T-spin) slot a T could fill next
  // What the lock itself did.
  std::array<std::int32_t, 5> clear{};  // by lines cleared, 0..4, without a spin
  std::array<std::int32_t, 4> tspin{};  // full T-spin by lines, 0..3
  std::array<std::int32_t, 3> mini{};   // mini spin by lines, 0..2
  std::int32_t perfect_clear = 0;
  std::int32_t b2b_clear = 0;           // a difficult clear (tetris or spin) while back-to-back is live
  std::int32_t b2b_break = 0;           // a plain 1-3 line clear that ends a back-to-back chain
  std::int32_t combo = 0;               // per combo step of a clear that continues a combo
  std::int32_t wasted_t = 0;            // a T placed without a spin clear
  std::int32_t soft_drop_ms = 0;        // per millisecond spent holding soft drop (tucks are slow at low gravity)
  std::int32_t actions = 0;             // per key action on the way (fewer keys, faster play)
  std::int32_t death = -1'000'000'000;  // the lock ends the game (lock out) or the next piece cannot spawn
  bool operator==(const Weights&) const = default;
};

struct WeightsPreset {
  const char* name;
  const char* purpose;
  Weights weights;
};

// "sprint": fast tetrises from a right-hand well, cheap stacking. "survival": low, flat and hole-free (marathon,
// master). "score": tetrises, T-spins and back-to-back for guideline scoring (ultra, endless). "contest": lines as
// fast as possible, small clears preferred (contest scoring pays most per line for singles).
[[nodiscard]] std::span<const WeightsPreset> weights_presets();
[[nodiscard]] std::optional<Weights> weights_by_name(const std::string& name);
// The preset a mode plays best with: "sprint", "survival", "score" or "contest".
[[nodiscard]] const char* default_weights_name(engine::ModeKind mode);

}  // namespace sr::bot
