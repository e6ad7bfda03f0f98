#include "client/ui/fonts.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

namespace sr::client {
namespace {

constexpr const char* kFontPaths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
};
constexpr const char* kBoldPaths[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
};

const char* first_existing(const char* const* paths, int n) {
  std::error_code ec;
  for (int i = 0; i < n; ++i) {
    if (std::filesystem::exists(paths[i], ec)) return paths[i];
  }
  return nullptr;
}

}  // namespace

Fonts load_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  Fonts f;
  f.body_px = 36.0f * scale;
  f.big_px = 64.0f * scale;
  const char* regular = first_existing(kFontPaths, 2);
  const char* bold = first_existing(kBoldPaths, 2);
  if (regular != nullptr) f.body = io.Fonts->AddFontFromFileTTF(regular, f.body_px);
  if (f.body == nullptr) {
    ImFontConfig config;
    config.SizePixels = 26.0f * scale;
    f.body = io.Fonts->AddFontDefault(&config);
    f.body_px = config.SizePixels;
  }
  if (bold != nullptr) f.big = io.Fonts->AddFontFromFileTTF(bold, f.big_px);
  if (f.big == nullptr) {
    f.big = f.body;
    f.big_px = f.body_px;
  }
  return f;
}

void scale_menus_to_window(const Fonts& fonts, float dpi_scale, float window_h) {
  const float by_window = std::clamp(window_h / (720.0f * dpi_scale), 0.75f, 2.0f);
  ImGui::GetIO().FontGlobalScale = by_window * Fonts::kMenuPx * dpi_scale / fonts.body_px;
}

}  // namespace sr::client
