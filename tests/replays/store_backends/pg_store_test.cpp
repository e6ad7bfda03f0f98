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

Replay golden(const char* file) { return load_replay_file(testing::data_dir() / file).value(); }

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
  const std::string good = store.value().add(golden("mode_sprint.srr")).value();
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
  ASSERT_TRUE(store.value().add(golden("mode_sprint.srr")).ok());
  auto killed = db.admin().query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'stackrace' "
      "AND pid <> pg_backend_pid()",
      {db.name()});
  ASSERT_TRUE(killed.ok()) << killed.error();
  ASSERT_EQ(killed.value().size(), 1);
  Result<std::string> failed = store.value().add(golden("mode_ultra.srr"));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().kind, ErrorKind::kIo);
  EXPECT_NE(failed.error().message.find("cannot store game "), std::string::npos) << failed.error().message;
  Result<std::string> again = store.value().add(golden("mode_ultra.srr"));
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
  ASSERT_TRUE(store.value().add(golden("mode_sprint.srr")).ok());
  ASSERT_TRUE(db.admin().exec(("ALTER DATABASE " + db.name() + " SET default_transaction_read_only = on").c_str()));
  // New sessions only: the store's next one (after this drop) is read-only.
  ASSERT_TRUE(db.admin()
                  .query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND "
                         "application_name = 'stackrace'",
                         {db.name()})
                  .ok());
  (void)store.value().add(golden("mode_ultra.srr"));  // may fail on the dropped connection
  Result<std::string> refused = store.value().add(golden("mode_marathon.srr"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("read-only"), std::string::npos) << refused.error().message;
  EXPECT_FALSE(store.value().recent({}).value().empty());
  Result<ReplayStore> reopened = ReplayStore::open(db.locator());
  ASSERT_FALSE(reopened.ok());
  EXPECT_NE(reopened.error().message.find("read-only"), std::string::npos) << reopened.error().message;
}

}  // namespace
}  // namespace sr::replay
