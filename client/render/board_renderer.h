// Draws one board (matrix, locked cells, active piece, ghost, hold, next queue, skyline, grid, feedback effects)
// into the QuadBatch. Reads the game; changes nothing.
#pragma once

#include "client/render/quad_batch.h"
#include "client/settings/settings.h"
#include "client/solo/feedback.h"
#include "common/engine/game.h"

namespace sr::client {

// Where a board sits in the window. The board area is 21 cells wide (hold panel, matrix, next panel) and
// 24 cells high (two rows above the skyline, twenty visible rows, the name line below).
struct BoardLayout {
  float x = 0, y = 0;  // top-left of the board area
  float cell = 0;      // cell size in window coordinates
  static constexpr float kWidthCells = 21.0f;
  static constexpr float kHeightCells = 24.0f;
  static constexpr float kMatrixLeftCells = 5.5f;  // hold panel and gap
  static constexpr float kMatrixTopCells = 2.5f;   // rows 20-21 and a margin

  [[nodiscard]] float width() const { return kWidthCells * cell; }
  [[nodiscard]] float height() const { return kHeightCells * cell; }
  [[nodiscard]] float matrix_x() const { return x + kMatrixLeftCells * cell; }
  [[nodiscard]] float matrix_y() const { return y + kMatrixTopCells * cell; }  // top of row 19
  [[nodiscard]] float matrix_bottom() const { return matrix_y() + engine::kVisibleRows * cell; }
  // Top-left corner of matrix cell (cx, cy), y up from the floor.
  [[nodiscard]] float cell_x(int cx) const { return matrix_x() + static_cast<float>(cx) * cell; }
  [[nodiscard]] float cell_y(int cy) const {
    return matrix_y() + static_cast<float>(engine::kVisibleRows - 1 - cy) * cell;
  }
  [[nodiscard]] float hold_x() const { return x; }
  [[nodiscard]] float next_x() const { return matrix_x() + (engine::kMatrixWidth + 0.5f) * cell; }
};

// The largest layout that fits (x, y, w, h), times `scale`, centred, with whole-pixel cells when they are big
// enough to matter.
[[nodiscard]] BoardLayout fit_board(float x, float y, float w, float h, float scale = 1.0f);

struct BoardLook {
  Visuals visuals;
  bool dim = false;  // game over or paused: darken the matrix
};

void draw_board(QuadBatch& batch, const BoardLayout& layout, const engine::Game& game, const Feedback* feedback,
                const BoardLook& look, double now_s);

}  // namespace sr::client
