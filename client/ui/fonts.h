// The fonts the screens use: DejaVu Sans when installed (crisp at any size), ImGui's built-in font otherwise.
#pragma once

struct ImFont;

namespace sr::client {

struct Fonts {
  ImFont* body = nullptr;   // menus and HUD
  ImFont* big = nullptr;    // countdown, results headline, clear names
  float body_px = 18.0f;
  float big_px = 64.0f;
};

// Loads the fonts into ImGui's atlas at `scale` (the monitor's content scale). Call before the first frame.
[[nodiscard]] Fonts load_fonts(float scale);

}  // namespace sr::client
