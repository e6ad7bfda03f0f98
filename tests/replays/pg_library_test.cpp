// libpq is loaded when a database is first opened (replays/store/pg_db.h): a program that reads and verifies files,
// or keeps its store in a folder, never maps it (it and the libraries it needs cost every start 3.4 ms), and a machine
// without it gets a sentence that names it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "replays/store/file_io.h"
#include "replays/store/pg_db.h"
#include "replays/store/replay_store.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

bool libpq_mapped() {
  std::ifstream maps("/proc/self/maps");
  std::stringstream text;
  text << maps.rdbuf();
  return text.str().find("/libpq.so") != std::string::npos;
}

// Each ctest test runs in a process of its own (gtest_discover_tests), so nothing before this one opened a database.
TEST(PgLibrary, IsLoadedOnlyWhenADatabaseIsFirstOpened) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("sr_pg_library_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    Result<ReplayStore> store = ReplayStore::open(dir, true);
    ASSERT_TRUE(store.ok()) << store.error().describe();
    Result<Replay> sprint = load_replay_file(testing::data_dir() / "mode_sprint.srr");
    ASSERT_TRUE(sprint.ok());
    ASSERT_TRUE(store.value().add(sprint.value()).ok());
    ASSERT_EQ(store.value().recent({}).value().size(), 1u);
  }
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(libpq_mapped()) << "libpq was loaded though no database was opened";

  // Nobody listens on port 1 of this machine: the connection is refused, after libpq was loaded to try it.
  auto refused = pg::Conn::connect("postgresql://stackrace@127.0.0.1:1/none", 2000);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rfind("cannot connect to the database at 127.0.0.1:1/none: ", 0), 0u) << refused.error();
  EXPECT_TRUE(libpq_mapped());
}

TEST(PgLibrary, AMissingLibraryOrFunctionIsNamed) {
  EXPECT_EQ(pg::libpq_load_error(pg::kLibpqName), "");
  EXPECT_EQ(pg::libpq_load_error("libpq-not-installed.so.5"),
            "the PostgreSQL client library libpq-not-installed.so.5 cannot be loaded (libpq-not-installed.so.5: "
            "cannot open shared object file: No such file or directory); on Debian it is the package libpq5");
  // A library that loads but is not libpq: the first function looked up (in name order) is missing.
  EXPECT_EQ(pg::libpq_load_error("libm.so.6"), "the PostgreSQL client library libm.so.6 has no PQclear");
}

}  // namespace
}  // namespace sr::replay
