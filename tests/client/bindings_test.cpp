#include "client/input/bindings.h"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include "client/input/key_names.h"

namespace sr::client {
namespace {

namespace button = engine::button;

TEST(Bindings, DefaultsFollowThePopularOnlineGames) {
  const Bindings b = Bindings::defaults();
  auto buttons_for = [&](int key) {
    HeldInputs one;
    one.set_key(key, true);
    return one.buttons(b);
  };
  EXPECT_EQ(buttons_for(GLFW_KEY_LEFT), button::kMoveLeft);
  EXPECT_EQ(buttons_for(GLFW_KEY_RIGHT), button::kMoveRight);
  EXPECT_EQ(buttons_for(GLFW_KEY_DOWN), button::kSoftDrop);
  EXPECT_EQ(buttons_for(GLFW_KEY_SPACE), button::kHardDrop);
  EXPECT_EQ(buttons_for(GLFW_KEY_UP), button::kRotateCw);
  EXPECT_EQ(buttons_for(GLFW_KEY_X), button::kRotateCw);
  EXPECT_EQ(buttons_for(GLFW_KEY_Z), button::kRotateCcw);
  EXPECT_EQ(buttons_for(GLFW_KEY_LEFT_CONTROL), button::kRotateCcw);
  EXPECT_EQ(buttons_for(GLFW_KEY_A), button::kRotate180);
  EXPECT_EQ(buttons_for(GLFW_KEY_C), button::kHold);
  EXPECT_EQ(buttons_for(GLFW_KEY_LEFT_SHIFT), button::kHold);
  EXPECT_EQ(buttons_for(GLFW_KEY_R), 0);  // restart is not an engine button
  EXPECT_EQ(b.keys_for(Action::kRestart), std::vector<int>{GLFW_KEY_R});
  EXPECT_EQ(buttons_for(GLFW_KEY_Q), 0);
}

TEST(HeldInputs, AButtonStaysDownWhileAnyOfItsKeysIs) {
  const Bindings b = Bindings::defaults();
  HeldInputs h;
  h.set_key(GLFW_KEY_UP, true);
  h.set_key(GLFW_KEY_X, true);
  EXPECT_EQ(h.buttons(b), button::kRotateCw);
  h.set_key(GLFW_KEY_UP, false);
  EXPECT_EQ(h.buttons(b), button::kRotateCw);
  h.set_key(GLFW_KEY_X, false);
  EXPECT_EQ(h.buttons(b), 0);
}

TEST(HeldInputs, KeyboardAndPadCombine) {
  const Bindings b = Bindings::defaults();
  HeldInputs h;
  h.set_key(GLFW_KEY_LEFT, true);
  h.set_pad(GLFW_GAMEPAD_BUTTON_B, true);
  h.set_pad(kPadStickDown, true);
  EXPECT_EQ(h.buttons(b), button::kMoveLeft | button::kRotateCw | button::kSoftDrop);
  h.release_all();
  EXPECT_EQ(h.buttons(b), 0);
}

TEST(HeldInputs, IgnoresUnknownKeyCodes) {
  HeldInputs h;
  EXPECT_FALSE(h.set_key(-1, true));  // GLFW_KEY_UNKNOWN
  EXPECT_FALSE(h.set_key(kKeyCodeLimit, true));
  EXPECT_EQ(h.buttons(Bindings::defaults()), 0);
}

TEST(Bindings, SeveralKeysPerActionWithoutDuplicates) {
  Bindings b = Bindings::defaults();
  b.bind_key(Action::kHardDrop, GLFW_KEY_W);
  b.bind_key(Action::kHardDrop, GLFW_KEY_W);
  EXPECT_EQ(b.keys_for(Action::kHardDrop), (std::vector<int>{GLFW_KEY_SPACE, GLFW_KEY_W}));
  b.clear(Action::kHardDrop);
  EXPECT_TRUE(b.keys_for(Action::kHardDrop).empty());
  EXPECT_TRUE(b.pad_for(Action::kHardDrop).empty());
}

TEST(Bindings, DeleteTakesAwayOneBindingAtATime) {
  Bindings b = Bindings::defaults();  // hold: C, Left Shift, Right Shift; pad LB, RB
  b.bind_key(Action::kHold, GLFW_KEY_Z);
  ASSERT_TRUE(b.unbind_last(Action::kHold));  // the key just bound goes first
  EXPECT_EQ(b.keys_for(Action::kHold), (std::vector<int>{GLFW_KEY_C, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT}));
  EXPECT_EQ(b.pad_for(Action::kHold),
            (std::vector<int>{GLFW_GAMEPAD_BUTTON_LEFT_BUMPER, GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER}));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(b.unbind_last(Action::kHold));
  EXPECT_TRUE(b.keys_for(Action::kHold).empty());
  EXPECT_EQ(b.pad_for(Action::kHold).size(), 2u) << "then the pad's";
  ASSERT_TRUE(b.unbind_last(Action::kHold));
  EXPECT_EQ(b.pad_for(Action::kHold), (std::vector<int>{GLFW_GAMEPAD_BUTTON_LEFT_BUMPER}));
  ASSERT_TRUE(b.unbind_last(Action::kHold));
  EXPECT_FALSE(b.unbind_last(Action::kHold));
  EXPECT_EQ(b.keys_for(Action::kHardDrop), (std::vector<int>{GLFW_KEY_SPACE})) << "other actions keep theirs";
}

TEST(Bindings, AKeyBoundTwiceIsAConflict) {
  Bindings b = Bindings::defaults();
  EXPECT_TRUE(binding_conflicts(b).empty()) << "the defaults have none";
  b.bind_key(Action::kHold, GLFW_KEY_Z);  // Z already rotates counter-clockwise
  b.bind_pad(Action::kRestart, GLFW_GAMEPAD_BUTTON_A);
  EXPECT_EQ(b.others_using(GLFW_KEY_Z, false, Action::kHold), std::vector<Action>{Action::kRotateCcw});
  EXPECT_TRUE(b.others_using(GLFW_KEY_C, false, Action::kHold).empty());
  EXPECT_EQ(binding_conflicts(b),
            (std::vector<BindingConflict>{{false, GLFW_KEY_Z, {Action::kRotateCcw, Action::kHold}},
                                          {true, GLFW_GAMEPAD_BUTTON_A, {Action::kRotateCcw, Action::kRestart}}}));
}

TEST(KeyNames, RoundTripEveryNamedKey) {
  for (int key = 0; key < kKeyCodeLimit; ++key) {
    const std::string name = key_name(key);
    if (name.empty()) continue;
    EXPECT_EQ(key_from_name(name), key) << name;
  }
  EXPECT_EQ(key_name(GLFW_KEY_LEFT_SHIFT), "Left Shift");
  EXPECT_EQ(key_name(GLFW_KEY_F12), "F12");
  EXPECT_EQ(key_from_name("x"), GLFW_KEY_X);
  EXPECT_EQ(key_from_name("F26"), std::nullopt);
  EXPECT_EQ(key_from_name("Hyper"), std::nullopt);
}

TEST(KeyNames, RoundTripEveryPadInput) {
  for (int p = 0; p < kPadInputCount; ++p) EXPECT_EQ(pad_from_name(pad_name(p)), p);
  EXPECT_EQ(pad_name(kPadInputCount), "");
}

TEST(Actions, IdsRoundTrip) {
  for (Action a : kAllActions) EXPECT_EQ(action_from_id(action_id(a)), a);
  EXPECT_EQ(action_from_id("jump"), std::nullopt);
}

}  // namespace
}  // namespace sr::client
