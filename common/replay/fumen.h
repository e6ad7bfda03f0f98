// Fumen v115 export: the community's board-editor format (fumen.zui.jp, harddrop.com/fumen, knewjade/tetris-fumen),
// one page per placed piece, so a game can be stepped through in those editors.
//
// # Encoding (as tetris-fumen's encoder writes it)
// "v115@" then base-64 digits (A-Z a-z 0-9 + /, least significant digit first). Each page: the field as the
// difference from the previous page's field after its piece locked and full lines cleared (runs over 24 rows x 10:
// rows 22..0 then the garbage row; value (diff + 8) * 240 + run - 1 in two digits; an unchanged field is "vh"
// followed by a repeat count digit shared by the following unchanged pages), then the action in three digits:
// ((((!lock * 2 + comment) * 2 + colorize) * 2 + mirror) * 2 + rise) * 240 + position) * 4 + rotation) * 8 + piece.
// A '?' is inserted after the first 42 digits and then after every 47.
// Pieces: I1 L2 O3 Z4 T5 J6 S7, garbage 8. Rotations: south 0, east 1, north 2, west 3. Position: (22 - y) * 10 + x
// of the piece's fumen centre. Colorize is set on the first page only, lock on every page, no comments.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/types.h"
#include "common/replay/error.h"
#include "common/replay/replay.h"

namespace sr::replay {

// A locked piece in engine coordinates: (x, y) is its box's bottom-left cell (pieces.h).
struct Placement {
  engine::Piece piece = engine::Piece::kNone;
  engine::Rotation rotation = engine::Rotation::kNorth;
  int x = 0;
  int y = 0;
};

// Pages: page 0 shows `initial_board` (bottom row first, as in GameConfig); each later page shows the previous
// page's field after its placement locked and full rows cleared. A page without a placement is an empty page.
// # Errors: kOutOfRange when a block lies above fumen's 23 rows (y > 22).
[[nodiscard]] Result<std::string> encode_fumen(const std::vector<engine::BoardRow>& initial_board,
                                               std::span<const std::optional<Placement>> pages);

// Racer `racer`'s game, one page per locked piece (the whole recording, as simulate.h plays it). A piece that locks
// above fumen's field ends the export there (the result notes how many pieces it holds).
struct FumenExport {
  std::string fumen;
  std::size_t pages = 0;
  std::size_t pieces_locked = 0;  // > pages when the export stopped early
};
[[nodiscard]] Result<FumenExport> replay_fumen(const Replay& replay, std::size_t racer);

}  // namespace sr::replay
