#include "server/race_seeds.h"

#include <gtest/gtest.h>

namespace sr::server {
namespace {

// --race-seeds 5: races get 5, 6, 7, ... in the order they start (tests/load/load_test.sh records those games).
TEST(RaceSeeds, KnownSeedsCountUpFromTheFirst) {
  RaceSeeds seeds(5);
  EXPECT_EQ(seeds.next(), 5u);
  EXPECT_EQ(seeds.next(), 6u);
  EXPECT_EQ(seeds.next(), 7u);
}

// 0 (the default): random seeds, a different sequence on every server.
TEST(RaceSeeds, ZeroGivesRandomSeedsThatDifferBetweenServers) {
  RaceSeeds a, b;
  const std::uint64_t a1 = a.next(), a2 = a.next();
  EXPECT_NE(a1, a2);
  EXPECT_NE(a1 + 1, a2);  // not counting up
  EXPECT_NE(a1, b.next());
}

}  // namespace
}  // namespace sr::server
