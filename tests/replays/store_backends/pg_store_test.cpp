// The PostgreSQL store's own cases: its schema's versions, two servers starting at once, and a database that is
// unreachable, newer than the build, spoiled by hand or dropped mid-write. What it shares with the folder store is
// in store_contract_test.cpp.
#include "replays/store/pg_store.h"

#include <gtest/gtest.h>

#include <thread>

#include "common/replay/codec.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
#include "tests/replays/store_backends/pg_test_db.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

Replay pg_golden(const char* file) { return load_replay_file(testing::data_dir() / file).value(); }

std::int64_t schema_version(pg::Conn& c) {
  auto v = c.query("SELECT version FROM schema_version", {});
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error());
  EXPECT_EQ(v.ok() ? v.value().size() : 0, 1);
  return v.ok() ? v.value().int_at(0, 0) : -1;
}

TEST(PgStore, AnEmptyDatabaseGetsTheCurrentSchemaOnce) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  ASSERT_TRUE(ReplayStore::open(db.locator()).ok());
  pg::Conn c = db.connect();
  EXPECT_EQ(schema_version(c), PgStore::kSchemaVersion);
  // Opening again changes nothing (the migrations are not run twice).
  Result<ReplayStore> again = ReplayStore::open(db.locator());
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_EQ(schema_version(c), PgStore::kSchemaVersion);
  EXPECT_TRUE(again.value().in_database());
  EXPECT_TRUE(again.value().dir().empty());
  EXPECT_NE(again.value().where().find("/" + db.name()), std::string::npos) << again.value().where();
}

// Servers of a fleet that start together against a new database: the advisory lock makes one of them create the
// schema and the others find it made.
TEST(PgStore, StoresOpeningAtOnceCreateTheSchemaOnce) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  constexpr int kStores = 6;
  std::vector<std::string> errors(kStores);
  std::vector<std::thread> threads;
  for (int i = 0; i < kStores; ++i) {
    threads.emplace_back([&, i] {
      Result<ReplayStore> s = ReplayStore::open(db.locator());
      if (!s.ok()) errors[static_cast<std::size_t>(i)] = s.error().describe();
    });
  }
  for (auto& t : threads) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  pg::Conn c = db.connect();
  EXPECT_EQ(schema_version(c), PgStore::kSchemaVersion);
}

// Version 1 of the schema as it shipped, frozen here (never edit: a newer migration must take exactly this forward).
constexpr const char* kShippedVersion1 = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version (version) VALUES (1);
CREATE TABLE games (
  id TEXT COLLATE "C" PRIMARY KEY, replay BYTEA NOT NULL, created_unix_ms BIGINT NOT NULL, place TEXT NOT NULL,
  mode TEXT COLLATE "C" NOT NULL, limit_kind TEXT COLLATE "C" NOT NULL, limit_value BIGINT NOT NULL,
  goal TEXT COLLATE "C" NOT NULL, rules_version BIGINT NOT NULL, racers INTEGER NOT NULL, verified BOOLEAN NOT NULL,
  verify_note TEXT NOT NULL);
CREATE TABLE results (
  game_id TEXT COLLATE "C" NOT NULL REFERENCES games(id) ON DELETE CASCADE, racer INTEGER NOT NULL,
  player TEXT COLLATE "C" NOT NULL, status TEXT COLLATE "C" NOT NULL, top_out TEXT NOT NULL, time_us BIGINT NOT NULL,
  lines BIGINT NOT NULL, score BIGINT NOT NULL, pieces BIGINT NOT NULL, PRIMARY KEY (game_id, racer));
CREATE INDEX games_created ON games(created_unix_ms, id);
CREATE INDEX results_player ON results(player);
)sql";

// A database that a build of schema version 1 filled, opened by this build: migrated to the current version with
// every game, result and replay byte kept; its results, recorded before keys, read as keyless (version 2's key_id),
// and new games record their keys.
TEST(PgStore, ADatabaseOfVersion1IsMigratedWithItsGamesKept) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  pg::Conn c = db.connect();
  ASSERT_TRUE(c.exec(kShippedVersion1));
  const Replay sprint = pg_golden("mode_sprint.srr");
  const std::vector<std::uint8_t> bytes = encode_binary(sprint);
  const std::string id = content_id(bytes);
  ASSERT_TRUE(c.query("INSERT INTO games VALUES ($1, $2::bytea, $3::bigint, $4, 'sprint', 'lines', 40, 'time', "
                      "$5::bigint, 1, true, 'verified 1 racer')",
                      {id, pg::Param::bytes(bytes), sprint.created_unix_ms, sprint.place,
                       static_cast<std::int64_t>(sprint.rules_version)})
                  .ok());
  const RacerResult& r = sprint.racers[0].result;
  ASSERT_TRUE(c.query("INSERT INTO results VALUES ($1, 0, 'sprinter', 'finished', 'none', $2::bigint, $3::bigint, "
                      "$4::bigint, $5::bigint)",
                      {id, r.stats.time_us, static_cast<std::int64_t>(r.stats.lines),
                       static_cast<std::int64_t>(r.stats.score), static_cast<std::int64_t>(r.stats.pieces)})
                  .ok());

  Result<ReplayStore> store = ReplayStore::open(db.locator());
  ASSERT_TRUE(store.ok()) << store.error().describe();
  EXPECT_EQ(schema_version(c), PgStore::kSchemaVersion);
  const std::vector<StoredGame> games = store.value().recent({}).value();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].id, id);
  EXPECT_EQ(games[0].mode, engine::ModeKind::kSprint);
  EXPECT_TRUE(games[0].verified);
  ASSERT_EQ(games[0].results.size(), 1u);
  EXPECT_EQ(games[0].results[0].player, "sprinter");
  EXPECT_EQ(games[0].results[0].time_us, r.stats.time_us);
  EXPECT_EQ(games[0].results[0].key_id, "");
  EXPECT_EQ(decode_binary(store.value().load(id).value()).value(), sprint);
  const std::vector<BestResult> best = store.value().best({}).value();
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].game_id, id);
  // And it takes new games, with their keys, as a new database does.
  Replay keyed = pg_golden("mode_ultra.srr");
  keyed.racers[0].key = RacerKey{};
  keyed.racers[0].key->fill(7);
  EXPECT_TRUE(store.value().add(keyed).ok());
  EXPECT_EQ(store.value().add(sprint).value(), id);
  const std::vector<StoredGame> now = store.value().recent({}).value();
  ASSERT_EQ(now.size(), 2u);
  for (const StoredGame& g : now) {
    EXPECT_EQ(g.results[0].key_id.size(), g.id == id ? 0u : 8u) << g.id;
  }
}

// A database of version 2 (version 1 as shipped, then migration 2, which has shipped too: frozen), filled by hand
// with two sprints and two ultras, opened by this build: migration 3 fills the leaderboard's columns from the games,
// so the bests read from its index are the ones version 2 gave (the faster sprint, the higher ultra score, an
// unverified game never), and one player's bests agree with every player's.
TEST(PgStore, ADatabaseOfVersion2IsMigratedWithItsBestsKept) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  pg::Conn c = db.connect();
  ASSERT_TRUE(c.exec(kShippedVersion1));
  ASSERT_TRUE(c.exec(PgStore::kMigrations[1]));
  ASSERT_TRUE(c.exec("UPDATE schema_version SET version = 2"));
  const auto game = [&](const char* id, const char* mode, const char* limit, std::int64_t value, const char* goal,
                        bool verified, std::int64_t created) {
    ASSERT_TRUE(c.query("INSERT INTO games VALUES ($1, '\\x00'::bytea, $2::bigint, 'here', $3, $4, $5::bigint, $6, 1, "
                        "1, $7::boolean, '')",
                        {std::string(id), created, std::string(mode), std::string(limit), value, std::string(goal),
                         std::string(verified ? "true" : "false")})
                    .ok());
  };
  const auto result = [&](const char* id, const char* player, std::int64_t time_us, std::int64_t score) {
    ASSERT_TRUE(c.query("INSERT INTO results VALUES ($1, 0, $2, 'finished', 'none', $3::bigint, 40, $4::bigint, 100, "
                        "'')",
                        {std::string(id), std::string(player), time_us, score})
                    .ok());
  };
  game("00000000000000a1", "sprint", "lines", 40, "time", true, 1000);
  result("00000000000000a1", "slow", 90'000'000, 5000);
  game("00000000000000a2", "sprint", "lines", 40, "time", true, 2000);
  result("00000000000000a2", "fast", 60'000'000, 1000);
  game("00000000000000a3", "sprint", "lines", 40, "time", false, 3000);  // fastest, but not verified
  result("00000000000000a3", "cheat", 10'000'000, 1000);
  game("00000000000000b1", "ultra", "time", 120, "score", true, 1000);
  result("00000000000000b1", "low", 120'000'000, 20'000);
  game("00000000000000b2", "ultra", "time", 120, "score", true, 2000);
  result("00000000000000b2", "high", 120'000'000, 90'000);

  Result<ReplayStore> store = ReplayStore::open(db.locator());
  ASSERT_TRUE(store.ok()) << store.error().describe();
  EXPECT_EQ(schema_version(c), PgStore::kSchemaVersion);
  const std::vector<BestResult> best = store.value().best({}).value();
  ASSERT_EQ(best.size(), 2u);
  EXPECT_EQ(best[0].mode, engine::ModeKind::kSprint);
  EXPECT_EQ(best[0].player, "fast");
  EXPECT_EQ(best[0].time_us, 60'000'000);
  EXPECT_EQ(best[1].mode, engine::ModeKind::kUltra);
  EXPECT_EQ(best[1].player, "high");
  EXPECT_EQ(best[1].score, 90'000);
  for (const char* player : {"fast", "slow", "high", "low"}) {
    StoreQuery q;
    q.player = player;
    const std::vector<BestResult> mine = store.value().best(q).value();
    ASSERT_EQ(mine.size(), 1u) << player;
    EXPECT_EQ(mine[0].player, player);
  }
  StoreQuery cheat;
  cheat.player = "cheat";
  EXPECT_TRUE(store.value().best(cheat).value().empty());
  StoreQuery ultra;
  ultra.mode = engine::ModeKind::kUltra;
  const std::vector<BestResult> ultras = store.value().best(ultra).value();
  ASSERT_EQ(ultras.size(), 1u);
  EXPECT_EQ(ultras[0].player, "high");
  // A new, faster sprint takes the board at once (its rows carry the index's columns from the start).
  Replay sprint = pg_golden("mode_sprint.srr");
  sprint.racers[0].name = "newcomer";
  ASSERT_TRUE(store.value().add(sprint).ok());
  const std::vector<BestResult> now = store.value().best({}).value();
  ASSERT_FALSE(now.empty());
  EXPECT_EQ(now[0].player, sprint.racers[0].result.stats.time_us < 60'000'000 ? "newcomer" : "fast");
}

TEST(PgStore, ANewerSchemaIsRefusedAndLeftAlone) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  ASSERT_TRUE(ReplayStore::open(db.locator()).ok());
  pg::Conn c = db.connect();
  ASSERT_TRUE(c.query("UPDATE schema_version SET version = $1::integer", {std::int64_t{99}}).ok());
  Result<ReplayStore> s = ReplayStore::open(db.locator());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::kIo);
  EXPECT_NE(s.error().message.find("the database's schema is version 99; this build knows up to " +
                                   std::to_string(PgStore::kSchemaVersion)),
            std::string::npos)
      << s.error().message;
  EXPECT_EQ(schema_version(c), 99);
}

TEST(PgStore, AnUnreachableDatabaseIsNamedWithoutItsPassword) {
  // Port 1 on the loopback: nothing listens, the refusal is immediate.
  Result<ReplayStore> s = ReplayStore::open("postgresql://racer:s3cr3tpw@127.0.0.1:1/games");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind("cannot connect to the database at 127.0.0.1:1/games: ", 0), 0u)
      << s.error().message;
  EXPECT_EQ(s.error().message.find("s3cr3tpw"), std::string::npos) << s.error().message;
}

TEST(PgStore, AWrongPasswordIsNotRepeated) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  const char* user = std::getenv("PGUSER");
  ASSERT_NE(user, nullptr);
  Result<ReplayStore> s = ReplayStore::open("postgresql://" + std::string(user) + ":wr0ngpw@" + std::getenv("PGHOST") +
                                            ":" + std::getenv("PGPORT") + "/" + db.name());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message.rfind("cannot connect to the database at ", 0), 0u) << s.error().message;
  EXPECT_EQ(s.error().message.find("wr0ngpw"), std::string::npos) << s.error().message;
}

// A row whose bytes are not a replay (written by hand, or by a broken build): listed, but load()'s bytes do not
// decode and reindex() names it, without touching the others.
TEST(PgStore, ARowThatDoesNotDecodeIsNamedNotFatal) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  Result<ReplayStore> store = ReplayStore::open(db.locator());
  ASSERT_TRUE(store.ok());
  const std::string good = store.value().add(pg_golden("mode_sprint.srr")).value();
  pg::Conn c = db.connect();
  ASSERT_TRUE(c.query("INSERT INTO games (id, replay, created_unix_ms, place, mode, limit_kind, limit_value, goal, "
                      "rules_version, racers, verified, verify_note) VALUES ('00000000000000aa', $1::bytea, 5, '', "
                      "'sprint', 'lines', 40, 'time', 1, 0, true, '')",
                      {pg::Param::bytes({'j', 'u', 'n', 'k'})})
                  .ok());
  EXPECT_EQ(store.value().recent({}).value().size(), 2u);
  Result<std::vector<std::uint8_t>> junk = store.value().load("00000000000000aa");
  ASSERT_TRUE(junk.ok());
  EXPECT_FALSE(decode_binary(junk.value()).ok());
  Result<ReindexReport> report = store.value().reindex();
  ASSERT_TRUE(report.ok()) << report.error().describe();
  EXPECT_EQ(report.value().indexed, 1u);
  EXPECT_EQ(report.value().verified, 1u);
  ASSERT_EQ(report.value().unreadable.size(), 1u);
  EXPECT_EQ(report.value().unreadable[0].rfind("00000000000000aa: ", 0), 0u) << report.value().unreadable[0];
  EXPECT_EQ(store.value().recent({}).value().size(), 2u);
  StoreQuery one;
  one.id = good;
  EXPECT_EQ(store.value().recent(one).value().at(0).results.size(), 1u);
  // A folder store has no rows of its own to reconcile: nothing to do.
  EXPECT_EQ(store.value().reconcile().value().summary(), "files and index agree");
}

// The server's connection killed between two writes (a restart of the database, a failover): the write in flight
// fails with a clear error, nothing is half stored, and the next write reconnects.
TEST(PgStore, ADroppedConnectionFailsOneWriteAndTheNextReconnects) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  Result<ReplayStore> store = ReplayStore::open(db.locator());
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store.value().add(pg_golden("mode_sprint.srr")).ok());
  auto killed = db.admin().query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'stackrace' "
      "AND pid <> pg_backend_pid()",
      {db.name()});
  ASSERT_TRUE(killed.ok()) << killed.error();
  ASSERT_EQ(killed.value().size(), 1);
  Result<std::string> failed = store.value().add(pg_golden("mode_ultra.srr"));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::kIo);
  EXPECT_NE(failed.error().message.find("cannot store game "), std::string::npos) << failed.error().message;
  Result<std::string> again = store.value().add(pg_golden("mode_ultra.srr"));
  ASSERT_TRUE(again.ok()) << again.error().describe();
  EXPECT_EQ(store.value().recent({}).value().size(), 2u);
}

// A database that refuses writes (read-only: a standby after a failover, an operator's lock): add() says so, reads
// still work, and a store opened then is refused at start-up.
TEST(PgStore, AReadOnlyDatabaseRefusesTheWriteClearly) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  Result<ReplayStore> store = ReplayStore::open(db.locator());
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store.value().add(pg_golden("mode_sprint.srr")).ok());
  ASSERT_TRUE(db.admin().exec(("ALTER DATABASE " + db.name() + " SET default_transaction_read_only = on").c_str()));
  // New sessions only: the store's next one (after this drop) is read-only.
  ASSERT_TRUE(db.admin()
                  .query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND "
                         "application_name = 'stackrace'",
                         {db.name()})
                  .ok());
  (void)store.value().add(pg_golden("mode_ultra.srr"));  // may fail on the dropped connection
  Result<std::string> refused = store.value().add(pg_golden("mode_marathon.srr"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("read-only"), std::string::npos) << refused.error().message;
  EXPECT_FALSE(store.value().recent({}).value().empty());
  Result<ReplayStore> reopened = ReplayStore::open(db.locator());
  ASSERT_FALSE(reopened.ok());
  EXPECT_NE(reopened.error().message.find("read-only"), std::string::npos) << reopened.error().message;
}

}  // namespace
}  // namespace sr::replay

namespace sr::replay {
namespace {

// What the server prints of --database: the password (in the user part or the query) replaced, the rest as given.
TEST(PgLocator, RedactsThePasswordAndOnlyIt) {
  EXPECT_EQ(pg::redact_locator("postgresql://racer:s3cr3t@db.example:5432/games"),
            "postgresql://racer:***@db.example:5432/games");
  EXPECT_EQ(pg::redact_locator("postgres://racer@db.example/games"), "postgres://racer@db.example/games");
  EXPECT_EQ(pg::redact_locator("postgresql:///games?sslmode=require&password=s3cr3t"),
            "postgresql:///games?sslmode=require&password=***");
  EXPECT_EQ(pg::redact_locator("postgresql://a:p%40ss@h/d"), "postgresql://a:***@h/d");
  EXPECT_TRUE(pg::is_locator("postgres://h/d"));
  EXPECT_FALSE(pg::is_locator("/var/lib/stackrace"));
  EXPECT_FALSE(pg::is_locator("postgresql:"));
}

}  // namespace
}  // namespace sr::replay
