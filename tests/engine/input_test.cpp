#include "common/engine/input.h"

#include <gtest/gtest.h>

namespace sr::engine {
namespace {

TEST(StampOnGrid, ATimeOnTheGridIsKept) {
  EXPECT_EQ(stamp_on_grid(0), 0);
  EXPECT_EQ(stamp_on_grid(1000), 1000);
  EXPECT_EQ(stamp_on_grid(-1000), -1000);
  EXPECT_EQ(stamp_on_grid(3'600'000'000), 3'600'000'000);  // an hour
}

TEST(StampOnGrid, RoundsDownNeverUp) {
  EXPECT_EQ(stamp_on_grid(1), 0);
  EXPECT_EQ(stamp_on_grid(999), 0);  // 0.999 ms: still the first millisecond
  EXPECT_EQ(stamp_on_grid(1001), 1000);
  EXPECT_EQ(stamp_on_grid(1999), 1000);
  EXPECT_EQ(stamp_on_grid(2000), 2000);
  EXPECT_EQ(stamp_on_grid(2'345'678), 2'345'000);
}

TEST(StampOnGrid, NegativeTimesRoundDownToo) {
  // Before the start (a key held through the countdown): floor, not truncation toward 0.
  EXPECT_EQ(stamp_on_grid(-1), -1000);
  EXPECT_EQ(stamp_on_grid(-999), -1000);
  EXPECT_EQ(stamp_on_grid(-1001), -2000);
  EXPECT_EQ(stamp_on_grid(-500'000), -500'000);
}

TEST(StampOnGrid, NeverLaterThanTheChangeAndLessThanAGridStepEarlier) {
  for (TimeUs t = -5000; t <= 5000; t += 7) {
    const TimeUs s = stamp_on_grid(t);
    EXPECT_LE(s, t);
    EXPECT_GT(s, t - kInputGridUs);
    EXPECT_EQ(s % kInputGridUs, 0);
  }
}

static_assert(stamp_on_grid(1999) == 1000, "usable in constant expressions");

}  // namespace
}  // namespace sr::engine
