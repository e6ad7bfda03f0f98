// The custom game editor's text fields: a fixed piece sequence and an initial board, typed as letters.
#pragma once

#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/result.h"

namespace sr::client {

// "TSZ IJLO" (spaces and commas ignored) -> pieces. Returns ok or an error sentence.
[[nodiscard]] sr::Status<std::string> parse_sequence(const std::string& letters, std::vector<engine::Piece>& out);

// Rows top to bottom separated by '/', each 10 cells: '.' empty, I J L O S T Z a piece, G garbage.
// "........../GGGGGGGGG." -> two rows, bottom row first in `out`. Returns ok or an error sentence.
// Fullness and height are check_config()'s business.
[[nodiscard]] sr::Status<std::string> parse_board(const std::string& rows, std::vector<engine::BoardRow>& out);

}  // namespace sr::client
