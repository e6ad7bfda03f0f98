#include "common/replay/input_log_codec.h"

#include <gtest/gtest.h>

#include "common/engine/random.h"
#include "common/replay/codec.h"
#include "common/replay/sample/synthetic_log.h"
#include "tests/support/status.h"

namespace sr::replay {
namespace {

namespace button = engine::button;

std::vector<engine::InputChange> round_trip(const std::vector<engine::InputChange>& log) {
  EXPECT_EQ(sr::test::problem_of(check_input_log(log)), std::nullopt);
  const EncodedInputLog enc = encode_input_log(log);
  std::vector<engine::InputChange> out;
  EXPECT_EQ(sr::test::problem_of(decode_input_log(enc, out)), std::nullopt);
  return out;
}

// Any valid log: random times (any microsecond), random button changes (single and multi-bit).
std::vector<engine::InputChange> random_log(std::uint64_t seed, std::size_t n) {
  engine::Random rng(seed);
  std::vector<engine::InputChange> log;
  engine::TimeUs t = rng.below(3) == 0 ? 0 : rng.below(1'000'000);
  engine::Buttons held = 0;
  for (std::size_t i = 0; i < n; ++i) {
    engine::Buttons next = held;
    while (next == held) {
      next = rng.below(4) == 0 ? static_cast<engine::Buttons>(rng.below(256))
                               : static_cast<engine::Buttons>(held ^ (1u << rng.below(8)));
    }
    held = next;
    log.push_back(engine::InputChange{t, held});
    t += rng.below(5) == 0 ? 0 : rng.below(200'000);
  }
  return log;
}

TEST(InputLogCodec, EmptyLogHasNoStream) {
  const EncodedInputLog enc = encode_input_log({});
  EXPECT_EQ(enc.count, 0u);
  EXPECT_TRUE(enc.bits.empty());
  EXPECT_TRUE(round_trip({}).empty());
}

TEST(InputLogCodec, RoundTripsAnyMicrosecondLog) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const auto log = random_log(seed, 1 + seed * 13);
    EXPECT_EQ(round_trip(log), log) << "seed " << seed;
  }
}

// Past the 65,536 changes sized before decoding the decoder grows its output as the changes come; the fast path and
// the bit-by-bit one (several buttons at once, deltas too long for the window) take turns all along.
TEST(InputLogCodec, RoundTripsLogsLongerThanTheFirstSizing) {
  for (std::uint64_t seed : {7u, 8u}) {
    const auto log = random_log(seed, 65'536 * 2 + 1'000);
    EXPECT_EQ(round_trip(log), log) << "seed " << seed;
  }
  std::vector<engine::InputChange> exact;  // exactly the first sizing, then one more
  for (std::size_t i = 0; i < 65'537; ++i) {
    exact.push_back({static_cast<engine::TimeUs>(i) * 16'667, i % 2 == 0 ? button::kMoveLeft : engine::Buttons{0}});
  }
  EXPECT_EQ(round_trip(exact), exact);
  exact.pop_back();
  EXPECT_EQ(round_trip(exact), exact);
}

TEST(InputLogCodec, UnitIsTheGcdOfTheDeltas) {
  const std::vector<engine::InputChange> ms = {{3000, button::kHardDrop}, {50'000, 0}, {51'000, button::kMoveLeft}};
  EXPECT_EQ(encode_input_log(ms).unit_us, 1000u);
  std::vector<engine::InputChange> odd = ms;
  odd[2].time_us += 1;  // one microsecond off the grid
  EXPECT_EQ(encode_input_log(odd).unit_us, 1u);
  EXPECT_EQ(round_trip(odd), odd);
  const std::vector<engine::InputChange> same_time = {{0, 1}, {0, 3}, {0, 0}};
  EXPECT_EQ(encode_input_log(same_time).unit_us, 1u);
  EXPECT_EQ(round_trip(same_time), same_time);
}

TEST(InputLogCodec, HugeTimesRoundTrip) {
  // The codec carries any int64 time; check_replay() then limits game times to kMaxGameTimeUs.
  const std::vector<engine::InputChange> log = {{1, 1}, {INT64_MAX - 5, 0}, {INT64_MAX, 255}};
  const EncodedInputLog enc = encode_input_log(log);
  std::vector<engine::InputChange> out;
  EXPECT_EQ(sr::test::problem_of(decode_input_log(enc, out)), std::nullopt);
  EXPECT_EQ(out, log);
  const auto checked = check_input_log(log);
  ASSERT_FALSE(checked.ok());
  EXPECT_NE(checked.error().find("inputs[1] is later than"), std::string::npos);
}

// The size goal (FORMAT.md, "Size"): a realistic 100-piece log on a 1 ms grid costs about 6.5 bytes per piece.
TEST(InputLogCodec, RealisticSprintLogStaysSmall) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto log = sample::synthetic_log(100, seed);
    ASSERT_TRUE(check_input_log(log).ok());
    const EncodedInputLog enc = encode_input_log(log);
    EXPECT_EQ(enc.unit_us, 1000u);
    EXPECT_LT(enc.bits.size(), 720u) << "seed " << seed << ", " << log.size() << " changes";
    EXPECT_EQ(round_trip(log), log);
  }
}

TEST(InputLogCodec, RejectsCountsTheStreamCannotHold) {
  EncodedInputLog enc = encode_input_log(std::vector<engine::InputChange>{{0, 1}, {10, 0}});
  enc.count = 1'000'000'000;
  std::vector<engine::InputChange> out;
  const auto decoded = decode_input_log(enc, out);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().find("exceeds"), std::string::npos) << decoded.error();
  EXPECT_TRUE(out.empty());
}

TEST(InputLogCodec, RejectsTrailingStreamBytesAndNonZeroPadding) {
  EncodedInputLog enc = encode_input_log(std::vector<engine::InputChange>{{0, 1}, {10, 0}});
  std::vector<engine::InputChange> out;
  EncodedInputLog longer = enc;
  longer.bits.push_back(0);
  EXPECT_FALSE(decode_input_log(longer, out).ok());
  // 15 bits of changes: the last bit of the second byte is padding.
  EncodedInputLog dirty = encode_input_log(std::vector<engine::InputChange>{{0, 1}, {10, 0}, {20, 2}});
  ASSERT_EQ(dirty.bits.size(), 2u);
  ASSERT_EQ(dirty.bits.back() & 1u, 0u);
  dirty.bits.back() = static_cast<std::uint8_t>(dirty.bits.back() | 1u);
  const auto decoded = decode_input_log(dirty, out);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().find("padding"), std::string::npos) << decoded.error();
}

TEST(InputLogCodec, RejectsTimesThatOverflow) {
  EncodedInputLog enc = encode_input_log(std::vector<engine::InputChange>{{INT64_MAX / 2, 1}, {INT64_MAX, 0}});
  enc.unit_us *= 4;
  std::vector<engine::InputChange> out;
  const auto decoded = decode_input_log(enc, out);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.error().find("overflow"), std::string::npos) << decoded.error();
}

TEST(InputLogCodec, RejectsAZeroUnit) {
  EncodedInputLog enc = encode_input_log(std::vector<engine::InputChange>{{5, 1}});
  enc.unit_us = 0;
  std::vector<engine::InputChange> out;
  EXPECT_EQ(sr::test::problem_of(decode_input_log(enc, out)), "time unit 0 us is out of range");
}

// The one sentence a binary file cannot reach (it stores no stream for an empty log); the others are pinned through
// whole files in codec_binary_errors_test.cpp.
TEST(InputLogCodec, RejectsStreamBytesOfAnEmptyLog) {
  EncodedInputLog enc;
  enc.bits = {0x00};
  std::vector<engine::InputChange> out = {{1, 1}};
  EXPECT_EQ(sr::test::problem_of(decode_input_log(enc, out)), "an empty log has stream bytes");
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace sr::replay
