// The contest ladder in PostgreSQL (server/ladder_pg_store.h; stackrace-server --contest --database): two servers on
// one database share its names and count an entrant's ranked games together; the schema is made from an empty
// database and a newer one is refused; a database that does not answer never holds up the caller, and the scores it
// refused arrive when it answers again; and two real servers with bots, one ladder.
#include "server/ladder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "tests/replays/store_backends/pg_test_db.h"
#include "tests/server/net_fixture.h"
#include "tests/support/test_keys.h"

namespace sr::server {
namespace {

using namespace std::chrono_literals;
using replay::testing::PgTestDb;

const protocol::PublicKeyBytes kRocket = test::test_key("rocket team").public_key();
const protocol::PublicKeyBytes kThief = test::test_key("thief").public_key();

LadderOptions two_ranked_games() {
  LadderOptions o;
  o.enabled = true;
  o.rules = LadderRules{2, 2};
  return o;
}

// The worker's answer to one request_enter() (30 s at most: each query is cut off after 2 s).
std::optional<LadderEntered> enter(Ladder& ladder, PlayerId player, const std::string& name,
                                   const protocol::PublicKeyBytes& key, bool ranked) {
  ladder.request_enter(player, name, key, ranked, 1'000);
  for (int i = 0; i < 3000; ++i) {
    auto answers = ladder.collect();
    if (!answers.empty()) {
      EXPECT_EQ(answers.size(), 1u);
      return answers.front();
    }
    std::this_thread::sleep_for(10ms);
  }
  ADD_FAILURE() << "the ladder answered nothing in 30 s";
  return std::nullopt;
}

// The results of a one-racer contest race as the room reports them.
protocol::RaceResults contest_results(std::uint32_t race_id, std::int64_t score, std::int64_t lines) {
  protocol::RaceResults results{race_id, protocol::RaceEndReason::kTimeUp, 90'000'000, {}};
  results.racers.push_back(
      {3, "bot", 1, protocol::RacerStatus::kFinished, 90'000'000, lines, score, 60, 67, 300, 0, 0});
  return results;
}

// Waits until the worker has written everything queued.
void drain(const Ladder& ladder) {
  for (int i = 0; i < 3000 && ladder.pending() > 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(ladder.pending(), 0u) << "the ladder's writes did not reach the database in 30 s";
}

// Refreshes until the board is `want` (the refresh is applied by a later collect()).
bool board_becomes(Ladder& ladder, const protocol::Ladder& want) {
  for (int i = 0; i < 300; ++i) {
    ladder.refresh();
    for (int j = 0; j < 10; ++j) {
      (void)ladder.collect();
      if (ladder.board() == want) return true;
      std::this_thread::sleep_for(10ms);
    }
  }
  return false;
}

std::int64_t count(replay::pg::Conn& c, const char* sql) {
  auto rows = c.query(sql, {});
  EXPECT_TRUE(rows.ok()) << (rows.ok() ? "" : rows.error());
  return rows.ok() ? rows.value().int_at(0, 0) : -1;
}

TEST(LadderPg, TwoServersOnOneDatabaseShareTheNamesAndTheRankedGames) {
  PgTestDb db;
  ASSERT_TRUE(db.ready());
  Ladder a(two_ranked_games());
  Ladder b(two_ranked_games());
  ASSERT_TRUE(a.open_database(db.locator(), "alpha").ok());
  ASSERT_TRUE(b.open_database(db.locator(), "bravo").ok());
  ASSERT_TRUE(a.asynchronous());

  // rocket's first ranked game, on alpha: spent, scored and stored.
  const auto first = enter(a, 1, "rocket", kRocket, true);
  ASSERT_TRUE(first.has_value());
  ASSERT_FALSE(first->refused.has_value()) << *first->refused;
  EXPECT_TRUE(first->new_entrant);
  a.started(*first, 7, 1);
  a.race_ended(7, contest_results(1, 7'200, 9));
  a.replay_written(7, 1, 0xABCu);
  EXPECT_EQ(a.board(), (protocol::Ladder{2, 2, 1, {{"rocket", 1, {{0xABC, 7'200, 9}}}}}));

  // On bravo the name is rocket's key's, whatever the case.
  const auto thief = enter(b, 2, "ROCKET", kThief, true);
  ASSERT_TRUE(thief.has_value());
  EXPECT_EQ(thief->refused, "entrant 'ROCKET' is held by another player's key (pick another name)");
  // rocket's second ranked game, on bravo, and a practice game on alpha (unlimited, ranking nowhere).
  const auto second = enter(b, 3, "Rocket", kRocket, true);
  ASSERT_TRUE(second.has_value());
  ASSERT_FALSE(second->refused.has_value()) << *second->refused;
  EXPECT_FALSE(second->new_entrant);
  EXPECT_GT(second->seq, first->seq);
  b.started(*second, 1, 1);
  b.race_ended(1, contest_results(1, 3'000, 4));
  b.replay_written(1, 1, 0xDEFu);
  const auto practice = enter(a, 1, "rocket", kRocket, false);
  ASSERT_TRUE(practice.has_value());
  ASSERT_FALSE(practice->refused.has_value()) << *practice->refused;
  a.started(*practice, 8, 1);
  a.race_ended(8, contest_results(1, 99'999, 99));
  // Two ranked games over the fleet: a third is refused on either server.
  const auto spent = enter(a, 1, "rocket", kRocket, true);
  ASSERT_TRUE(spent.has_value());
  EXPECT_EQ(spent->refused, "entrant 'rocket' has played its 2 ranked games (practice games are unlimited)");
  drain(a);
  drain(b);

  // Each server's board shows both servers' games once it has read the database again; so does a third server's.
  const protocol::Ladder both{2, 2, 1, {{"rocket", 2, {{0xABC, 7'200, 9}, {0xDEF, 3'000, 4}}}}};
  EXPECT_TRUE(board_becomes(a, both)) << "alpha never saw bravo's game";
  EXPECT_TRUE(board_becomes(b, both)) << "bravo never saw alpha's game";
  Ladder c(two_ranked_games());
  ASSERT_TRUE(c.open_database(db.locator(), "charlie").ok());
  EXPECT_EQ(c.board(), both);
  EXPECT_EQ(c.stats().practice_games, 1u);

  // What the tables hold: one entrant as first written, three games with the servers that played them.
  replay::pg::Conn look = db.connect();
  auto games = look.query("SELECT server, ranked, scored, score, lines, game_id FROM ladder_games ORDER BY seq", {});
  ASSERT_TRUE(games.ok()) << games.error();
  ASSERT_EQ(games.value().size(), 3);
  EXPECT_EQ(games.value().text_at(0, 0), "alpha");
  EXPECT_EQ(games.value().text_at(1, 0), "bravo");
  EXPECT_EQ(games.value().int_at(1, 3), 3'000);
  EXPECT_EQ(games.value().int_at(1, 5), 0xDEF);
  EXPECT_FALSE(games.value().bool_at(2, 1)) << "the practice game";
  EXPECT_EQ(games.value().int_at(2, 3), 99'999);
  EXPECT_EQ(count(look, "SELECT count(*) FROM ladder_entrants WHERE name = 'rocket'"), 1);
}

TEST(LadderPg, AFullLadderTakesNoNewNameAndAGameNeverStartedIsGivenBack) {
  PgTestDb db;
  ASSERT_TRUE(db.ready());
  LadderOptions small = two_ranked_games();
  small.max_entrants = 1;
  Ladder a(small);
  Ladder b(small);
  ASSERT_TRUE(a.open_database(db.locator(), "alpha").ok());
  ASSERT_TRUE(b.open_database(db.locator(), "bravo").ok());
  const auto first = enter(a, 1, "first", kRocket, true);
  ASSERT_TRUE(first.has_value());
  ASSERT_FALSE(first->refused.has_value());
  const auto second = enter(b, 2, "second", kThief, false);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->refused, "the ladder is full (1 entrants): enter under a name already on it");
  // The player left before the room was made: the game is not spent, so two ranked games remain.
  a.cancel(*first);
  drain(a);
  replay::pg::Conn look = db.connect();
  EXPECT_EQ(count(look, "SELECT count(*) FROM ladder_games"), 0);
  for (std::uint32_t room = 1; room <= 2; ++room) {
    const auto again = enter(b, 1, "FIRST", kRocket, true);
    ASSERT_TRUE(again.has_value());
    ASSERT_FALSE(again->refused.has_value()) << *again->refused;
    b.started(*again, room, 1);
  }
  EXPECT_EQ(b.stats().ranked_games, 2u);
  EXPECT_TRUE(enter(a, 1, "first", kRocket, true)->refused.has_value());
}

TEST(LadderPg, TheSchemaIsMadeFromAnEmptyDatabaseOnceAndANewerOneIsRefused) {
  PgTestDb db;
  ASSERT_TRUE(db.ready());
  {
    Ladder a(two_ranked_games());
    ASSERT_TRUE(a.open_database(db.locator(), "alpha").ok());
    Ladder again(two_ranked_games());
    ASSERT_TRUE(again.open_database(db.locator(), "alpha").ok()) << "opening a made schema changes nothing";
  }
  replay::pg::Conn look = db.connect();
  EXPECT_EQ(count(look, "SELECT count(*) FROM ladder_schema_version"), 1);
  EXPECT_EQ(count(look, "SELECT version FROM ladder_schema_version"), PgLadderStore::kSchemaVersion);
  ASSERT_TRUE(look.exec("UPDATE ladder_schema_version SET version = 99").ok());
  Ladder newer(two_ranked_games());
  const auto opened = newer.open_database(db.locator(), "alpha");
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("its schema is version 99; this build knows up to 1"), std::string::npos)
      << opened.error();
  EXPECT_FALSE(newer.asynchronous());
}

TEST(LadderPg, ADatabaseThatDoesNotAnswerNeverHoldsTheCallerAndGetsTheScoresLater) {
  PgTestDb db;
  ASSERT_TRUE(db.ready());
  Ladder ladder(two_ranked_games());
  ASSERT_TRUE(ladder.open_database(db.locator(), "alpha").ok());
  const auto game = enter(ladder, 1, "rocket", kRocket, true);
  ASSERT_TRUE(game.has_value());
  ASSERT_FALSE(game->refused.has_value());
  ladder.started(*game, 7, 1);

  // Another session holds both tables: every query of the ladder waits for it (each cut off after 2 s).
  replay::pg::Conn locker = db.connect();
  ASSERT_TRUE(locker.exec("BEGIN; LOCK TABLE ladder_entrants, ladder_games IN ACCESS EXCLUSIVE MODE").ok());
  ladder.request_enter(2, "other", kThief, true, 1'000);
  EXPECT_TRUE(ladder.collect().empty()) << "the answer is the worker's, never the caller's";
  ladder.race_ended(7, contest_results(1, 5'000, 6));
  ladder.replay_written(7, 1, 0x123u);
  EXPECT_EQ(ladder.board(), (protocol::Ladder{2, 2, 1, {{"rocket", 1, {{0x123, 5'000, 6}}}}}))
      << "the board has the score at once";
  std::optional<LadderEntered> refused;
  for (int i = 0; i < 3000 && !refused; ++i) {
    for (auto& a : ladder.collect()) refused = a;
    if (!refused) std::this_thread::sleep_for(10ms);
  }
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->refused, "the server could not reach its ladder: try again later");
  EXPECT_GT(ladder.pending(), 0u) << "the score and the replay wait";
  EXPECT_GE(ladder.stats().store_errors, 1u) << "counted for the metrics";
  EXPECT_GT(ladder.stats().writes_pending, 0u);

  ASSERT_TRUE(locker.exec("ROLLBACK").ok());
  drain(ladder);
  EXPECT_EQ(ladder.stats().writes_pending, 0u);
  replay::pg::Conn look = db.connect();
  EXPECT_EQ(count(look, "SELECT score FROM ladder_games WHERE scored AND game_id = 291"), 5'000);
  // A refresh read after the writes shows what the server already showed.
  EXPECT_TRUE(board_becomes(ladder, protocol::Ladder{2, 2, 1, {{"rocket", 1, {{0x123, 5'000, 6}}}}}));
}

// Two real servers (stackrace-server --contest --database) and a bot: a ranked game on each, the name held on both,
// the ranked games counted over both.
TEST(LadderPg, TwoServersWithBotsRunOneLadder) {
  PgTestDb db;
  ASSERT_TRUE(db.ready());
  const auto options = [&](const char* name) {
    ServerOptions o;
    o.lobby.server_name = name;
    o.database = db.locator();
    o.ladder = two_ranked_games();
    o.ladder.contest_seconds = 2;
    o.countdown_us = 200'000;
    return o;
  };
  test::ServerFixture alpha(options("alpha"));
  test::ServerFixture bravo(options("bravo"));
  const auto play = [](test::BotClient& c, const std::string& entrant) -> std::optional<std::uint64_t> {
    c.session().send(protocol::LadderEnter{entrant, true, std::nullopt});
    if (!test::BotClient::pump_until(
            {&c}, [&] { return c.session().race() != nullptr; }, 10s))
      return std::nullopt;
    if (!test::BotClient::pump_until(
            {&c}, [&] { return c.session().stored_replay().has_value(); }, 30s))
      return std::nullopt;
    const std::uint64_t id = *c.session().stored_replay();
    c.session().leave_room();
    if (!test::BotClient::pump_until(
            {&c}, [&] { return !c.session().room().has_value(); }, 10s))
      return std::nullopt;
    return id;
  };
  const auto refusal = [](test::BotClient& c, const std::string& entrant) -> std::string {
    c.session().send(protocol::LadderEnter{entrant, true, std::nullopt});
    std::string text;
    (void)test::BotClient::pump_until(
        {&c},
        [&] {
          for (const auto& m : c.received()) {
            const auto* n = std::get_if<protocol::Notice>(&m);
            if (n != nullptr && n->about == protocol::MessageId::kLadderEnter) text = n->text;
          }
          return !text.empty();
        },
        10s);
    return text;
  };
  test::BotClient on_alpha("rocket-bot", alpha.port(), {}, 8'000);
  ASSERT_TRUE(on_alpha.connect());
  ASSERT_TRUE(play(on_alpha, "rocket").has_value());
  test::BotClient on_bravo("rocket-bot", bravo.port(), {}, 8'000);  // the same key (the bot's name's)
  ASSERT_TRUE(on_bravo.connect());
  ASSERT_TRUE(play(on_bravo, "rocket").has_value());
  test::BotClient thief("thief", bravo.port());
  ASSERT_TRUE(thief.connect());
  EXPECT_EQ(refusal(thief, "Rocket"), "entrant 'Rocket' is held by another player's key (pick another name)");
  EXPECT_EQ(refusal(on_alpha, "rocket"),
            "entrant 'rocket' has played its 2 ranked games (practice games are unlimited)");
  const server::ServerStats a = alpha.stop();
  const server::ServerStats b = bravo.stop();
  replay::pg::Conn look = db.connect();
  EXPECT_EQ(count(look, "SELECT count(*) FROM ladder_games WHERE ranked AND scored AND game_id <> 0"), 2);
  EXPECT_EQ(count(look, "SELECT count(DISTINCT server) FROM ladder_games"), 2);
  EXPECT_EQ(count(look, "SELECT count(*) FROM games WHERE mode = 'contest'"), 2) << "and their replays";
  ASSERT_TRUE(a.ladder.has_value());
  ASSERT_TRUE(b.ladder.has_value());
}

}  // namespace
}  // namespace sr::server
