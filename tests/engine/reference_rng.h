// Independent re-implementations, for the golden tests, of the engine's documented random algorithms: SplitMix64
// and xoshiro256** as published by Vigna (prng.di.unimi.it), rejection-sampled below(n), and the three random
// piece generators as generator.h describes them. Written from the documentation, not from common/engine.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>

namespace sr::engine::reference {

inline std::uint64_t splitmix64_next(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

class Xoshiro256StarStar {
 public:
  explicit Xoshiro256StarStar(std::array<std::uint64_t, 4> state) : s_(state) {}
  // Seeded the documented way: four SplitMix64 outputs.
  static Xoshiro256StarStar from_seed(std::uint64_t seed) {
    std::array<std::uint64_t, 4> s{};
    for (auto& w : s) w = splitmix64_next(seed);
    return Xoshiro256StarStar(s);
  }
  std::uint64_t next() {
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
  // Uniform in [0, n): outputs below 2^64 mod n are rejected, then the remainder mod n is taken.
  std::uint32_t below(std::uint32_t n) {
    const std::uint64_t reject_under = (~std::uint64_t{0} % n + 1) % n;  // 2^64 mod n
    for (;;) {
      const std::uint64_t x = next();
      if (x >= reject_under) return static_cast<std::uint32_t>(x % n);
    }
  }
  [[nodiscard]] const std::array<std::uint64_t, 4>& state() const { return s_; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> s_;
};

inline constexpr char kOrder[] = "IJLOSTZ";  // piece order of the generators

// 7-bag: per bag, I..Z shuffled by Fisher-Yates, swapping i with below(i + 1) for i = 6 down to 1.
inline std::string bag7(std::uint64_t seed, int count) {
  auto rng = Xoshiro256StarStar::from_seed(seed);
  std::string out;
  while (static_cast<int>(out.size()) < count) {
    std::string bag = kOrder;
    for (std::uint32_t i = 6; i >= 1; --i) std::swap(bag[i], bag[rng.below(i + 1)]);
    out += bag;
  }
  return out.substr(0, static_cast<std::size_t>(count));
}

// Recency: weight since^2; since starts at 7, becomes 1 for the drawn piece, grows by 1 (max 1000) for the others;
// the pick is the piece whose cumulative weight range, in I..Z order, holds below(total).
inline std::string recency(std::uint64_t seed, int count) {
  auto rng = Xoshiro256StarStar::from_seed(seed);
  std::array<std::uint32_t, 7> since{7, 7, 7, 7, 7, 7, 7};
  std::string out;
  for (int n = 0; n < count; ++n) {
    std::uint32_t total = 0;
    for (auto s : since) total += s * s;
    std::uint32_t roll = rng.below(total);
    std::size_t pick = 0;
    while (roll >= since[pick] * since[pick]) roll -= since[pick] * since[pick], ++pick;
    for (std::size_t i = 0; i < 7; ++i) since[i] = i == pick ? 1 : std::min<std::uint32_t>(since[i] + 1, 1000);
    out += kOrder[pick];
  }
  return out;
}

// Uniform: I..Z by below(7).
inline std::string uniform(std::uint64_t seed, int count) {
  auto rng = Xoshiro256StarStar::from_seed(seed);
  std::string out;
  for (int n = 0; n < count; ++n) out += kOrder[rng.below(7)];
  return out;
}

}  // namespace sr::engine::reference
