// bot/tbp_session.h: what an external TBP bot is told, and reading its answers without waiting. The bots here are
// small shell scripts, so the test sees exactly the lines the session wrote.
#include "bot/tbp_session.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/engine/config.h"

namespace sr::botcli {
namespace {

const std::string kHandshake =
    "printf '%s\\n' '{\"type\":\"info\",\"name\":\"sh\",\"version\":\"1\",\"author\":\"tests\",\"features\":[]}'; "
    "read rules; printf '%s\\n' '{\"type\":\"ready\"}'; ";

// The "type" of each line the bot wrote to `path`.
std::vector<std::string> types_in(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> types;
  std::string line;
  while (std::getline(in, line)) {
    const auto at = line.find("\"type\":\"");
    types.push_back(at == std::string::npos ? "?" : line.substr(at + 8, line.find('"', at + 8) - at - 8));
  }
  return types;
}

// Locks the piece that is out with a hard drop 1 ms after the game's present.
void hard_drop(engine::Game& game) {
  const engine::TimeUs t = game.now() + 1000;
  ASSERT_EQ(game.update(t, engine::button::kHardDrop).error, engine::UpdateError::kOk);
  ASSERT_EQ(game.update(t + 1000, 0).error, engine::UpdateError::kOk);
  ASSERT_TRUE(game.active().has_value());
}

TEST(TbpSession, APieceThatLockedUntoldMakesAFreshStart) {
  const std::string log = testing::TempDir() + "stackrace_tbp_session_told.txt";
  std::remove(log.c_str());
  const ExternalOptions options{kHandshake + "cat > " + log};  // what follows the rules
  std::ostringstream err;
  engine::Game game(engine::make_sprint(), 5);
  ASSERT_TRUE(game.update(0).error == engine::UpdateError::kOk);
  {
    TbpSession session(options, err);
    ASSERT_TRUE(session.open(game.config())) << err.str();
    session.new_game();
    ASSERT_TRUE(session.tell(game));  // start
    // The move the bot was told of locks: play and a new_piece follow.
    const engine::ActivePiece piece = *game.active();
    session.played(tbp::Move{tbp::to_location(bot::PieceState{piece.piece, piece.rotation, piece.x, piece.y})});
    hard_drop(game);
    ASSERT_TRUE(session.tell(game));
    EXPECT_EQ(session.restarts(), 0);
    // A piece locks that the bot was not told of (gravity took it while the bot thought): stop, then a fresh start.
    hard_drop(game);
    ASSERT_TRUE(session.tell(game));
    EXPECT_EQ(session.restarts(), 1);
    ASSERT_TRUE(session.stop());
    session.close(false);
  }
  EXPECT_EQ(types_in(log), (std::vector<std::string>{"start", "play", "new_piece", "stop", "start", "stop", "quit"}));
  std::remove(log.c_str());
}

TEST(TbpSession, PollTakesWhatHasArrivedWithoutWaiting) {
  // The bot answers its suggest 2 s late, then ends its output.
  const ExternalOptions options{kHandshake +
                                "read suggest; sleep 2; printf '%s\\n' '{\"type\":\"suggestion\",\"moves\":[]}'"};
  std::ostringstream err;
  TbpSession session(options, err);
  ASSERT_TRUE(session.open(engine::make_sprint())) << err.str();
  ASSERT_TRUE(session.send(tbp::encode_suggest()));
  tbp::BotMessage answer;
  const auto before = std::chrono::steady_clock::now();
  EXPECT_EQ(session.poll(tbp::BotMessage::Kind::kSuggestion, "a suggestion", answer), TbpSession::Poll::kWaiting);
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::milliseconds(500));
  const auto arrived = session.expect(tbp::BotMessage::Kind::kSuggestion, "a suggestion", 10'000);
  ASSERT_TRUE(arrived.has_value()) << err.str();
  EXPECT_TRUE(arrived->moves.empty());
  // Its output ends: a failure, said on err.
  bool late = true;
  EXPECT_FALSE(session.expect(tbp::BotMessage::Kind::kSuggestion, "a suggestion", 10'000, &late).has_value());
  EXPECT_FALSE(late);
  EXPECT_EQ(session.poll(tbp::BotMessage::Kind::kSuggestion, "a suggestion", answer), TbpSession::Poll::kFailed);
  EXPECT_NE(err.str().find("the external bot ended its output while we waited for a suggestion"), std::string::npos)
      << err.str();
  session.close(true);
}

}  // namespace
}  // namespace sr::botcli
