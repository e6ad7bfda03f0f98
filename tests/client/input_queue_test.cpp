// The window's events from the main thread to the render thread: each is stamped by the clock when it is pushed
// (in the GLFW callback, whatever the render thread is doing), taken in order, and a key (or a pad change) ends the
// render thread's wait between frames at once, as does other input it has not seen yet.
#include "client/platform/input_queue.h"

#include <gtest/gtest.h>

#include <thread>

namespace sr::client {
namespace {

InputEvent key(int code, int action) {
  InputEvent e;
  e.type = InputType::kKey;
  e.key = code;
  e.action = action;
  return e;
}

InputEvent of_type(InputType type) {
  InputEvent e;
  e.type = type;
  return e;
}

struct FakeClock {
  double now_s = 0;
  InputQueue::Clock clock() {
    return [this] { return now_s; };
  }
};

TEST(InputQueue, StampsEachEventWhenPushedAndHandsThemOverInOrder) {
  FakeClock clock;
  InputQueue queue(clock.clock());
  clock.now_s = 10.0001;
  queue.push(key(263, 1));  // press, at 10.0001 s
  clock.now_s = 10.0125;
  InputEvent text = of_type(InputType::kChar);
  text.codepoint = 'z';
  queue.push(text);
  clock.now_s = 10.0400;
  InputEvent stamped_early = key(263, 0);
  stamped_early.time_s = 3.0;  // the caller's time is not kept: the queue stamps
  queue.push(stamped_early);
  clock.now_s = 99;  // taking later changes no stamp

  const auto events = queue.take();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].type, InputType::kKey);
  EXPECT_EQ(events[0].key, 263);
  EXPECT_EQ(events[0].action, 1);
  EXPECT_DOUBLE_EQ(events[0].time_s, 10.0001);
  EXPECT_EQ(events[1].type, InputType::kChar);
  EXPECT_EQ(events[1].codepoint, unsigned{'z'});
  EXPECT_DOUBLE_EQ(events[1].time_s, 10.0125);
  EXPECT_EQ(events[2].action, 0);
  EXPECT_DOUBLE_EQ(events[2].time_s, 10.04);
  const KeyEvent k = key_event_of(events[2]);
  EXPECT_EQ(k.key, 263);
  EXPECT_EQ(k.action, 0);
  EXPECT_DOUBLE_EQ(k.time_s, 10.04);
  EXPECT_TRUE(queue.take().empty());
}

TEST(InputQueue, KeysAndPadChangesAreKeysOtherInputIsOnlySeen) {
  FakeClock clock;
  InputQueue queue(clock.clock());
  EXPECT_FALSE(queue.has_keys());
  EXPECT_FALSE(queue.take_input_seen());
  queue.push(of_type(InputType::kCursorPos));
  EXPECT_FALSE(queue.has_keys());
  EXPECT_TRUE(queue.take_input_seen());
  EXPECT_FALSE(queue.take_input_seen());  // once
  queue.push(of_type(InputType::kPads));
  EXPECT_TRUE(queue.has_keys());
  (void)queue.take();
  EXPECT_FALSE(queue.has_keys());
  queue.push(key(32, 1));
  EXPECT_TRUE(queue.has_keys());
  EXPECT_EQ(queue.take().size(), 1u);
  EXPECT_FALSE(queue.has_keys());
}

TEST(InputQueue, AWaitEndsAtTheDeadlineOrAtOnceForAKeyOrUnseenInput) {
  FakeClock clock;
  InputQueue queue(clock.clock());
  clock.now_s = 5;
  queue.wait_until(4.5);  // already passed: returns (a wrong deadline would hang the test)
  queue.push(key(32, 1));
  (void)queue.take_input_seen();
  queue.wait_until(1e9);  // a key waits: returns
  (void)queue.take();
  queue.push(of_type(InputType::kScroll));
  queue.wait_until(1e9);  // input not seen yet: returns
}

TEST(InputQueue, APushFromAnotherThreadEndsAWait) {
  FakeClock clock;
  InputQueue queue(clock.clock());
  std::thread waiter([&] { queue.wait_until(1e9); });
  queue.push(key(65, 1));  // before or during the wait: either way it returns
  waiter.join();
  EXPECT_EQ(queue.take().size(), 1u);
}

TEST(InputQueue, WakeEndsAWaitWithoutAnEvent) {
  FakeClock clock;
  InputQueue queue(clock.clock());
  std::thread waiter([&] { queue.wait_until(1e9); });
  queue.wake();
  waiter.join();
  EXPECT_TRUE(queue.take().empty());
}

}  // namespace
}  // namespace sr::client
