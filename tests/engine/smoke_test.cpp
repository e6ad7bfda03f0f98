#include <gtest/gtest.h>

#include "common/engine/game.h"

namespace sr::engine {
namespace {

TEST(Smoke, HardDropsLockPieces) {
  Game g(make_sprint(), 1);
  TimeUs t = 0;
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(g.update(t, button::kHardDrop).error, UpdateError::kOk);
    t += 10000;
    ASSERT_EQ(g.update(t, Buttons{0}).error, UpdateError::kOk);
    t += 10000;
  }
  EXPECT_EQ(g.stats().pieces, 5);
}

}  // namespace
}  // namespace sr::engine
