// The text around a board: HOLD/NEXT labels, the numbers the mode needs (time, lines or lines left, pieces, PPS,
// keys per piece, score, level), the countdown and the names of clears. Drawn on ImGui's background draw list,
// so it sits above our boards and below any menu window, and never takes keyboard focus.
#pragma once

#include <string>

#include "client/render/board_renderer.h"
#include "client/solo/feedback.h"
#include "client/ui/fonts.h"
#include "common/engine/game.h"

namespace sr::client {

struct HudBoard {
  const engine::Game* game = nullptr;
  const Feedback* feedback = nullptr;
  BoardLayout layout;
  std::string name;             // shown above the board
  double countdown_left_s = 0;  // > 0 during the 3-2-1
};

// The labelled numbers for the side panel, e.g. {{"TIME", "0:41.250"}, {"LINES", "12 / 40"}, ...}.
struct HudLine {
  std::string label;
  std::string value;
};
[[nodiscard]] std::vector<HudLine> hud_lines(const engine::Game& game);

void draw_hud(const Fonts& fonts, const HudBoard& board, double now_s);

// A banner over a board's matrix saying how its game ended: `title` ("FINISHED #1", "TOPPED OUT") and under it
// `detail` (the time, "" for none), on a dark plate, shrunk to stay within the matrix so that the numbers beside it
// stay readable. Placed in the matrix's upper third, clear of the clear names and the countdown.
void draw_banner(const Fonts& fonts, const BoardLayout& layout, const std::string& title, const std::string& detail);

}  // namespace sr::client
