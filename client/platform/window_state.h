// What the render thread knows of the window: the state its events brought (sizes, focus, scale, the cursor, a
// close request). The render thread may not ask GLFW (client/README.md, "Threads"), so Window::take_events applies
// every event taken to one of these. Pure: unit tested.
#pragma once

#include "client/platform/input_queue.h"

namespace sr::client {

struct WindowState {
  bool focused = false;
  bool iconified = false;
  bool fullscreen = false;
  bool close_requested = false;
  bool cursor_inside = false;
  bool cursor_known = false;        // a position arrived
  int width = 0, height = 0;        // screen coordinates
  int fb_width = 0, fb_height = 0;  // pixels
  float content_scale = 1;
  double refresh_hz = 0;
  double cursor_x = 0, cursor_y = 0;

  void apply(const InputEvent& e);
};

}  // namespace sr::client
