// What the render thread knows of the window is what the main thread's events said, applied in order: sizes,
// focus, minimising, fullscreen, DPI scale, refresh rate, the cursor, and a close request.
#include "client/platform/window_state.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

InputEvent xy(InputType type, double x, double y) {
  InputEvent e;
  e.type = type;
  e.x = x;
  e.y = y;
  return e;
}

InputEvent on(InputType type, bool value) {
  InputEvent e;
  e.type = type;
  e.on = value;
  return e;
}

TEST(WindowState, FollowsTheEventsInOrder) {
  WindowState s;
  EXPECT_FALSE(s.focused);
  EXPECT_FALSE(s.cursor_known);
  for (const InputEvent& e :
       {xy(InputType::kWindowSize, 1280, 720), xy(InputType::kFramebufferSize, 2560, 1440),
        xy(InputType::kContentScale, 2, 0), xy(InputType::kRefreshRate, 144, 0), on(InputType::kFocus, true),
        on(InputType::kCursorEnter, true), xy(InputType::kCursorPos, 10.5, 20.25), on(InputType::kFullscreen, true),
        xy(InputType::kWindowSize, 1920, 1080), on(InputType::kIconify, true), on(InputType::kFocus, false)}) {
    s.apply(e);
  }
  EXPECT_EQ(s.width, 1920);
  EXPECT_EQ(s.height, 1080);
  EXPECT_EQ(s.fb_width, 2560);
  EXPECT_EQ(s.fb_height, 1440);
  EXPECT_FLOAT_EQ(s.content_scale, 2.0f);
  EXPECT_DOUBLE_EQ(s.refresh_hz, 144);
  EXPECT_FALSE(s.focused);
  EXPECT_TRUE(s.iconified);
  EXPECT_TRUE(s.fullscreen);
  EXPECT_TRUE(s.cursor_inside);
  EXPECT_TRUE(s.cursor_known);
  EXPECT_DOUBLE_EQ(s.cursor_x, 10.5);
  EXPECT_DOUBLE_EQ(s.cursor_y, 20.25);
  EXPECT_FALSE(s.close_requested);
}

TEST(WindowState, NonsenseScaleAndRateFallBackAndCloseSticks) {
  WindowState s;
  s.apply(xy(InputType::kContentScale, 0, 0));
  EXPECT_FLOAT_EQ(s.content_scale, 1.0f);
  s.apply(xy(InputType::kRefreshRate, -60, 0));
  EXPECT_DOUBLE_EQ(s.refresh_hz, 0);
  InputEvent close;
  close.type = InputType::kClose;
  s.apply(close);
  s.apply(on(InputType::kFocus, true));
  EXPECT_TRUE(s.close_requested);
  InputEvent key;  // keys and text change no window state
  key.type = InputType::kKey;
  key.key = 65;
  const WindowState before = s;
  s.apply(key);
  EXPECT_EQ(s.focused, before.focused);
  EXPECT_EQ(s.width, before.width);
}

}  // namespace
}  // namespace sr::client
