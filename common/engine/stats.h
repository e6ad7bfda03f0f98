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

// Pieces per second and key presses per piece in hundredths, truncated: the one rule every screen, the server's
// standings, the web pages and the bot's reports use, so one racer shows one figure ("2.47") everywhere. 0 before any
// time has passed (before the first piece).
[[nodiscard]] inline std::int64_t pps_x100(std::int64_t pieces, TimeUs time_us) {
  return time_us > 0 ? pieces * 100'000'000 / time_us : 0;
}
[[nodiscard]] inline std::int64_t kpp_x100(std::int64_t key_presses, std::int64_t pieces) {
  return pieces > 0 ? key_presses * 100 / pieces : 0;
}

}  // namespace sr::engine
