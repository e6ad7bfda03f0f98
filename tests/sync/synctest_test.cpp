#include "tests/sync/synctest.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace sr::synctest {
namespace {

// Plans come from our own generator, so a seed names the same game on every machine and standard library.
TEST(SyncTest, APlanIsAFunctionOfItsSeed) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFull);  // SplitMix64's published first output for seed 0
  EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ull);

  const SyncPlan a = make_plan(42);
  const SyncPlan b = make_plan(42);
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.engine_seed, b.engine_seed);
  EXPECT_EQ(a.presses, b.presses);
  EXPECT_EQ(a.frames, b.frames);
  EXPECT_NE(make_plan(43).frames, a.frames);
  EXPECT_TRUE(engine::check_config(a.config));
}

}  // namespace
}  // namespace sr::synctest
