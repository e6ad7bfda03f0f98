#include "common/replay/board_text.h"

#include <gtest/gtest.h>

#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

std::string empty_rows(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += "..........\n";
  return out;
}

TEST(BoardText, ShowsTheStartOfAGame) {
  engine::Game game(engine::make_sprint(), 1);
  (void)game.update(0);
  const std::string text = board_text(game);
  EXPECT_EQ(text.substr(0, 20 * 11), empty_rows(20));
  EXPECT_NE(text.find("\nhold: -\n"), std::string::npos);
  EXPECT_NE(text.find("time: 0.000000 s pieces: 0 lines: 0 score: 0\n"), std::string::npos);
}

// The T-spin golden's first piece is fixed by construction (board, sequence and opening inputs), so its board
// after piece 1 does not depend on the scripted player.
TEST(BoardText, TSpinGoldenAfterTheTSpinDouble) {
  Result<Replay> r = decode_binary(testing::read_bytes(testing::data_dir() / "tspin.srr"));
  ASSERT_TRUE(r.ok());
  Result<engine::Game> g = game_at(r.value(), 0, {ViewPoint::Kind::kPiece, 1});
  ASSERT_TRUE(g.ok());
  const std::string text = board_text(g.value());
  EXPECT_EQ(text.substr(0, 20 * 11), empty_rows(19) + "GGGG......\n");
  EXPECT_NE(text.find("current: I north x=3 y=17\nhold: -\nqueue: OLJSZ\ntime: 0.400000 s pieces: 1 lines: 2 "),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace sr::replay
