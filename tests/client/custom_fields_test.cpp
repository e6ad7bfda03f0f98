#include "client/solo/custom_fields.h"

#include <gtest/gtest.h>

#include "tests/support/status.h"

namespace sr::client {
namespace {

using engine::Piece;

TEST(CustomFields, SequenceTakesPieceLettersInAnyCase) {
  std::vector<Piece> out;
  EXPECT_EQ(sr::test::problem_of(parse_sequence("TSz, ij", out)), std::nullopt);
  EXPECT_EQ(out, (std::vector<Piece>{Piece::kT, Piece::kS, Piece::kZ, Piece::kI, Piece::kJ}));
  EXPECT_NE(sr::test::problem_of(parse_sequence("TX", out)), std::nullopt);
  EXPECT_NE(sr::test::problem_of(parse_sequence("G", out)), std::nullopt);  // garbage is not a piece
  EXPECT_NE(sr::test::problem_of(parse_sequence("  ", out)), std::nullopt);
}

TEST(CustomFields, BoardRowsAreTopDownInTextAndBottomUpInTheConfig) {
  std::vector<engine::BoardRow> rows;
  EXPECT_EQ(sr::test::problem_of(parse_board("....T...../GGGGGGGGG.", rows)), std::nullopt);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][0], Piece::kGarbage);
  EXPECT_EQ(rows[0][9], Piece::kNone);
  EXPECT_EQ(rows[1][4], Piece::kT);
  EXPECT_EQ(sr::test::problem_of(parse_board("", rows)), std::nullopt);
  EXPECT_TRUE(rows.empty());
  EXPECT_NE(sr::test::problem_of(parse_board("GGG", rows)), std::nullopt);
  EXPECT_NE(sr::test::problem_of(parse_board("GGGGGGGGG?", rows)), std::nullopt);
  auto config = engine::make_custom();
  ASSERT_EQ(sr::test::problem_of(parse_board("GGGG.GGGGG", config.initial_board)), std::nullopt);
  EXPECT_EQ(sr::test::problem_of(engine::check_config(config)), std::nullopt);
}

}  // namespace
}  // namespace sr::client
