// Reads the ".layout" file the game writes beside a screenshot: one line per board,
// "board INDEX MATRIX_X MATRIX_Y CELL [GAME_TIME_US PIECES NAME]" (the race screen adds what each board shows).
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sr::test {

struct LayoutBoard {
  int index = -1;
  double matrix_x = 0, matrix_y = 0, cell = 0;  // framebuffer pixels; matrix_x/y: top-left of visible row 19
  bool has_note = false;
  std::int64_t time_us = 0;
  std::int64_t pieces = 0;
  std::string name;

  // The pixel at the centre of matrix cell (x, y), y up from the floor.
  [[nodiscard]] int px(int x) const { return static_cast<int>(matrix_x + (x + 0.5) * cell); }
  [[nodiscard]] int py(int y) const { return static_cast<int>(matrix_y + (19 - y + 0.5) * cell); }
};

inline std::vector<LayoutBoard> read_layout(const std::string& png) {
  std::vector<LayoutBoard> out;
  std::ifstream in(png + ".layout");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word;
    LayoutBoard b;
    if (!(words >> word >> b.index >> b.matrix_x >> b.matrix_y >> b.cell) || word != "board") break;
    if (words >> b.time_us >> b.pieces) {
      b.has_note = true;
      std::getline(words >> std::ws, b.name);
    }
    out.push_back(b);
  }
  return out;
}

}  // namespace sr::test
