#include "common/engine/random.h"

#include <cassert>

namespace sr::engine {
namespace {

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

Random::Random(std::uint64_t seed) {
  for (auto& word : s_) word = splitmix64(seed);
}

std::uint64_t Random::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint32_t Random::below(std::uint32_t n) {
  assert(n >= 1);
  // Reject the lowest (2^64 mod n) outputs so every residue is equally likely.
  const std::uint64_t threshold = (0 - static_cast<std::uint64_t>(n)) % n;
  for (;;) {
    const std::uint64_t x = next();
    if (x >= threshold) return static_cast<std::uint32_t>(x % n);
  }
}

}  // namespace sr::engine
