// What the server does with its replay store at start: a store it cannot write is refused with a sentence that says
// why, and a store left by a crash is reconciled (rows without files, files without rows, temporary files).
#include "server/server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <set>

#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
#include "tests/support/status.h"

namespace sr::server {
namespace {

namespace fs = std::filesystem;

class ServerStart : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sr_server_start_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override {
    replay::set_io_faults({});
    fs::remove_all(dir_);
  }
  ServerOptions options() const {
    ServerOptions o;
    o.bind = "127.0.0.1";
    o.port = 0;
    o.data_dir = dir_;
    return o;
  }
  fs::path dir_;
};

TEST_F(ServerStart, AReadOnlyStoreIsRefusedWithTheReason) {
  // A store that already exists: it opens (SQLite reads a read-only index), but no replay could be written.
  ASSERT_TRUE(replay::ReplayStore::open(dir_, true).ok());
  replay::set_io_faults({EROFS, 0});
  Server server(options());
  EXPECT_EQ(sr::test::problem_of(server.start()),
            "cannot write replays in " + dir_.string() + ": " + dir_.string() + " is on a read-only file system");
}

TEST_F(ServerStart, ADataDirThatCannotBeCreatedSaysWhy) {
  fs::create_directories(dir_);
  ASSERT_EQ(sr::test::problem_of(replay::write_file_atomic(dir_ / "file", std::vector<std::uint8_t>{1})), std::nullopt);
  ServerOptions o = options();
  o.data_dir = dir_ / "file" / "store";
  Server server(o);
  const auto problem = sr::test::problem_of(server.start());
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->rfind("cannot open the replay store in " + o.data_dir.string() + ": cannot create the directory " +
                               o.data_dir.string() + ": ",
                           0),
            0u)
      << *problem;
}

TEST_F(ServerStart, AStoreLeftByACrashIsReconciled) {
  {
    auto store = replay::ReplayStore::open(dir_, true);
    ASSERT_TRUE(store.ok());
    auto sprint = replay::load_replay_file(fs::path(STACKRACE_TEST_DATA) / "mode_sprint.srr");
    ASSERT_TRUE(sprint.ok());
    const std::string id = store.value().add(sprint.value()).value();
    fs::remove(dir_ / (id + ".srr"));  // a row without its file
  }
  fs::copy_file(fs::path(STACKRACE_TEST_DATA) / "tspin.srr", dir_ / "tspin.srr");  // a file without its row
  const std::string leftover = ".0123456789abcdef.srr.tmp-999999999";
  ASSERT_EQ(sr::test::problem_of(replay::write_file_atomic(dir_ / leftover, std::vector<std::uint8_t>{'S'})),
            std::nullopt);
  Server server(options());
  ASSERT_EQ(sr::test::problem_of(server.start()), std::nullopt);
  EXPECT_FALSE(fs::exists(dir_ / leftover));
  auto store = replay::ReplayStore::open(dir_);
  ASSERT_TRUE(store.ok());
  const auto games = store.value().recent({});
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games.value().size(), 1u);
  EXPECT_EQ(games.value()[0].id, "tspin");
  EXPECT_GT(server.stats().replay_disk_free_bytes, 0u) << "free space is read at start";
}

// The warning level is a threshold on statvfs's free bytes: above every disk's free space it is flagged at start, at
// zero never.
TEST_F(ServerStart, FreeSpaceBelowTheWarningLevelIsFlaggedAtStart) {
  ServerOptions low = options();
  low.writer.low_space_bytes = UINT64_MAX;
  Server warned(low);
  ASSERT_EQ(sr::test::problem_of(warned.start()), std::nullopt);
  EXPECT_TRUE(warned.stats().replay_disk_low);
  EXPECT_GT(warned.stats().replay_disk_free_bytes, 0u);
  warned.shut_down();

  ServerOptions plenty = options();
  plenty.writer.low_space_bytes = 0;
  Server calm(plenty);
  ASSERT_EQ(sr::test::problem_of(calm.start()), std::nullopt);
  EXPECT_FALSE(calm.stats().replay_disk_low);
}

// With no room counting down or racing the loop waits up to 10 ms a pass: an idle server (or one hosted inside the
// game) wakes about 100 times a second instead of 1,000.
TEST_F(ServerStart, AnIdleServerPollsSlowly) {
  Server server(options());
  ASSERT_EQ(sr::test::problem_of(server.start()), std::nullopt);
  EXPECT_EQ(server.poll_timeout_ms(), Server::kIdlePollMs);
  EXPECT_EQ(Server::kIdlePollMs, 10u);
  server.shut_down();
}

}  // namespace
}  // namespace sr::server
