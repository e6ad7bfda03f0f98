// Numbers the engine keeps about a game. All are exact integers; they are part of the state hash and of replays.
#pragma once

#include <cstdint>

#include "common/engine/types.h"

namespace sr::engine {

struct Stats {
  TimeUs time_us = 0;       // game time reached (the finish or top-out time once the game has ended)
  std::int64_t pieces = 0;  // pieces locked
  std::int64_t lines = 0;   // lines cleared
  std::int64_t score = 0;
  std::int32_t level = 1;
  std::int64_t key_presses = 0;  // button presses (each newly pressed button counts once)
  std::int64_t holds = 0;
  std::int64_t singles = 0, doubles = 0, triples = 0, tetrises = 0;
  std::int64_t tspins = 0, tspin_singles = 0, tspin_doubles = 0, tspin_triples = 0;  // tspins: no-line T-spins
  std::int64_t minis = 0, mini_singles = 0, mini_doubles = 0;  // minis: no-line minis (incl. all-spin minis)
  std::int64_t perfect_clears = 0;
  std::int32_t max_combo = 0;  // largest combo counter reached (1 = two clearing pieces in a row)
  std::int32_t max_b2b = 0;    // most back-to-back bonuses in one chain
  bool operator==(const Stats&) const = default;
};

}  // namespace sr::engine
