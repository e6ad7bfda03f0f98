// count_bits (common/engine/bits.h) against std::popcount, the definition it must match.
#include "common/engine/bits.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "common/engine/random.h"

namespace sr::engine {
namespace {

static_assert(count_bits(0) == 0);
static_assert(count_bits(~std::uint64_t{0}) == 64);
static_assert(count_bits(0x8000000000000001ull) == 2);

TEST(CountBits, MatchesStdPopcount) {
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    EXPECT_EQ(count_bits(bit), 1) << i;
    EXPECT_EQ(count_bits(bit - 1), i) << i;
    EXPECT_EQ(count_bits(~(bit - 1)), 64 - i) << i;
  }
  for (std::uint32_t v = 0; v < 0x10000; ++v) ASSERT_EQ(count_bits(v), std::popcount(v)) << v;
  Random rng(31);
  for (int i = 0; i < 100'000; ++i) {
    const std::uint64_t v = rng.next();
    ASSERT_EQ(count_bits(v), std::popcount(v)) << v;
  }
}

}  // namespace
}  // namespace sr::engine
