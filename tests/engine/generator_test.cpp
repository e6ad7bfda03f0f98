// Piece generators: golden sequences for seed 1 (written out, and re-derived from the documented algorithms in
// reference_rng.h), the 7-bag property, the fixed sequence, and independence from everything but kind and seed.
#include "common/engine/generator.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/engine/reference_rng.h"
#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

std::string draw(GeneratorKind kind, std::uint64_t seed, int count, const std::vector<Piece>& fixed = {}) {
  Generator g(kind, seed);
  std::string out;
  for (int i = 0; i < count; ++i) out += piece_letter(g.next(fixed));
  return out;
}

constexpr char kBag7Seed1[] = "JTLZISOLTSZJOIIOLSJZTOLSZIJT";
constexpr char kRecencySeed1[] = "OIZJSTLJISOTZJIOLZSOTIJLZSOI";
constexpr char kUniformSeed1[] = "OZSZJZIIZITJTTZSJITLSJLJLLIJ";

TEST(Generator, Bag7GoldenSeedOne) {
  EXPECT_EQ(draw(GeneratorKind::kBag7, 1, 28), kBag7Seed1);
  EXPECT_EQ(reference::bag7(1, 28), kBag7Seed1);
}

TEST(Generator, RecencyGoldenSeedOne) {
  EXPECT_EQ(draw(GeneratorKind::kRecency, 1, 28), kRecencySeed1);
  EXPECT_EQ(reference::recency(1, 28), kRecencySeed1);
}

TEST(Generator, UniformGoldenSeedOne) {
  EXPECT_EQ(draw(GeneratorKind::kUniform, 1, 28), kUniformSeed1);
  EXPECT_EQ(reference::uniform(1, 28), kUniformSeed1);
}

TEST(Generator, MatchesTheDocumentedAlgorithmsForOtherSeeds) {
  for (std::uint64_t seed : {0ull, 2ull, 99ull, 0xDEADBEEFull}) {
    EXPECT_EQ(draw(GeneratorKind::kBag7, seed, 700), reference::bag7(seed, 700)) << seed;
    EXPECT_EQ(draw(GeneratorKind::kRecency, seed, 700), reference::recency(seed, 700)) << seed;
    EXPECT_EQ(draw(GeneratorKind::kUniform, seed, 700), reference::uniform(seed, 700)) << seed;
  }
}

TEST(Generator, EveryAlignedGroupOfSevenIsAPermutation) {
  for (std::uint64_t seed : {1ull, 2ull, 3ull}) {
    const std::string s = draw(GeneratorKind::kBag7, seed, 10'003);
    for (std::size_t i = 0; i + 7 <= s.size(); i += 7) {
      const std::set<char> bag(s.begin() + static_cast<long>(i), s.begin() + static_cast<long>(i) + 7);
      ASSERT_EQ(bag, (std::set<char>{'I', 'J', 'L', 'O', 'S', 'T', 'Z'})) << "seed " << seed << " bag at " << i;
    }
  }
}

TEST(Generator, RecencyAvoidsLongDroughts) {
  const std::string s = draw(GeneratorKind::kRecency, 5, 10'000);
  for (char p : std::string("IJLOSTZ")) {
    std::size_t last = 0, longest = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] != p) continue;
      longest = std::max(longest, i - last);
      last = i;
    }
    EXPECT_LT(longest, 40u) << p;
  }
}

TEST(Generator, FixedRepeatsTheSequence) {
  EXPECT_EQ(draw(GeneratorKind::kFixed, 1, 10, test::sequence("TIO")), "TIOTIOTIOT");
  EXPECT_EQ(draw(GeneratorKind::kFixed, 99, 3, test::sequence("Z")), "ZZZ") << "the seed does not matter";
}

TEST(Generator, DifferentSeedsGiveDifferentSequences) {
  EXPECT_NE(draw(GeneratorKind::kBag7, 1, 28), draw(GeneratorKind::kBag7, 2, 28));
  EXPECT_NE(draw(GeneratorKind::kUniform, 1, 28), draw(GeneratorKind::kUniform, 2, 28));
}

TEST(Generator, GameQueueFollowsTheGenerator) {
  // The game fills its queue from the generator: the first 28 spawned pieces of a bag game with seed 1.
  GameConfig c = make_endless();
  c.preview = 7;
  test::Driver d(c, 1);
  std::string spawned;
  for (int i = 0; i < 28 && !d.game().over(); ++i) {
    spawned += piece_letter(d.game().active() ? d.piece().piece : d.game().preview()[0]);
    (void)d.drop_at("", (i % 3) * 3);
    if (!d.game().active()) break;
  }
  ASSERT_GE(spawned.size(), 10u);
  EXPECT_EQ(spawned, std::string(kBag7Seed1).substr(0, spawned.size()));
}

}  // namespace
}  // namespace sr::engine
