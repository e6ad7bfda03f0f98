// stackrace-bot --server --ladder --external as a team with its own TBP bot runs it: a scripted TBP bot
// (tests/bot/tbp_first_legal.py) chooses the placements of contest ladder games on a real server, in real time.
// (The contests are 3 s long here.)
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/server/net_fixture.h"
#include "tests/support/run_command.h"

namespace sr::test {
namespace {

const std::string kTbp = std::string("python3 ") + STACKRACE_BOT_TEST_DIR + "/tbp_first_legal.py";

server::ServerOptions contest(std::int64_t seconds) {
  server::ServerOptions options;
  options.ladder.enabled = true;
  options.ladder.contest_seconds = seconds;
  options.countdown_us = 200'000;
  return options;
}

// stackrace-bot entering the ladder of `server` as `name` with the TBP bot `tbp` (its arguments included).
CommandRun enter(const ServerFixture& server, const std::string& name, const std::string& tbp,
                 const std::string& extra) {
  return run_command(std::string(STACKRACE_BOT_BINARY) + " --server 127.0.0.1:" + std::to_string(server.port()) +
                     " --ladder " + name + " --secret-file " + (server.data_dir() / (name + ".secret")).string() +
                     " --external '" + tbp + "' " + extra);
}

// The whole number right after `marker` in `text`, or -1.
long number_after(const std::string& text, const std::string& marker) {
  const auto at = text.find(marker);
  if (at == std::string::npos) return -1;
  return std::stol(text.substr(at + marker.size()));
}

TEST(ExternalLadder, PlaysARankedGameWithAScriptedTbpBot) {
  ServerFixture server(contest(3));
  const CommandRun r = enter(server, "tbp", kTbp + " --greedy", "--games 1 --pps 8");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const long points = number_after(r.output, "ranked game 1 as 'tbp': ");
  const long pieces = number_after(r.output, " lines, ");
  const long asked = number_after(r.output, "external bot: ");
  const long played = number_after(r.output, " suggestions, ");
  // A greedy bot at 8 pieces a second clears lines within 3 s, and no suggestion of it is out of reach.
  EXPECT_GT(points, 0) << r.output;
  EXPECT_GT(pieces, 8) << r.output;
  // Every move played locked (the last may still be on its way at the time limit), and no piece locked unplayed.
  EXPECT_TRUE(played == pieces || played == pieces + 1) << r.output;
  EXPECT_TRUE(asked == played || asked == played + 1) << r.output;  // the last may be pending at the time limit
  EXPECT_NE(r.output.find(" played, 0 forfeits (0 unreachable, 0 slow answers), 0 late answers dropped, 0 fresh "
                          "starts\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("stackrace-bot: external bot first-legal 1 by stackrace tests\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("'tbp' is ranked 1 of 1: 1 ranked games of 10 played, best-3 average "), std::string::npos)
      << r.output;

  // The server's score is its own simulation of the inputs, and the stored replay re-simulates to it.
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].verified) << stored[0].message;
  ASSERT_EQ(stored[0].replay.racers.size(), 1u);
  EXPECT_EQ(stored[0].replay.racers[0].name, "tbp");
  EXPECT_EQ(stored[0].replay.racers[0].result.stats.score, points);
  EXPECT_EQ(stored[0].replay.racers[0].result.stats.pieces, pieces);
}

// The first bot process answers its 3rd suggest 1.5 s late: that game is lost (played to its end, scored by the
// server, said so), the bot is restarted, and the second game is played in full.
TEST(ExternalLadder, ASlowAnswerLosesOnlyThatGame) {
  const std::string marker = testing::TempDir() + "stackrace_ladder_slow_once";
  std::remove(marker.c_str());
  ServerFixture server(contest(3));
  const CommandRun r = enter(server, "slow", kTbp + " --greedy --slow-once " + marker, "--games 2 --answer-ms 500");
  std::remove(marker.c_str());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ranked game 1 as 'slow': the external bot forfeited it at piece 3 at "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("s: the external bot did not answer suggest within 500 ms\nranked game 2 as 'slow': "),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("ranked game 2 as 'slow': the external bot forfeited"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" 1 forfeits (0 unreachable, 1 slow answers)"), std::string::npos) << r.output;
  EXPECT_EQ(number_after(r.output, "ranked game 1 as 'slow': "), 0) << r.output;  // two pieces clear no line
  // Started twice: once for the run, once after the slow answer.
  const auto first = r.output.find("external bot first-legal 1 by");
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_NE(r.output.find("external bot first-legal 1 by", first + 1), std::string::npos) << r.output;
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 2u);
  for (const auto& s : stored) EXPECT_TRUE(s.verified) << s.message;
}

// A suggestion none of whose moves can be reached loses that game; the run goes on and exits 0.
TEST(ExternalLadder, AnUnreachableSuggestionForfeitsTheGame) {
  ServerFixture server(contest(3));
  const CommandRun r = enter(server, "lost", kTbp + " --forfeit-after 5", "--games 1 --pps 8");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ranked game 1 as 'lost': the external bot forfeited it at piece 5 at "), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("s: none of its 1 moves can be reached any more: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("-north@(4,30)\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("external bot: 5 suggestions, 4 played, 1 forfeits (1 unreachable, 0 slow answers)"),
            std::string::npos)
      << r.output;
  ASSERT_EQ(server.stored_replays().size(), 1u);
  EXPECT_TRUE(server.stored_replays()[0].verified);
}

// A TBP bot that dies mid-game ends the run with 1 and says so; the game it was playing is spent.
TEST(ExternalLadder, ABotThatDiesMidGameEndsTheRunWithOne) {
  ServerFixture server(contest(3));
  const CommandRun r = enter(server, "dies", kTbp + " --die-after 3", "--games 2");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the external bot ended its output while we waited for a suggestion\n"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("stackrace-bot: ranked game 1 as 'dies' abandoned: the external bot cannot play"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("ranked game 2"), std::string::npos) << r.output;
}

// A bot that cannot start spends no game: the server is not even contacted.
TEST(ExternalLadder, ABotThatCannotStartSpendsNoGame) {
  ServerFixture server(contest(3));
  const CommandRun r = enter(server, "none", "/nonexistent/tbp-bot", "--games 1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the external bot ended its output while we waited for its info message"), std::string::npos)
      << r.output;
  EXPECT_TRUE(server.stored_replays().empty());
}

// An ordinary race on a server: one bot (--count left out), its placements chosen by the TBP bot.
TEST(ExternalRace, RacesASprintWithAScriptedTbpBot) {
  ServerFixture server;
  const CommandRun r =
      run_command(std::string(STACKRACE_BOT_BINARY) + " --server 127.0.0.1:" + std::to_string(server.port()) +
                  " --create sprint --lines 4 --races 2 --pps 8 " + "--timeout 60 --external '" + kTbp + " --greedy'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 bots connected"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("summary: 2 races, 2 of 2 racers finished"), std::string::npos) << r.output;
  const long asked = number_after(r.output, "external bot: ");
  EXPECT_NE(r.output.find(" suggestions, " + std::to_string(asked) +
                          " played, 0 forfeits (0 unreachable, 0 slow answers), 0 late answers dropped, 0 fresh "
                          "starts\n"),
            std::string::npos)
      << r.output;
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 2u);
  long pieces = 0;
  for (const auto& s : stored) {
    EXPECT_TRUE(s.verified) << s.message;
    pieces += static_cast<long>(s.replay.racers.at(0).result.stats.pieces);
  }
  EXPECT_EQ(pieces, asked);  // a sprint ends on a lock: every suggestion was played and locked
}

// At 20G a piece locks 0.5 s after it appears. The TBP bot answers its 3rd suggest 1.5 s late (within --answer-ms):
// that piece and the next ones have locked by gravity meanwhile, so the answer is dropped, the bot is told the
// position afresh (start), and it plays on without a forfeit.
TEST(ExternalRace, AnAnswerThatComesAfterItsPieceLockedIsDroppedAndTheBotStartsAfresh) {
  const std::string marker = testing::TempDir() + "stackrace_race_slow_once";
  std::remove(marker.c_str());
  ServerFixture server;
  const CommandRun r =
      run_command(std::string(STACKRACE_BOT_BINARY) + " --server 127.0.0.1:" + std::to_string(server.port()) +
                  " --create master --lines 2 --answer-ms 5000 " + "--timeout 60 --external '" + kTbp +
                  " --greedy --slow-once " + marker + "'");
  std::remove(marker.c_str());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The 1.5 s answer comes after its piece locked at 20G: it is dropped and the bot told the position afresh. On a
  // busy machine another answer may come late too, or so late in the lock delay that its move cannot be reached in
  // time (an unreachable forfeit, after which no more is asked): every suggestion is counted once either way, but
  // for one the game's end may overtake.
  const long asked = number_after(r.output, "external bot: ");
  const long played = number_after(r.output, " suggestions, ");
  const long forfeits = number_after(r.output, " played, ");
  const long unreachable = number_after(r.output, " forfeits (");
  const long slow = number_after(r.output, " unreachable, ");
  const long dropped = number_after(r.output, " slow answers), ");
  const long fresh = number_after(r.output, " late answers dropped, ");
  EXPECT_GE(dropped, 1) << r.output;
  EXPECT_GE(fresh, 1) << r.output;
  EXPECT_EQ(slow, 0) << r.output;
  EXPECT_EQ(forfeits, unreachable) << r.output;
  EXPECT_LE(forfeits, 1) << r.output;
  EXPECT_GE(asked - (played + dropped + forfeits), 0) << r.output;
  EXPECT_LE(asked - (played + dropped + forfeits), 1) << r.output;
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].verified) << stored[0].message;
  // Every played move locked, and so did the pieces gravity took while the bot was late.
  EXPECT_GE(stored[0].replay.racers.at(0).result.stats.pieces, played + 2) << r.output;
}

}  // namespace
}  // namespace sr::test
