#include "client/platform/window_state.h"

namespace sr::client {

void WindowState::apply(const InputEvent& e) {
  switch (e.type) {
    case InputType::kCursorPos:
      cursor_x = e.x;
      cursor_y = e.y;
      cursor_known = true;
      break;
    case InputType::kCursorEnter: cursor_inside = e.on; break;
    case InputType::kFocus: focused = e.on; break;
    case InputType::kIconify: iconified = e.on; break;
    case InputType::kWindowSize:
      width = static_cast<int>(e.x);
      height = static_cast<int>(e.y);
      break;
    case InputType::kFramebufferSize:
      fb_width = static_cast<int>(e.x);
      fb_height = static_cast<int>(e.y);
      break;
    case InputType::kContentScale: content_scale = e.x > 0 ? static_cast<float>(e.x) : 1.0f; break;
    case InputType::kRefreshRate: refresh_hz = e.x > 0 ? e.x : 0; break;
    case InputType::kFullscreen: fullscreen = e.on; break;
    case InputType::kClose: close_requested = true; break;
    default: break;
  }
}

}  // namespace sr::client
