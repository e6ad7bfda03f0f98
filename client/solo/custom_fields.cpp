#include "client/solo/custom_fields.h"

#include <sstream>

namespace sr::client {

sr::Status<std::string> parse_sequence(const std::string& letters, std::vector<engine::Piece>& out) {
  out.clear();
  for (char c : letters) {
    if (c == ' ' || c == ',') continue;
    engine::Piece p;
    if (!engine::piece_from_letter(c, p) || !engine::is_tetromino(p)) {
      return std::string("the sequence may only hold I J L O S T Z, not '") + c + "'";
    }
    out.push_back(p);
  }
  if (out.empty()) return "the fixed sequence is empty";
  return {};
}

sr::Status<std::string> parse_board(const std::string& text, std::vector<engine::BoardRow>& out) {
  out.clear();
  std::vector<engine::BoardRow> top_down;
  std::stringstream rows(text);
  std::string row;
  while (std::getline(rows, row, '/')) {
    if (row.empty()) continue;
    if (row.size() != static_cast<std::size_t>(engine::kMatrixWidth)) {
      return "board row \"" + row + "\" does not have 10 cells";
    }
    engine::BoardRow cells;
    for (char c : row) {
      engine::Piece p;
      if (!engine::piece_from_letter(c, p)) return std::string("unknown board cell '") + c + "'";
      cells.push_back(p);
    }
    top_down.push_back(std::move(cells));
  }
  out.assign(top_down.rbegin(), top_down.rend());
  return {};
}

}  // namespace sr::client
