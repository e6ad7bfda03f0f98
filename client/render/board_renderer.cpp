#include "client/render/board_renderer.h"

#include <algorithm>
#include <cmath>

#include "client/render/palette.h"
#include "common/engine/pieces.h"

namespace sr::client {
namespace {

using engine::Piece;

void draw_cell(QuadBatch& b, float x, float y, float s, Rgba c, Skin skin) {
  if (skin == Skin::kFlat || s < 14.0f) {  // small cells: one quad (the bevel would not show anyway)
    const float gap = s >= 12.0f ? 1.0f : 0.0f;
    b.rect(x + gap, y + gap, s - gap, s - gap, c);
    return;
  }
  const float edge = std::max(1.0f, std::floor(s * 0.12f));
  b.rect(x, y, s, s, c.shade(-0.35f));                             // border
  b.rect(x + edge, y + edge, s - 2 * edge, s - 2 * edge, c);       // face
  b.rect(x + edge, y + edge, s - 2 * edge, edge, c.shade(0.35f));  // top light
}

void draw_ghost_cell(QuadBatch& b, float x, float y, float s, Rgba c) {
  b.rect(x, y, s, s, c.with_alpha(0.22f));
  if (s < 10.0f) return;  // an outline would be a pixel or two: skip it
  b.frame(x, y, s, s, std::max(1.0f, std::floor(s * 0.08f)), c.with_alpha(0.55f));
}

// A piece in a side panel, centred in the box (x, y, w, h) at cell size s.
void draw_mini_piece(QuadBatch& b, Piece p, float x, float y, float w, float h, float s, Rgba c, Skin skin) {
  if (!engine::is_tetromino(p)) return;
  const auto& cells = engine::piece_cells(p, engine::Rotation::kNorth);
  int min_x = 9, max_x = -9, min_y = 9, max_y = -9;
  for (const auto& cell : cells) {
    min_x = std::min<int>(min_x, cell.x);
    max_x = std::max<int>(max_x, cell.x);
    min_y = std::min<int>(min_y, cell.y);
    max_y = std::max<int>(max_y, cell.y);
  }
  const float pw = static_cast<float>(max_x - min_x + 1) * s, ph = static_cast<float>(max_y - min_y + 1) * s;
  const float ox = x + (w - pw) / 2, oy = y + (h - ph) / 2;
  for (const auto& cell : cells) {
    draw_cell(b, ox + static_cast<float>(cell.x - min_x) * s, oy + static_cast<float>(max_y - cell.y) * s, s, c, skin);
  }
}

void draw_effects(QuadBatch& b, const BoardLayout& l, const Feedback& fb, double now_s) {
  const float s = l.cell;
  for (const auto& row : fb.rows()) {
    const float k = 1.0f - static_cast<float>((now_s - row.at_s) / Feedback::kRowFlashS);
    for (int y = 0; y < engine::kVisibleRows; ++y) {
      if ((row.rows_mask >> y) & 1u) {
        b.rect(l.matrix_x(), l.cell_y(y), engine::kMatrixWidth * s, s, palette::kWhite.with_alpha(0.8f * k));
      }
    }
  }
  for (const auto& lock : fb.locks()) {
    const float k = 1.0f - static_cast<float>((now_s - lock.at_s) / Feedback::kLockFlashS);
    for (const auto& c : lock.cells) {
      if (c.y >= engine::kVisibleRows + 2) continue;
      b.rect(l.cell_x(c.x), l.cell_y(c.y), s, s, palette::kWhite.with_alpha(0.45f * k));
      // Hard-drop trail above the topmost cell of each column.
      bool top = true;
      for (const auto& o : lock.cells) top = top && !(o.x == c.x && o.y > c.y);
      if (!top || lock.drop_rows <= 0) continue;
      const int rows = std::min(lock.drop_rows, engine::kVisibleRows + 1 - c.y);
      for (int i = 1; i <= rows; ++i) {
        const float fade = k * 0.35f * (1.0f - static_cast<float>(i) / static_cast<float>(rows + 1));
        b.rect(l.cell_x(c.x) + s * 0.15f, l.cell_y(c.y + i), s * 0.7f, s, palette::kWhite.with_alpha(fade));
      }
    }
  }
}

}  // namespace

BoardLayout fit_board(float x, float y, float w, float h, float scale) {
  BoardLayout l;
  float cell = std::min(w / BoardLayout::kWidthCells, h / BoardLayout::kHeightCells) * scale;
  if (cell >= 8.0f) cell = std::floor(cell);
  l.cell = std::max(cell, 1.0f);
  l.x = std::floor(x + (w - l.width()) / 2);
  l.y = std::floor(y + (h - l.height()) / 2);
  return l;
}

void draw_board(QuadBatch& b, const BoardLayout& l, const engine::Game& game, const Feedback* feedback,
                const BoardLook& look, double now_s) {
  const float s = l.cell;
  const Skin skin = look.visuals.skin;
  const float mw = engine::kMatrixWidth * s, mh = engine::kVisibleRows * s;
  const float border = std::max(1.0f, std::floor(s * 0.1f));

  // Matrix background, grid, border, skyline.
  b.rect(l.matrix_x() - border, l.matrix_y(), border, mh + border, palette::kBorder);
  b.rect(l.matrix_x() + mw, l.matrix_y(), border, mh + border, palette::kBorder);
  b.rect(l.matrix_x(), l.matrix_y() + mh, mw, border, palette::kBorder);
  b.rect(l.matrix_x(), l.matrix_y(), mw, mh, palette::kMatrix);
  if (look.visuals.grid && s >= 10.0f) {  // finer grids are noise, and cost fill on software renderers
    for (int x = 1; x < engine::kMatrixWidth; ++x) b.rect(l.cell_x(x), l.matrix_y(), 1, mh, palette::kGrid);
    for (int y = 1; y < engine::kVisibleRows; ++y) b.rect(l.matrix_x(), l.cell_y(y - 1), mw, 1, palette::kGrid);
  }
  b.rect(l.matrix_x(), l.matrix_y() - 1, mw, std::max(1.0f, border / 2), palette::kSkyline);

  // Locked cells (two rows above the skyline are shown too).
  const auto& m = game.matrix();
  for (int y = 0; y < engine::kVisibleRows + 2; ++y) {
    if (m.row_bits(y) == 0) continue;
    for (int x = 0; x < engine::kMatrixWidth; ++x) {
      const Piece p = m.at(x, y);
      if (p != Piece::kNone) draw_cell(b, l.cell_x(x), l.cell_y(y), s, piece_colour(p, skin), skin);
    }
  }

  // Ghost and active piece.
  if (const auto active = game.active()) {
    const Rgba c = piece_colour(active->piece, skin);
    const auto& cells = engine::piece_cells(active->piece, active->rotation);
    if (look.visuals.ghost) {
      const int gy = game.ghost_y();
      for (const auto& cell : cells) {
        bool under_piece = false;  // the ghost may overlap the piece itself when it is about to land
        for (const auto& o : cells) under_piece |= o.x == cell.x && active->y + o.y == gy + cell.y;
        if (!under_piece) draw_ghost_cell(b, l.cell_x(active->x + cell.x), l.cell_y(gy + cell.y), s, c);
      }
    }
    for (const auto& cell : cells) {
      const int cy = active->y + cell.y;
      if (cy < engine::kVisibleRows + 2) draw_cell(b, l.cell_x(active->x + cell.x), l.cell_y(cy), s, c, skin);
    }
  }
  if (feedback != nullptr) draw_effects(b, l, *feedback, now_s);
  if (look.dim) b.rect(l.matrix_x(), l.matrix_y(), mw, mh, Rgba{0, 0, 0, 150});

  // Hold (left) and next queue (right). The labels are HUD text (ui/hud.cpp).
  const float mini = s * 0.8f;
  const float panel_w = 5.0f * s;
  const float label_h = 1.2f * s;
  if (game.config().hold_enabled) {
    b.rect(l.hold_x(), l.matrix_y(), panel_w, label_h + 3.2f * s, palette::kPanel);
    const Piece h = game.hold();
    Rgba c = piece_colour(h, skin);
    if (game.state().hold_used) c = c.shade(-0.55f);
    draw_mini_piece(b, h, l.hold_x(), l.matrix_y() + label_h, panel_w, 3.0f * s, mini, c, skin);
  }
  const auto preview = game.preview();
  if (!preview.empty()) {
    const float slot = std::min(3.0f * s, (mh - label_h) / static_cast<float>(preview.size()));
    b.rect(l.next_x(), l.matrix_y(), panel_w, label_h + slot * static_cast<float>(preview.size()) + 0.2f * s,
           palette::kPanel);
    const float piece_cell = std::min(mini, slot / 2.6f);
    for (std::size_t i = 0; i < preview.size(); ++i) {
      draw_mini_piece(b, preview[i], l.next_x(), l.matrix_y() + label_h + slot * static_cast<float>(i), panel_w, slot,
                      piece_cell, piece_colour(preview[i], skin), skin);
    }
  }
}

}  // namespace sr::client
