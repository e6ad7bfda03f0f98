// Compares a board drawn in a screenshot with the replay's board at the game time the screenshot's layout says it
// shows: every locked cell in its piece's guideline colour, every empty cell dark. Shared by the window checks that
// look at race boards (the spectator's, the host's results).
#pragma once

#include <stb/stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "common/engine/pieces.h"
#include "common/replay/simulate.h"
#include "tests/client/window/check_support.h"
#include "tests/client/window/layout_file.h"

namespace sr::test {

struct Image {
  int w = 0, h = 0;
  unsigned char* pixels = nullptr;
  explicit Image(const std::string& path) {
    int n = 0;
    pixels = stbi_load(path.c_str(), &w, &h, &n, 3);
  }
  ~Image() { stbi_image_free(pixels); }
  Image(const Image&) = delete;
  Image& operator=(const Image&) = delete;
  [[nodiscard]] const unsigned char* at(int x, int y) const {
    return pixels + (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) * 3;
  }
};

// How a board was drawn: `dimmed` when its racer's game has ended (client/render/board_renderer.cpp lays black at
// alpha 150 over the matrix, so every colour is 105/255 of itself); `banner` when the end-of-game banner
// (client/ui/hud.cpp, draw_banner) covers the matrix from 4.6 to 7.85 cells below its top: those cells are skipped.
struct BoardDrawing {
  bool dimmed = false;
  bool banner = false;
};

struct BoardCounts {
  int checked = 0;
  int locked = 0;
};

// The drawn board `b` equals the replay's board of the racer named in the layout's note, at the note's game time,
// with the same number of pieces. Each difference is a failure naming the cell; returns what was compared.
inline BoardCounts check_board(const Image& img, const LayoutBoard& b, const replay::Replay& replay,
                               const std::string& what, BoardDrawing drawing = {}) {
  BoardCounts counts;
  if (!b.has_note) {
    fail(what + ": the layout does not say what the board shows");
    return counts;
  }
  std::size_t racer = replay.racers.size();
  for (std::size_t i = 0; i < replay.racers.size(); ++i) {
    if (replay.racers[i].name == b.name) racer = i;
  }
  if (racer == replay.racers.size()) {
    fail(what + ": no racer named '" + b.name + "' in the replay");
    return counts;
  }
  auto game = replay::game_at(replay, racer, replay::ViewPoint{replay::ViewPoint::Kind::kTime, b.time_us});
  if (!game) {
    fail(what + ": " + game.error().describe());
    return counts;
  }
  const auto& g = game.value();
  std::printf("%s: %s at %.3f s, %lld pieces (replay: %lld)\n", what.c_str(), b.name.c_str(),
              static_cast<double>(b.time_us) / 1e6, static_cast<long long>(b.pieces),
              static_cast<long long>(g.stats().pieces));
  if (g.stats().pieces != b.pieces) fail(what + ": the board's piece count differs from the replay at that time");
  // Cells the falling piece or its ghost cover are not the matrix's: skip them.
  std::vector<std::pair<int, int>> skip;
  if (const auto active = g.active()) {
    for (const auto& c : engine::piece_cells(active->piece, active->rotation)) {
      skip.emplace_back(active->x + c.x, active->y + c.y);
      skip.emplace_back(active->x + c.x, g.ghost_y() + c.y);
    }
  }
  const auto dim = [&](int v) { return drawing.dimmed ? v * 105 / 255 : v; };
  for (int y = 0; y < 20; ++y) {
    const double below_top = 19 - y + 0.5;  // the cell's centre, in cells below the matrix's top
    if (drawing.banner && below_top > 4.6 && below_top < 7.85) continue;
    for (int x = 0; x < 10; ++x) {
      if (std::find(skip.begin(), skip.end(), std::make_pair(x, y)) != skip.end()) continue;
      const int px = b.px(x), py = b.py(y);
      if (px < 0 || py < 0 || px >= img.w || py >= img.h) {
        fail(what + ": cell outside the screenshot");
        continue;
      }
      const unsigned char* p = img.at(px, py);
      const engine::Piece want = g.matrix().at(x, y);
      char where[128];
      std::snprintf(where, sizeof where, "%s: cell (%d,%d) at (%d,%d) is rgb(%d,%d,%d)", what.c_str(), x, y, px, py,
                    p[0], p[1], p[2]);
      if (want == engine::Piece::kNone) {
        if (std::max({p[0], p[1], p[2]}) > dim(100)) fail(std::string(where) + ", expected empty (dark)");
      } else {
        ++counts.locked;
        const Rgb c = guideline_colour(want);
        if (std::abs(p[0] - dim(c.r)) > 30 || std::abs(p[1] - dim(c.g)) > 30 || std::abs(p[2] - dim(c.b)) > 30) {
          fail(std::string(where) + ", expected " + engine::piece_letter(want));
        }
      }
      ++counts.checked;
    }
  }
  std::printf("%s: %d cells checked, %d locked\n", what.c_str(), counts.checked, counts.locked);
  return counts;
}

}  // namespace sr::test
