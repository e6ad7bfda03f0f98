#include "common/replay/bit_stream.h"

#include <gtest/gtest.h>

namespace sr::replay {
namespace {

TEST(BitStream, PacksMostSignificantBitFirstAndPadsWithZeros) {
  BitWriter w;
  w.put(0b101, 3);
  w.put(0b1, 1);
  w.put(0b11, 2);
  ASSERT_EQ(w.bytes().size(), 1u);
  EXPECT_EQ(w.bytes()[0], 0b1011'1100);
  EXPECT_EQ(w.bit_count(), 6u);
}

TEST(BitStream, ExpGolombOrderZeroMatchesTheTextbookCodes) {
  // 0 -> 1, 1 -> 010, 2 -> 011, 3 -> 00100
  BitWriter w;
  for (std::uint64_t v : {0u, 1u, 2u, 3u}) w.put_exp_golomb(v, 0);
  ASSERT_EQ(w.bit_count(), 1u + 3 + 3 + 5);
  EXPECT_EQ(w.bytes()[0], 0b1'010'011'0);
  EXPECT_EQ(w.bytes()[1], 0b0100'0000);
}

TEST(BitStream, ExpGolombBitCountsGrowTwoBitsPerDoubling) {
  EXPECT_EQ(exp_golomb_bits(0, 5), 6);
  EXPECT_EQ(exp_golomb_bits(31, 5), 6);
  EXPECT_EQ(exp_golomb_bits(32, 5), 8);
  EXPECT_EQ(exp_golomb_bits(95, 5), 8);
  EXPECT_EQ(exp_golomb_bits(96, 5), 10);
}

TEST(BitStream, RoundTripsValuesUpToTwoToTheSixtyThree) {
  const std::uint64_t values[] = {0, 1, 7, 1000, 123456789, (std::uint64_t{1} << 62) + 5, (std::uint64_t{1} << 63) - 1};
  for (int k = 0; k <= kMaxExpGolombOrder; ++k) {
    BitWriter w;
    for (std::uint64_t v : values) w.put_exp_golomb(v, k);
    BitReader r(w.bytes());
    for (std::uint64_t v : values) {
      std::uint64_t got = 0;
      ASSERT_TRUE(r.get_exp_golomb(k, got)) << "k=" << k;
      EXPECT_EQ(got, v) << "k=" << k;
    }
    EXPECT_TRUE(r.rest_is_zero());
  }
}

TEST(BitStream, TruncatedBinaryUsesShortCodesForTheFirstValues) {
  // n = 5: k = 2, u = 3: values 0..2 take 2 bits, 3..4 take 3 bits.
  BitWriter w;
  for (std::uint32_t v = 0; v < 5; ++v) w.put_truncated(v, 5);
  EXPECT_EQ(w.bit_count(), 2u * 3 + 3 * 2);
  BitReader r(w.bytes());
  for (std::uint32_t v = 0; v < 5; ++v) {
    std::uint32_t got = 99;
    ASSERT_TRUE(r.get_truncated(5, got));
    EXPECT_EQ(got, v);
  }
  BitWriter one;
  one.put_truncated(0, 1);
  EXPECT_EQ(one.bit_count(), 0u);
}

// The reader buffers up to 64 bits at a time: reads of any width, at any bit offset, across its refills.
TEST(BitStream, ReadsEveryWidthAtEveryOffset) {
  for (int offset = 0; offset < 8; ++offset) {
    for (int n = 0; n <= 64; ++n) {
      const std::uint64_t value = n == 0 ? 0 : 0xA5C3'9F17'6B2D'E481ull >> (64 - n);
      BitWriter w;
      w.put(0, offset);
      w.put(value, n);
      w.put(1, 1);
      BitReader r(w.bytes());
      std::uint64_t got = 99;
      ASSERT_TRUE(r.get(offset, got));
      ASSERT_TRUE(r.get(n, got)) << "offset " << offset << ", " << n << " bits";
      EXPECT_EQ(got, value) << "offset " << offset << ", " << n << " bits";
      ASSERT_TRUE(r.get(1, got));
      EXPECT_EQ(got, 1u);
      EXPECT_TRUE(r.rest_is_zero());
      EXPECT_LT(r.bits_left(), 8u);
      EXPECT_FALSE(r.get(static_cast<int>(r.bits_left()) + 1, got));
    }
  }
}

TEST(BitStream, ReaderRefusesToReadPastTheEnd) {
  const std::uint8_t zeros[2] = {0, 0};
  BitReader r(zeros);
  std::uint64_t v = 0;
  EXPECT_FALSE(r.get_exp_golomb(0, v));  // sixteen zeros never finish a code
  BitReader r2(zeros);
  EXPECT_TRUE(r2.get(16, v));
  EXPECT_FALSE(r2.get(1, v));
}

}  // namespace
}  // namespace sr::replay
