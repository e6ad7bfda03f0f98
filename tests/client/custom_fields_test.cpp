#include "client/solo/custom_fields.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

using engine::Piece;

TEST(CustomFields, SequenceTakesPieceLettersInAnyCase) {
  std::vector<Piece> out;
  EXPECT_EQ(parse_sequence("TSz, ij", out), "");
  EXPECT_EQ(out, (std::vector<Piece>{Piece::kT, Piece::kS, Piece::kZ, Piece::kI, Piece::kJ}));
  EXPECT_NE(parse_sequence("TX", out), "");
  EXPECT_NE(parse_sequence("G", out), "");  // garbage is not a piece
  EXPECT_NE(parse_sequence("  ", out), "");
}

TEST(CustomFields, BoardRowsAreTopDownInTextAndBottomUpInTheConfig) {
  std::vector<engine::BoardRow> rows;
  EXPECT_EQ(parse_board("....T...../GGGGGGGGG.", rows), "");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], Piece::kGarbage);
  EXPECT_EQ(rows[0][9], Piece::kNone);
  EXPECT_EQ(rows[1][4], Piece::kT);
  EXPECT_EQ(parse_board("", rows), "");
  EXPECT_TRUE(rows.empty());
  EXPECT_NE(parse_board("GGG", rows), "");
  EXPECT_NE(parse_board("GGGGGGGGG?", rows), "");
  auto config = engine::make_custom();
  ASSERT_EQ(parse_board("GGGG.GGGGG", config.initial_board), "");
  EXPECT_FALSE(engine::config_error(config).has_value());
}

}  // namespace
}  // namespace sr::client
