#include "client/render/screenshot.h"

#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>

namespace sr::client {

sr::Status<std::string> write_screenshot(const std::filesystem::path& path, int fb_w, int fb_h) {
  if (fb_w <= 0 || fb_h <= 0) return "empty framebuffer";
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(fb_w) * static_cast<std::size_t>(fb_h) * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, fb_w, fb_h, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  // GL rows go bottom-up; PNG rows top-down.
  const std::size_t stride = static_cast<std::size_t>(fb_w) * 3;
  std::vector<std::uint8_t> flipped(pixels.size());
  for (int y = 0; y < fb_h; ++y) {
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(y) * stride), stride,
                flipped.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(fb_h - 1 - y) * stride));
  }
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (!stbi_write_png(path.string().c_str(), fb_w, fb_h, 3, flipped.data(), static_cast<int>(stride))) {
    return "cannot write " + path.string();
  }
  return {};
}

sr::Status<std::string> write_layout(const std::filesystem::path& path, const std::vector<BoardLayout>& boards,
                                     float framebuffer_scale, const std::vector<std::string>& notes) {
  std::ofstream out(path.string() + ".layout", std::ios::trunc);
  for (std::size_t i = 0; i < boards.size(); ++i) {
    char line[128];
    std::snprintf(line, sizeof line, "board %zu %.2f %.2f %.3f", i, boards[i].matrix_x() * framebuffer_scale,
                  boards[i].matrix_y() * framebuffer_scale, boards[i].cell * framebuffer_scale);
    out << line;
    if (i < notes.size()) out << ' ' << notes[i];
    out << '\n';
  }
  if (!out) return "cannot write " + path.string() + ".layout";
  return {};
}

}  // namespace sr::client
