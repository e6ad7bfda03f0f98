// The gamepad on the render thread: each queued snapshot of what the pad holds becomes the changes of single
// inputs since the last one (which the game gets at the snapshot's stamp), and a press counts for the menus until
// the next frame begins, even when released within the frame.
#include "client/platform/pad_state.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

constexpr std::uint32_t bit(int input) { return std::uint32_t{1} << input; }

TEST(Gamepads, SnapshotsBecomeChangesOfSingleInputs) {
  Gamepads pads;
  EXPECT_FALSE(pads.connected());
  EXPECT_TRUE(pads.update(0, true).empty());
  EXPECT_TRUE(pads.connected());
  auto changes = pads.update(bit(0) | bit(kPadStickLeft), true);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].input, 0);
  EXPECT_TRUE(changes[0].down);
  EXPECT_EQ(changes[1].input, kPadStickLeft);
  EXPECT_TRUE(changes[1].down);
  EXPECT_TRUE(pads.down(kPadStickLeft));
  changes = pads.update(bit(kPadStickLeft), true);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].input, 0);
  EXPECT_FALSE(changes[0].down);
  // Unplugged: everything held is released.
  changes = pads.update(bit(3), false);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].input, kPadStickLeft);
  EXPECT_FALSE(changes[0].down);
  EXPECT_FALSE(pads.connected());
  EXPECT_FALSE(pads.down(3));
  EXPECT_FALSE(pads.down(-1));
  EXPECT_FALSE(pads.down(kPadInputCount));
}

TEST(Gamepads, APressCountsUntilTheNextFrameEvenWhenReleased) {
  Gamepads pads;
  pads.new_frame();
  (void)pads.update(bit(1), true);
  (void)pads.update(0, true);  // a tap between two frames
  EXPECT_TRUE(pads.pressed(1));
  EXPECT_FALSE(pads.down(1));
  pads.new_frame();
  EXPECT_FALSE(pads.pressed(1));
  (void)pads.update(bit(2), true);
  pads.new_frame();
  (void)pads.update(bit(2), true);  // still held: no new press
  EXPECT_FALSE(pads.pressed(2));
  EXPECT_TRUE(pads.down(2));
}

}  // namespace
}  // namespace sr::client
