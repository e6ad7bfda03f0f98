// Random button logs for the engine's tests: each change flips one or two buttons drawn from a weighted list (a
// button listed twice comes up twice as often), at a random gap of 0..max_gap_us after the one before. Hard drop is
// the fallback when two flips cancel out, so pieces lock. The same seed, weights and gap give the same log on every
// platform (engine::Random); tests/engine/behaviour_pin_test.cpp pins games played from these logs, so a change
// here changes its digests.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/engine/input.h"
#include "common/engine/random.h"
#include "tests/engine/test_player.h"

namespace sr::engine::test {

inline std::vector<Change> random_changes(std::uint64_t seed, int changes, std::span<const Buttons> weighted,
                                          TimeUs max_gap_us) {
  const auto kinds = static_cast<std::uint32_t>(weighted.size());
  Random rng(seed);
  std::vector<Change> log;
  TimeUs t = 0;
  Buttons held = 0;
  for (int i = 0; i < changes; ++i) {
    t += rng.below(static_cast<std::uint32_t>(max_gap_us + 1));
    Buttons flip = weighted[rng.below(kinds)];
    if (rng.below(4) == 0) flip = static_cast<Buttons>(flip ^ weighted[rng.below(kinds)]);
    if (flip == 0) flip = button::kHardDrop;
    held = static_cast<Buttons>(held ^ flip);
    log.push_back({t, held});
  }
  return log;
}

}  // namespace sr::engine::test
