// Tetris Bot Protocol coordinates. TBP names a placement by the piece's centre cell (x right, y up, (0, 0) the
// bottom-left cell, so rows count bottom-up like ours), per orientation as SRS true rotation defines it: for J, L, S, T
// and Z the cell the piece turns about; for I the middle-left mino (north), middle-top (east), middle-right (south),
// middle-bottom (west); for O the bottom-left (north), top-left (east), top-right (south), bottom-right (west).
// Ours is the bottom-left corner of the piece's box (pieces.h). Each orientation has a fixed centre offset inside
// the box, so the conversion is exact both ways.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/bot/search.h"

namespace sr::botcli::tbp {

struct Location {
  engine::Piece piece = engine::Piece::kNone;
  engine::Rotation orientation = engine::Rotation::kNorth;
  int x = 0;  // centre cell
  int y = 0;
  bool operator==(const Location&) const = default;
};

// The centre cell's position inside the box of `piece` in `orientation`.
[[nodiscard]] engine::Cell centre_offset(engine::Piece piece, engine::Rotation orientation);

[[nodiscard]] bot::PieceState to_state(const Location& location);
[[nodiscard]] Location to_location(const bot::PieceState& state);

// "north", "east", "south", "west".
[[nodiscard]] const char* orientation_name(engine::Rotation r);
[[nodiscard]] std::optional<engine::Rotation> orientation_from_name(std::string_view name);
// "none", "mini", "full".
[[nodiscard]] const char* spin_name(engine::SpinKind s);
[[nodiscard]] std::optional<engine::SpinKind> spin_from_name(std::string_view name);

}  // namespace sr::botcli::tbp
