// The fonts the screens use: DejaVu Sans when installed (crisp at any size), ImGui's built-in font otherwise.
#pragma once

struct ImFont;

namespace sr::client {

struct Fonts {
  ImFont* body = nullptr;  // menus and HUD
  ImFont* big = nullptr;   // countdown, results headline, clear names
  float body_px = 36.0f;   // rasterised size; menus show it at ui_scale(), HUD text at sizes that follow the board
  float big_px = 64.0f;
  static constexpr float kMenuPx = 18.0f;  // menu text height at a 720-pixel-high window on a standard display
};

// Loads the fonts into ImGui's atlas at `scale` (the monitor's content scale). Call before the first frame.
[[nodiscard]] Fonts load_fonts(float scale);

// Sets ImGui's global font scale so menu text follows the window's height (and the DPI the fonts were loaded at):
// 18 px per 720 px of height, between 0.75x and 2x of that.
void scale_menus_to_window(const Fonts& fonts, float dpi_scale, float window_h);

}  // namespace sr::client
