// The engine's random number generator: xoshiro256** (Blackman and Vigna, 2018), seeded by running SplitMix64 over
// the 64-bit seed to fill its four state words.
//
// # Reproducibility
// The same seed gives the same sequence on every platform and compiler; golden values are pinned by tests.
// below(n) draws uniformly from [0, n) by rejection (no modulo bias), so it may consume more than one output.
#pragma once

#include <array>
#include <cstdint>

namespace sr::engine {

class Random {
 public:
  explicit Random(std::uint64_t seed = 0);

  // The next 64-bit output of xoshiro256**.
  std::uint64_t next();
  // Uniform integer in [0, n); n must be >= 1.
  std::uint32_t below(std::uint32_t n);

  [[nodiscard]] const std::array<std::uint64_t, 4>& words() const { return s_; }
  bool operator==(const Random&) const = default;

 private:
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace sr::engine
