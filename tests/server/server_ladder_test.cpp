// The contest ladder on a real server (PROTOCOL.md "Contest ladder"): an entrant's ranked game is scored by the
// server's referee and listed with its stored replay, which verifies; a name is held by its secret; practice games
// count nowhere; ranked games run out; the ladder survives a restart; a server without --contest refuses politely.
// The contest is shortened to 2 or 5 s here (LadderOptions::contest_seconds; the ranked rules are 90 s).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "tests/server/net_fixture.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;

// Fast enough to place pieces every game second, within the referee's input rate.
constexpr int kPpsMilli = 8'000;

server::ServerOptions contest_options(int ranked_games, std::int64_t seconds = 2) {
  server::ServerOptions o;
  o.ladder.enabled = true;
  o.ladder.rules = server::LadderRules{ranked_games, 3};
  o.ladder.contest_seconds = seconds;
  o.countdown_us = 200'000;
  return o;
}

// The texts of the Notices about `about` received so far.
std::vector<std::string> notices_about(const BotClient& c, protocol::MessageId about) {
  std::vector<std::string> out;
  for (const auto& m : c.received()) {
    if (const auto* n = std::get_if<protocol::Notice>(&m); n != nullptr && n->about == about) out.push_back(n->text);
  }
  return out;
}

// Why the racer was removed, if it was.
std::string received_reason(const BotClient& c) {
  for (const auto& m : c.received()) {
    if (const auto* e = std::get_if<protocol::RacerEnded>(&m); e != nullptr && !e->reason.empty()) return e->reason;
  }
  return {};
}

struct Played {
  protocol::RaceResults results;
  std::uint64_t game_id = 0;
};

// Enters a ladder game, plays it out (the bot at full speed), waits for the stored replay and leaves the room.
std::optional<Played> play(BotClient& c, const std::string& entrant, bool ranked) {
  c.session().send(protocol::LadderEnter{entrant, ranked, std::nullopt});
  if (!BotClient::pump_until(
          {&c}, [&] { return c.session().race() != nullptr; }, 10s))
    return std::nullopt;
  EXPECT_TRUE(c.session().room().has_value());
  EXPECT_EQ(c.session().race()->config().mode, engine::ModeKind::kContest);
  if (!BotClient::pump_until(
          {&c}, [&] { return c.session().stored_replay().has_value(); }, 30s))
    return std::nullopt;
  Played p{*c.session().results(), *c.session().stored_replay()};
  c.session().leave_room();
  if (!BotClient::pump_until(
          {&c}, [&] { return !c.session().room().has_value(); }, 10s))
    return std::nullopt;
  return p;
}

std::optional<protocol::Ladder> leaderboard(BotClient& c) {
  const auto count = [&] {
    return std::count_if(c.received().begin(), c.received().end(),
                         [](const auto& m) { return std::holds_alternative<protocol::Ladder>(m); });
  };
  const auto before = count();
  c.session().send(protocol::ListLadder{});
  if (!BotClient::pump_until(
          {&c}, [&] { return count() > before; }, 10s))
    return std::nullopt;
  for (auto it = c.received().rbegin(); it != c.received().rend(); ++it) {
    if (const auto* l = std::get_if<protocol::Ladder>(&*it)) return *l;
  }
  return std::nullopt;
}

TEST(ServerLadder, ARankedGameIsScoredByTheRefereeAndListedWithAReplayThatVerifies) {
  ServerFixture server(contest_options(10, 5));
  BotClient rocket("rocket-bot", server.port(), {}, kPpsMilli);
  ASSERT_TRUE(rocket.connect());
  const auto played = play(rocket, "rocket", true);
  ASSERT_TRUE(played.has_value());
  ASSERT_EQ(played->results.racers.size(), 1u);
  const protocol::RacerResult& result = played->results.racers[0];
  EXPECT_EQ(result.status, protocol::RacerStatus::kFinished) << received_reason(rocket);
  // The bot placed pieces (it may clear no line in 5 s: the race seed is random, and some seeds, such as
  // 10742750134649252739, give this cheap bot no line in 5 s), so the figures below are a played game's.
  EXPECT_GT(result.pieces, 0);

  const auto board = leaderboard(rocket);
  ASSERT_TRUE(board.has_value());
  EXPECT_EQ(*board, (protocol::Ladder{10, 3, 1, {{"rocket", 1, {{played->game_id, result.score, result.lines}}}}}));

  // The listed game is the stored replay: a contest game of one racer whose recorded score is the referee's.
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(server::game_id_number(stored[0].file.stem().string()), played->game_id);
  EXPECT_TRUE(stored[0].verified) << stored[0].message;
  EXPECT_EQ(stored[0].replay.config.mode, engine::ModeKind::kContest);
  ASSERT_EQ(stored[0].replay.racers.size(), 1u);
  EXPECT_EQ(stored[0].replay.racers[0].result.stats.score, result.score);
  EXPECT_EQ(stored[0].replay.racers[0].result.stats.lines, result.lines);
  EXPECT_EQ(stored[0].replay.racers[0].result.stats.pieces, result.pieces);

  // A practice game is played the same way (a new room, race 1 again: the bot plays it as a new game) but ranks
  // nowhere.
  const auto practice = play(rocket, "rocket", false);
  ASSERT_TRUE(practice.has_value());
  ASSERT_EQ(practice->results.racers.size(), 1u);
  EXPECT_GT(practice->results.racers[0].pieces, 0) << "the bot played its second game too";
  // Its game ended at the time limit on the server too (the bot's clock went on past its game's end).
  EXPECT_EQ(practice->results.racers[0].status, protocol::RacerStatus::kFinished) << received_reason(rocket);
  EXPECT_EQ(leaderboard(rocket), board);

  // Another player cannot spend rocket's games: the entrant is held by rocket-bot's key (whatever the case).
  BotClient thief("thief", server.port());
  ASSERT_TRUE(thief.connect());
  thief.session().send(protocol::LadderEnter{"ROCKET", true, std::nullopt});
  ASSERT_TRUE(BotClient::pump_until(
      {&thief}, [&] { return !notices_about(thief, protocol::MessageId::kLadderEnter).empty(); }, 10s));
  EXPECT_EQ(notices_about(thief, protocol::MessageId::kLadderEnter),
            std::vector<std::string>{"entrant 'ROCKET' is held by another player's key (pick another name)"});
  EXPECT_FALSE(thief.session().room().has_value());
  const server::ServerStats stats = server.stop();
  ASSERT_TRUE(stats.ladder.has_value());
  EXPECT_EQ(stats.ladder->ranked_games, 1u);
  EXPECT_EQ(stats.ladder->practice_games, 1u);
}

TEST(ServerLadder, RankedGamesRunOutAndTheLadderSurvivesARestart) {
  ServerFixture server(contest_options(2));
  std::optional<protocol::Ladder> before;
  {
    BotClient rocket("rocket-bot", server.port(), {}, kPpsMilli);
    ASSERT_TRUE(rocket.connect());
    ASSERT_TRUE(play(rocket, "rocket", true).has_value());
    ASSERT_TRUE(play(rocket, "rocket", true).has_value());
    rocket.session().send(protocol::LadderEnter{"rocket", true, std::nullopt});
    ASSERT_TRUE(BotClient::pump_until(
        {&rocket}, [&] { return !notices_about(rocket, protocol::MessageId::kLadderEnter).empty(); }, 10s));
    EXPECT_EQ(
        notices_about(rocket, protocol::MessageId::kLadderEnter),
        std::vector<std::string>{"entrant 'rocket' has played its 2 ranked games (practice games are unlimited)"});
    before = leaderboard(rocket);
    ASSERT_TRUE(before.has_value());
    ASSERT_EQ(before->rows.size(), 1u);
    EXPECT_EQ(before->rows[0].ranked_played, 2);
    EXPECT_EQ(before->rows[0].best.size(), 2u);
    rocket.session().close();
  }
  ASSERT_TRUE(server.restart());
  BotClient rocket("rocket-bot", server.port(), {}, kPpsMilli);
  ASSERT_TRUE(rocket.connect());
  EXPECT_EQ(leaderboard(rocket), before);
  rocket.session().send(protocol::LadderEnter{"rocket", true, std::nullopt});
  ASSERT_TRUE(BotClient::pump_until(
      {&rocket}, [&] { return !notices_about(rocket, protocol::MessageId::kLadderEnter).empty(); }, 10s));
  EXPECT_EQ(notices_about(rocket, protocol::MessageId::kLadderEnter)[0],
            "entrant 'rocket' has played its 2 ranked games (practice games are unlimited)");
}

TEST(ServerLadder, AServerWithoutAContestSaysSo) {
  ServerFixture server;
  BotClient c("c", server.port());
  ASSERT_TRUE(c.connect());
  c.session().send(protocol::LadderEnter{"rocket", true, protocol::LadderSecret{1, 2}});
  c.session().send(protocol::ListLadder{});
  ASSERT_TRUE(BotClient::pump_until(
      {&c}, [&] { return !notices_about(c, protocol::MessageId::kListLadder).empty(); }, 10s));
  EXPECT_EQ(notices_about(c, protocol::MessageId::kLadderEnter),
            std::vector<std::string>{"this server runs no contest ladder"});
  EXPECT_EQ(notices_about(c, protocol::MessageId::kListLadder),
            std::vector<std::string>{"this server runs no contest ladder"});
  EXPECT_FALSE(c.session().room().has_value());
}

}  // namespace
}  // namespace sr::test
