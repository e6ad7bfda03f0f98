// A game as plain text, for terminals, tests and bug reports (stackrace-replay board).
//
// Layout: the 20 visible rows, top row (y = 19) first, x = 0..9 left to right; '.' is empty, IJLOSTZ name the
// piece that left a block, G is garbage. The falling piece is not drawn into the rows; lines follow:
//   current: T north x=3 y=18      (the piece, its orientation, and its box's bottom-left cell; "-" if none)
//   hold: I                        ("-" if empty)
//   queue: OSZJL                   (the preview the player sees; "-" if the preview is off)
//   time: 8.333000 s pieces: 25 lines: 10 score: 1234
#pragma once

#include <string>

#include "common/engine/game.h"

namespace sr::replay {

[[nodiscard]] std::string board_text(const engine::Game& game);

}  // namespace sr::replay
