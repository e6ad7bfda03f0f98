#include "client/app/screen_view.h"

#include <algorithm>

namespace sr::client {

const std::vector<BoardLayout>& ScreenView::layouts() const {
  static const std::vector<BoardLayout> kNone;  // a menu: no boards
  return kNone;
}

void grid_layouts(std::vector<BoardLayout>& out, int n, float x, float y, float w, float h) {
  int best_cols = 1;
  float best_cell = 0;
  for (int cols = 1; cols <= n; ++cols) {
    const int rows = (n + cols - 1) / cols;
    const float cell = std::min(w / static_cast<float>(cols) / BoardLayout::kWidthCells,
                                h / static_cast<float>(rows) / BoardLayout::kHeightCells);
    if (cell > best_cell) {
      best_cell = cell;
      best_cols = cols;
    }
  }
  const int rows = (n + best_cols - 1) / best_cols;
  const float tw = w / static_cast<float>(best_cols), th = h / static_cast<float>(rows);
  for (int i = 0; i < n; ++i) {
    out.push_back(
        fit_board(x + static_cast<float>(i % best_cols) * tw, y + static_cast<float>(i / best_cols) * th, tw, th));
  }
}

}  // namespace sr::client
