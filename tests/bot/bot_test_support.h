// Helpers for the bot suites: boards drawn as strings, and engine configs that start from such a board.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <iterator>
#include <ostream>
#include <string_view>
#include <vector>

#include "common/bot/bitboard.h"
#include "common/bot/search.h"
#include "common/engine/config.h"

namespace sr::bot {

inline void PrintTo(const PieceState& s, std::ostream* os) {
  *os << "{" << engine::piece_letter(s.piece) << " "
      << "NESW"[static_cast<int>(s.rotation) & 3] << " x " << static_cast<int>(s.x) << " y " << static_cast<int>(s.y)
      << "}";
}

namespace test {

// Rows drawn top first, as on screen; the last string is row 0. '.' is empty, anything else a block.
inline std::vector<engine::BoardRow> rows(std::initializer_list<std::string_view> top_first) {
  std::vector<engine::BoardRow> out;
  for (auto it = std::rbegin(top_first); it != std::rend(top_first); ++it) {
    EXPECT_EQ(it->size(), 10u);
    engine::BoardRow row(10, engine::Piece::kNone);
    for (std::size_t x = 0; x < 10 && x < it->size(); ++x) {
      if ((*it)[x] != '.') row[x] = engine::Piece::kGarbage;
    }
    out.push_back(row);
  }
  return out;
}

inline Bitboard board(std::initializer_list<std::string_view> top_first) {
  Bitboard b;
  const auto r = rows(top_first);
  for (std::size_t y = 0; y < r.size(); ++y) {
    for (int x = 0; x < 10; ++x) {
      if (r[y][static_cast<std::size_t>(x)] != engine::Piece::kNone) b.set(x, static_cast<int>(y));
    }
  }
  return b;
}

// An endless game on `top_first` with a fixed piece sequence, so tests know what comes.
inline engine::GameConfig config_with(std::initializer_list<std::string_view> top_first,
                                      std::vector<engine::Piece> sequence) {
  engine::GameConfig c = engine::make_endless();
  c.initial_board = rows(top_first);
  c.generator = engine::GeneratorKind::kFixed;
  c.fixed_sequence = std::move(sequence);
  return c;
}
}  // namespace test
}  // namespace sr::bot
