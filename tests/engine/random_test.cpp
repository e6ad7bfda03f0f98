// The engine's Random: xoshiro256** seeded by SplitMix64, and below(n). Golden values are computed independently
// (reference_rng.h), and that re-implementation is itself checked against the published reference outputs.
#include "common/engine/random.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "tests/engine/reference_rng.h"

namespace sr::engine {
namespace {

TEST(ReferenceRng, SplitMix64MatchesThePublishedOutputs) {
  // splitmix64.c, seed 1477776061723855037 (the vector rand_xoshiro tests against).
  std::uint64_t x = 1477776061723855037ull;
  const std::uint64_t kExpected[] = {1985237415132408290ull, 2979275885539914483ull, 13511426838097143398ull,
                                     8488337342461049707ull, 15141737807933549159ull};
  for (std::uint64_t e : kExpected) EXPECT_EQ(reference::splitmix64_next(x), e);
}

TEST(ReferenceRng, Xoshiro256StarStarMatchesThePublishedOutputs) {
  // xoshiro256starstar.c from the state {1, 2, 3, 4}.
  reference::Xoshiro256StarStar rng({1, 2, 3, 4});
  const std::uint64_t kExpected[] = {11520ull,
                                     0ull,
                                     1509978240ull,
                                     1215971899390074240ull,
                                     1216172134540287360ull,
                                     607988272756665600ull,
                                     16172922978634559625ull,
                                     8476171486693032832ull,
                                     10595114339597558777ull,
                                     2904607092377533576ull};
  for (std::uint64_t e : kExpected) EXPECT_EQ(rng.next(), e);
}

TEST(Random, SeedOneStateIsFourSplitMixOutputs) {
  const std::array<std::uint64_t, 4> kWords = {0x910A2DEC89025CC1ull, 0xBEEB8DA1658EEC67ull, 0xF893A2EEFB32555Eull,
                                               0x71C18690EE42C90Bull};
  EXPECT_EQ(Random(1).words(), kWords);
  EXPECT_EQ(reference::Xoshiro256StarStar::from_seed(1).state(), kWords);
}

TEST(Random, SeedOneGoldenOutputs) {
  const std::uint64_t kGolden[] = {0xB3F2AF6D0FC710C5ull, 0x853B559647364CEAull, 0x92F89756082A4514ull,
                                   0x642E1C7BC266A3A7ull, 0xB27A48E29A233673ull};
  Random engine(1);
  auto ref = reference::Xoshiro256StarStar::from_seed(1);
  for (std::uint64_t g : kGolden) {
    EXPECT_EQ(ref.next(), g);
    EXPECT_EQ(engine.next(), g);
  }
}

TEST(Random, MatchesTheReferenceForManySeeds) {
  for (std::uint64_t seed : {0ull, 2ull, 42ull, 0xFFFFFFFFFFFFFFFFull, 0x123456789ABCDEFull}) {
    Random engine(seed);
    auto ref = reference::Xoshiro256StarStar::from_seed(seed);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(engine.next(), ref.next()) << "seed " << seed << " output " << i;
  }
}

TEST(Random, BelowMatchesTheReferenceRejectionSampler) {
  for (std::uint32_t n : {1u, 2u, 7u, 1000u, 0x80000001u, 0xFFFFFFFFu}) {
    Random engine(9);
    auto ref = reference::Xoshiro256StarStar::from_seed(9);
    for (int i = 0; i < 1000; ++i) {
      const std::uint32_t v = engine.below(n);
      ASSERT_LT(v, n);
      ASSERT_EQ(v, ref.below(n)) << "n " << n << " draw " << i;
    }
    EXPECT_EQ(engine.words(), ref.state()) << "same number of outputs consumed";
  }
}

TEST(Random, BelowOneConsumesAnOutputAndReturnsZero) {
  Random a(5), b(5);
  EXPECT_EQ(a.below(1), 0u);
  (void)b.next();
  EXPECT_EQ(a.words(), b.words());
}

TEST(Random, BelowSevenIsRoughlyUniform) {
  Random r(3);
  std::array<int, 7> counts{};
  for (int i = 0; i < 70'000; ++i) ++counts[r.below(7)];
  for (int c : counts) {
    EXPECT_GT(c, 9'500);
    EXPECT_LT(c, 10'500);
  }
}

TEST(Random, CopiesContinueIdentically) {
  Random a(77);
  for (int i = 0; i < 10; ++i) (void)a.next();
  Random b = a;
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next(), b.next());
  EXPECT_EQ(a, b);
}

}  // namespace
}  // namespace sr::engine
