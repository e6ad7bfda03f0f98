// stackrace-server --database: the server's replay writer and replay service on a store in PostgreSQL (in this
// suite because it is the one that has a PostgreSQL server; tests/server has the same on a folder).
#include "server/server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

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
  lobby_test::RecordingOutbox outbox;
  protocol::ListGames ask;
  ask.limit = 10;
  service.list(7, "alice", ask, outbox);
  const auto lists = outbox.of<protocol::GameList>(7);
  ASSERT_EQ(lists.size(), 1u);
  ASSERT_EQ(lists[0].games.size(), 1u);
  EXPECT_EQ(lists[0].games[0].game_id, game_id_number(*done.game_id));

  protocol::DownloadReplay download;
  download.game_id = game_id_number(*done.game_id);
  const std::optional<std::size_t> sent = service.download(7, download, outbox);
  ASSERT_TRUE(sent.has_value());
  EXPECT_GT(*sent, 0u);
  std::vector<std::uint8_t> bytes;
  for (const auto& chunk : outbox.of<protocol::ReplayChunk>(7))
    bytes.insert(bytes.end(), chunk.data.begin(), chunk.data.end());
  EXPECT_EQ(bytes.size(), *sent);
  EXPECT_EQ(replay::content_id(bytes), *done.game_id);

  download.game_id = 0x0123456789abcdefull;
  EXPECT_EQ(service.download(7, download, outbox), std::optional<std::size_t>(0));
  EXPECT_EQ(outbox.of<protocol::ReplayUnavailable>(7).size(), 1u);
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
