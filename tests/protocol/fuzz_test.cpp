// Random and mutated input never crashes decode (ASan/UBSan watch), and whatever decodes re-encodes to exactly
// the same bytes (the encoding is canonical).
#include <gtest/gtest.h>

#include <vector>

#include "common/engine/random.h"
#include "common/protocol/codec.h"
#include "tests/protocol/samples.h"

namespace sr::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Decodes `bytes`; if that worked, checks the canonical-encoding promise. Returns whether it decoded.
bool decode_checked(const Bytes& bytes) {
  const DecodeResult r = decode(bytes);
  if (!r.ok()) {
    EXPECT_FALSE(r.error().message.empty());
    EXPECT_LE(r.error().offset, bytes.size());
    return false;
  }
  EXPECT_TRUE(validate(r.value()).ok());
  EXPECT_EQ(encode(r.value()), bytes);
  return true;
}

TEST(Fuzz, RandomBuffersAreRejectedOrCanonical) {
  engine::Random rng(20240601);
  int decoded = 0;
  for (int i = 0; i < 5000; ++i) {
    Bytes bytes(rng.below(64));
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng.next());
    // Give most buffers a real id so the fields get exercised, not just the id check.
    if (!bytes.empty() && rng.below(4) != 0) bytes[0] = static_cast<std::uint8_t>(1 + rng.below(39));
    decoded += decode_checked(bytes) ? 1 : 0;
  }
  EXPECT_GT(decoded, 0) << "random bytes should sometimes form short messages";
}

TEST(Fuzz, MutatedSamplesAreRejectedOrCanonical) {
  engine::Random rng(7);
  const auto samples = testing::all_samples();
  for (int i = 0; i < 20000; ++i) {
    Bytes bytes = encode(samples[rng.below(static_cast<std::uint32_t>(samples.size()))]);
    const std::uint32_t edits = 1 + rng.below(4);
    for (std::uint32_t e = 0; e < edits; ++e) {
      const auto at = rng.below(static_cast<std::uint32_t>(bytes.size()));
      switch (rng.below(4)) {
        case 0: bytes[at] ^= static_cast<std::uint8_t>(1u << rng.below(8)); break;  // flip a bit
        case 1: bytes[at] = static_cast<std::uint8_t>(rng.next()); break;           // replace a byte
        case 2: bytes.insert(bytes.begin() + at, static_cast<std::uint8_t>(rng.next())); break;
        default:
          if (bytes.size() > 1) bytes.erase(bytes.begin() + at);
          break;
      }
    }
    decode_checked(bytes);
  }
}

TEST(Fuzz, WorstCaseMessagesSurviveBitFlips) {
  engine::Random rng(99);
  for (const Message& m : testing::worst_case_samples()) {
    const Bytes original = encode(m);
    for (int i = 0; i < 40; ++i) {
      Bytes bytes = original;
      bytes[rng.below(static_cast<std::uint32_t>(bytes.size()))] ^= static_cast<std::uint8_t>(1u << rng.below(8));
      decode_checked(bytes);
    }
  }
}

}  // namespace
}  // namespace sr::protocol
