// Names of the engine's enums as they appear in replay JSON and in stackrace-replay output. Each table is indexed by
// the enum's stored value, so names[value] is the name and the position of a name is the value. Part of the JSON
// schema (FORMAT.md): never rename, only append.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

#include "common/engine/config.h"
#include "common/engine/events.h"
#include "common/engine/stats.h"
#include "common/replay/replay.h"

namespace sr::replay::names {

inline constexpr std::array<const char*, 7> kMode = {"sprint",  "ultra",   "marathon", "master",
                                                     "endless", "contest", "custom"};
inline constexpr std::array<const char*, 6> kLimit = {"none", "time", "pieces", "lines", "level", "score"};
inline constexpr std::array<const char*, 3> kGoal = {"time", "score", "lines"};
inline constexpr std::array<const char*, 4> kRotation = {"srs", "srs_no180", "classic", "ocular"};
inline constexpr std::array<const char*, 4> kGenerator = {"bag7", "recency", "uniform", "fixed"};
inline constexpr std::array<const char*, 4> kLockDown = {"extended", "infinite", "classic", "timer"};
inline constexpr std::array<const char*, 3> kScoring = {"guideline", "contest", "tetrs"};
inline constexpr std::array<const char*, 2> kGoalSystem = {"fixed", "variable"};
inline constexpr std::array<const char*, 2> kGravity = {"level_table", "20g"};
inline constexpr std::array<const char*, 5> kStatus = {"finished", "topped_out", "disconnected", "forfeited",
                                                       "unfinished"};
inline constexpr std::array<const char*, 3> kTopOut = {"none", "block_out", "lock_out"};

// names[value], or "unknown" when the value is past the table.
template <class E, std::size_t N>
[[nodiscard]] const char* name_of(const std::array<const char*, N>& table, E value) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? table[i] : "unknown";
}

// The value whose name is `name`, if any.
template <std::size_t N>
[[nodiscard]] std::optional<std::size_t> index_of(const std::array<const char*, N>& table, std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (name == table[i]) return i;
  }
  return std::nullopt;
}

// Every engine::Stats field with its name in replay JSON ("time_us", "pieces", ...), in the schema's order: what the
// verifier compares and the web engine's digest prints.
using StatField = std::pair<const char*, std::int64_t>;
[[nodiscard]] inline std::array<StatField, 21> stat_fields(const engine::Stats& s) {
  return {{{"time_us", s.time_us},
           {"pieces", s.pieces},
           {"lines", s.lines},
           {"score", s.score},
           {"level", s.level},
           {"key_presses", s.key_presses},
           {"holds", s.holds},
           {"singles", s.singles},
           {"doubles", s.doubles},
           {"triples", s.triples},
           {"tetrises", s.tetrises},
           {"tspins", s.tspins},
           {"tspin_singles", s.tspin_singles},
           {"tspin_doubles", s.tspin_doubles},
           {"tspin_triples", s.tspin_triples},
           {"minis", s.minis},
           {"mini_singles", s.mini_singles},
           {"mini_doubles", s.mini_doubles},
           {"perfect_clears", s.perfect_clears},
           {"max_combo", s.max_combo},
           {"max_b2b", s.max_b2b}}};
}

}  // namespace sr::replay::names
