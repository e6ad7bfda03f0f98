// stackrace-server --database: the server's replay writer and replay service on a store in PostgreSQL (in this
// suite because it is the one that has a PostgreSQL server; tests/server has the same on a folder).
#include "server/server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "common/replay/codec.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
#include "server/replay_service.h"
#include "server/replay_writer.h"
#include "tests/replays/store_backends/pg_test_db.h"
#include "tests/replays/test_support.h"
#include "tests/server/lobby_race_fixture.h"
#include "tests/support/status.h"

namespace sr::server {
namespace {

using namespace std::chrono_literals;

// A two-racer race as the rooms submit it: the golden race with its results to be filled in by the writer.
ReplayWriter::Job race_job(std::uint32_t race_id) {
  ReplayWriter::Job job;
  job.room_id = 1;
  job.race_id = race_id;
  job.replay = replay::load_replay_file(replay::testing::data_dir() / "race_sprint.srr").value();
  job.replay.created_unix_ms += race_id;  // another race: another replay
  for (const replay::Racer& r : job.replay.racers) {
    job.ends.push_back({r.result.stats.time_us, replay::ResultStatus::kDisconnected});
  }
  return job;
}

// Waits (the writer's thread) for the next Done.
ReplayWriter::Done next_done(ReplayWriter& writer) {
  for (int i = 0; i < 3000; ++i) {
    auto done = writer.collect();
    if (!done.empty()) return done.front();
    std::this_thread::sleep_for(10ms);
  }
  ADD_FAILURE() << "the writer wrote nothing in 30 s";
  return {};
}

// Waits (the service's worker) for its next answers.
std::vector<ReplayService::Finished> next_answers(ReplayService& service) {
  for (int i = 0; i < 3000; ++i) {
    auto answers = service.collect();
    if (!answers.empty()) return answers;
    std::this_thread::sleep_for(10ms);
  }
  ADD_FAILURE() << "the service answered nothing in 30 s";
  return {};
}

TEST(ServerPg, TheWriterStoresRacesThatTheServiceListsAndSends) {
  replay::testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  ReplayWriter writer;
  ASSERT_EQ(sr::test::problem_of(writer.start(db.locator())), std::nullopt);
  writer.submit(race_job(1));
  const ReplayWriter::Done done = next_done(writer);
  ASSERT_TRUE(done.game_id) << done.error;
  writer.stop();
  EXPECT_EQ(writer.written(), 1u);

  ReplayService service;
  ASSERT_EQ(sr::test::problem_of(service.open(db.locator())), std::nullopt);
  ASSERT_TRUE(service.asynchronous()) << "a database's service answers on its own thread";
  lobby_test::RecordingOutbox outbox;
  protocol::ListGames ask;
  ask.limit = 10;
  service.list(7, "alice", ask, outbox);
  std::vector<ReplayService::Finished> answers = next_answers(service);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0].to, 7u);
  ASSERT_TRUE(answers[0].list);
  ASSERT_EQ(answers[0].list->games.size(), 1u);
  EXPECT_EQ(answers[0].list->games[0].game_id, game_id_number(*done.game_id));

  protocol::DownloadReplay download;
  download.game_id = game_id_number(*done.game_id);
  service.request_download(7, download, outbox);
  answers = next_answers(service);
  ASSERT_EQ(answers.size(), 1u);
  const std::optional<std::size_t> sent = ReplayService::send_download(answers[0], outbox, protocol::kMaxReplayBytes);
  ASSERT_TRUE(sent.has_value());
  EXPECT_GT(*sent, 0u);
  std::vector<std::uint8_t> bytes;
  for (const auto& chunk : outbox.of<protocol::ReplayChunk>(7))
    bytes.insert(bytes.end(), chunk.data.begin(), chunk.data.end());
  EXPECT_EQ(bytes.size(), *sent);
  EXPECT_EQ(replay::content_id(bytes), *done.game_id);
  // Over the budget: not sent, and nullopt (the lobby counts the refusal).
  EXPECT_EQ(ReplayService::send_download(answers[0], outbox, 10), std::nullopt);

  download.game_id = 0x0123456789abcdefull;
  service.request_download(7, download, outbox);
  answers = next_answers(service);
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(ReplayService::send_download(answers[0], outbox, protocol::kMaxReplayBytes), std::optional<std::size_t>(0));
  ASSERT_EQ(outbox.of<protocol::ReplayUnavailable>(7).size(), 2u);
  EXPECT_EQ(outbox.of<protocol::ReplayUnavailable>(7).back().text, "no replay with that id");
}

// A database that does not answer (its games table locked by someone else) holds up the service's worker, never the
// caller: list() returns with the answer not yet there, and it comes once the database answers.
TEST(ServerPg, TheServiceAsksTheDatabaseOffTheGameLoop) {
  replay::testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  ReplayService service;
  ASSERT_EQ(sr::test::problem_of(service.open(db.locator())), std::nullopt);
  replay::pg::Conn locker = db.connect();
  ASSERT_TRUE(locker.exec("BEGIN").ok());
  ASSERT_TRUE(locker.exec("LOCK TABLE games IN ACCESS EXCLUSIVE MODE").ok());
  lobby_test::RecordingOutbox outbox;
  protocol::ListGames ask;
  ask.limit = 10;
  service.list(7, "alice", ask, outbox);
  EXPECT_TRUE(outbox.of<protocol::GameList>(7).empty()) << "nothing is sent from the caller's thread";
  ASSERT_TRUE(locker.exec("COMMIT").ok());
  const std::vector<ReplayService::Finished> answers = next_answers(service);
  ASSERT_EQ(answers.size(), 1u);
  ASSERT_TRUE(answers[0].list);
  EXPECT_TRUE(answers[0].list->games.empty());
}

// The database's connection dropped between two races (a restart, a failover): that race's write fails with a
// reason for the racers, on the writer's thread; the next race is stored on a new connection.
TEST(ServerPg, ADroppedDatabaseFailsOneWriteWithAReasonAndTheNextIsStored) {
  replay::testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  ReplayWriter writer;
  ASSERT_EQ(sr::test::problem_of(writer.start(db.locator())), std::nullopt);
  writer.submit(race_job(1));
  ASSERT_TRUE(next_done(writer).game_id);
  ASSERT_TRUE(db.admin()
                  .query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND "
                         "application_name = 'stackrace'",
                         {db.name()})
                  .ok());
  writer.submit(race_job(2));
  const ReplayWriter::Done failed = next_done(writer);
  ASSERT_FALSE(failed.game_id);
  EXPECT_EQ(failed.reason, "the server's database could not store it") << failed.error;
  writer.submit(race_job(3));
  const ReplayWriter::Done stored = next_done(writer);
  EXPECT_TRUE(stored.game_id) << stored.error;
  writer.stop();
  EXPECT_EQ(writer.written(), 2u);
  EXPECT_EQ(writer.failed(), 1u);
}

// # The spool: a database that does not take a race never loses it.

// A spool folder of the test's own.
struct SpoolDir {
  std::filesystem::path path;
  explicit SpoolDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("sr_spool_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
  }
  ~SpoolDir() { std::filesystem::remove_all(path); }
  [[nodiscard]] std::size_t files() const {
    std::size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(path)) n += e.is_regular_file() ? 1 : 0;
    return n;
  }
};

ReplayWriter::Options spooling(const SpoolDir& spool) {
  ReplayWriter::Options o;
  o.spool_dir = spool.path;
  o.spool_retry_ms = 20;
  o.store_wait_ms = 500;
  return o;
}

// Closes the writer's connections, so that it comes back on a new one (which takes the database's new defaults).
void drop_connections(replay::testing::PgTestDb& db) {
  ASSERT_TRUE(db.admin()
                  .query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND "
                         "application_name = 'stackrace'",
                         {db.name()})
                  .ok());
}

void set_read_only(replay::testing::PgTestDb& db, bool on) {
  ASSERT_TRUE(
      db.admin()
          .exec(("ALTER DATABASE " + db.name() + " SET default_transaction_read_only = " + (on ? "on" : "off")).c_str())
          .ok());
  drop_connections(db);
}

// Waits (the writer's thread, retrying every 20 ms) until the spool is empty.
bool spool_drains(const ReplayWriter& writer) {
  for (int i = 0; i < 3000 && writer.spool_pending() > 0; ++i) std::this_thread::sleep_for(10ms);
  return writer.spool_pending() == 0;
}

// The stored games' ids in the order the database received them (each add is one transaction: xmin grows).
std::vector<std::string> ids_in_arrival_order(replay::testing::PgTestDb& db) {
  replay::pg::Conn c = db.connect();
  auto rows = c.query("SELECT id FROM games ORDER BY xmin::text::bigint", {});
  EXPECT_TRUE(rows.ok()) << (rows.ok() ? "" : rows.error());
  std::vector<std::string> out;
  for (int i = 0; rows.ok() && i < rows.value().size(); ++i) out.push_back(rows.value().text_at(i, 0));
  return out;
}

std::string id_of(const ReplayWriter::Job& job) {
  ReplayWriter::Job copy = job;
  EXPECT_TRUE(ReplayWriter::complete(copy).ok());
  return replay::content_id(replay::encode_binary(copy.replay));
}

// A database that refuses writes (read-only): the races go to the spool, durable, with the ids they will have; once
// it takes writes again they are stored in the order they ended, each once, and the spool is empty.
TEST(ServerPgSpool, RacesARefusingDatabaseDoesNotTakeWaitInTheSpoolAndArriveInOrderOnce) {
  replay::testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  SpoolDir spool("order");
  ReplayWriter writer;
  ASSERT_EQ(sr::test::problem_of(writer.start(db.locator(), spooling(spool))), std::nullopt);
  writer.submit(race_job(1));
  const ReplayWriter::Done first = next_done(writer);
  ASSERT_TRUE(first.game_id) << first.error;
  EXPECT_FALSE(first.spooled);

  set_read_only(db, true);
  std::vector<std::string> spooled_ids;
  for (std::uint32_t race = 2; race <= 4; ++race) {
    writer.submit(race_job(race));
    const ReplayWriter::Done done = next_done(writer);
    ASSERT_TRUE(done.game_id) << done.error;
    EXPECT_TRUE(done.spooled);
    EXPECT_EQ(*done.game_id, id_of(race_job(race)));
    EXPECT_TRUE(done.reason.empty());
    spooled_ids.push_back(*done.game_id);
  }
  EXPECT_EQ(writer.spooled(), 3u);
  EXPECT_EQ(writer.spool_pending(), 3u);
  EXPECT_EQ(spool.files(), 3u) << "each spooled race is a file of its own";
  EXPECT_EQ(writer.failed(), 0u);

  set_read_only(db, false);
  ASSERT_TRUE(spool_drains(writer));
  writer.submit(race_job(5));
  const ReplayWriter::Done last = next_done(writer);
  ASSERT_TRUE(last.game_id) << last.error;
  EXPECT_FALSE(last.spooled) << "with the spool empty, races go straight to the database again";
  writer.stop();

  std::vector<std::string> expected = {*first.game_id};
  expected.insert(expected.end(), spooled_ids.begin(), spooled_ids.end());
  expected.push_back(*last.game_id);
  EXPECT_EQ(ids_in_arrival_order(db), expected);
  EXPECT_EQ(writer.written(), 5u);
  EXPECT_EQ(spool.files(), 0u);
}

// A database that does not answer (a table locked by someone else: the write waits) gives way to the spool within
// store_wait_ms, so the race's results are not held past their bound; the race is stored once the lock goes.
TEST(ServerPgSpool, ADatabaseThatDoesNotAnswerGivesWayToTheSpool) {
  replay::testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  SpoolDir spool("slow");
  ReplayWriter writer;
  ASSERT_EQ(sr::test::problem_of(writer.start(db.locator(), spooling(spool))), std::nullopt);
  replay::pg::Conn locker = db.connect();
  ASSERT_TRUE(locker.exec("BEGIN").ok());
  ASSERT_TRUE(locker.exec("LOCK TABLE games IN ACCESS EXCLUSIVE MODE").ok());
  writer.submit(race_job(1));
  const ReplayWriter::Done done = next_done(writer);
  ASSERT_TRUE(done.game_id) << done.error;
  EXPECT_TRUE(done.spooled);
  EXPECT_LT(done.wait_us, 5'000'000) << "within the 5 s that results wait for their replay";
  ASSERT_TRUE(locker.exec("COMMIT").ok());
  ASSERT_TRUE(spool_drains(writer));
  writer.stop();
  EXPECT_EQ(ids_in_arrival_order(db), std::vector<std::string>{*done.game_id});
}

// A server stopped while the database was away leaves its spool; the next one started on the same data directory
// stores it first. A file in the spool that does not decode is put aside, not in the way of the others.
TEST(ServerPgSpool, TheNextStartStoresWhatTheLastOneSpooledAndPutsAsideWhatDoesNotDecode) {
  replay::testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  SpoolDir spool("restart");
  std::vector<std::string> spooled_ids;
  {
    ReplayWriter writer;
    ASSERT_EQ(sr::test::problem_of(writer.start(db.locator(), spooling(spool))), std::nullopt);
    set_read_only(db, true);
    for (std::uint32_t race = 1; race <= 2; ++race) {
      writer.submit(race_job(race));
      const ReplayWriter::Done done = next_done(writer);
      ASSERT_TRUE(done.spooled) << done.error;
      spooled_ids.push_back(*done.game_id);
    }
    writer.stop();
    EXPECT_EQ(writer.spool_pending(), 2u);
  }
  EXPECT_EQ(spool.files(), 2u);
  const std::vector<std::uint8_t> junk = {'n', 'o', 't', ' ', 'a', ' ', 'r', 'e', 'p', 'l', 'a', 'y'};
  ASSERT_TRUE(replay::write_file_atomic(spool.path / "00000000000000000000-0000000000000000.srr", junk));
  set_read_only(db, false);

  ReplayWriter writer;
  ASSERT_EQ(sr::test::problem_of(writer.start(db.locator(), spooling(spool))), std::nullopt);
  EXPECT_EQ(writer.spool_pending(), 3u);
  ASSERT_TRUE(spool_drains(writer));
  writer.submit(race_job(3));
  const ReplayWriter::Done next = next_done(writer);
  ASSERT_TRUE(next.game_id) << next.error;
  EXPECT_FALSE(next.spooled);
  writer.stop();
  spooled_ids.push_back(*next.game_id);
  EXPECT_EQ(ids_in_arrival_order(db), spooled_ids);
  EXPECT_EQ(spool.files(), 0u);
  EXPECT_TRUE(std::filesystem::exists(spool.path / "unreadable" / "00000000000000000000-0000000000000000.srr"));
}

// A whole server started with --database: the store goes to the database, and data_dir (which it then does not make
// for the store) is still made for the ladder and the names.
TEST(ServerPg, AServerWithADatabaseStartsAndKeepsNoReplayFiles) {
  replay::testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("sr_server_pg_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ServerOptions o;
  o.bind = "127.0.0.1";
  o.port = 0;
  o.data_dir = dir / "data";
  o.database = db.locator();
  {
    Server server(o);
    ASSERT_EQ(sr::test::problem_of(server.start()), std::nullopt);
  }
  EXPECT_TRUE(std::filesystem::is_directory(o.data_dir));
  EXPECT_FALSE(std::filesystem::exists(o.data_dir / replay::ReplayStore::kIndexFile));
  replay::pg::Conn c = db.connect();
  auto tables = c.query("SELECT count(*) FROM games", {});
  EXPECT_TRUE(tables.ok()) << (tables.ok() ? "" : tables.error());
  std::filesystem::remove_all(dir);
}

TEST(ServerPg, AnUnreachableDatabaseIsRefusedAtStartUpWithoutItsPassword) {
  ReplayWriter writer;
  const auto started = writer.start("postgresql://racer:s3cr3tpw@127.0.0.1:1/games");
  ASSERT_FALSE(started);
  EXPECT_NE(started.error().find("cannot connect to the database at 127.0.0.1:1/games"), std::string::npos)
      << started.error();
  EXPECT_EQ(started.error().find("s3cr3tpw"), std::string::npos) << started.error();
}

}  // namespace
}  // namespace sr::server
