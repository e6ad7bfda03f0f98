#include "common/replay/board_text.h"

#include <array>

#include "common/replay/verify.h"

namespace sr::replay {

std::string board_text(const engine::Game& game) {
  static constexpr std::array<const char*, 4> kRotation = {"north", "east", "south", "west"};
  std::string out;
  for (int y = engine::kVisibleRows - 1; y >= 0; --y) {
    for (int x = 0; x < engine::kMatrixWidth; ++x) out += engine::piece_letter(game.matrix().at(x, y));
    out += '\n';
  }
  out += "current: ";
  if (const auto a = game.active()) {
    out += engine::piece_letter(a->piece);
    out += std::string(" ") + kRotation[static_cast<std::size_t>(a->rotation)] + " x=" + std::to_string(a->x) +
           " y=" + std::to_string(a->y);
  } else {
    out += "-";
  }
  out += "\nhold: ";
  out += game.hold() == engine::Piece::kNone ? '-' : engine::piece_letter(game.hold());
  out += "\nqueue: ";
  if (game.preview().empty()) out += '-';
  for (engine::Piece p : game.preview()) out += engine::piece_letter(p);
  const engine::Stats& s = game.stats();
  out += "\ntime: " + format_time(s.time_us) + " pieces: " + std::to_string(s.pieces) +
         " lines: " + std::to_string(s.lines) + " score: " + std::to_string(s.score) + "\n";
  return out;
}

}  // namespace sr::replay
