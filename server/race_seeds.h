// Where race seeds come from: the system's entropy, or, when the operator asks (`stackrace-server --race-seeds
// FIRST`), FIRST, FIRST + 1, FIRST + 2, ... in the order races start. Known seeds are for load tests and benchmarks:
// every race's pieces are known in advance, so its games can be recorded beforehand (tests/load/load_test.sh plays
// recorded games with `stackrace-bot --recorded`). Never on a public server: players could learn the pieces.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "common/engine/random.h"

namespace sr::server {

class RaceSeeds {
 public:
  // `first` 0: random seeds.
  explicit RaceSeeds(std::uint64_t first = 0) {
    if (first != 0) next_known_ = first;
    std::random_device entropy;
    random_ = engine::Random((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
  }

  // The next race's seed.
  std::uint64_t next() { return next_known_ ? (*next_known_)++ : random_.next(); }

 private:
  engine::Random random_;
  std::optional<std::uint64_t> next_known_;
};

}  // namespace sr::server
