// Bit counting for the engine, written out so that it compiles to a few inline instructions on every target.
// std::popcount becomes a call into libgcc (__popcountdi2) unless the build targets a CPU with a popcount
// instruction (-mpopcnt), and the engine assumes no CPU flags: it must run alike on x86-64, i686, aarch64 and s390x.
#pragma once

#include <cstdint>

namespace sr::engine {

// The number of set bits of `v`: exactly std::popcount(v) (tests/engine/bits_test.cpp checks it).
[[nodiscard]] constexpr int count_bits(std::uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((v * 0x0101010101010101ull) >> 56);
}

}  // namespace sr::engine
