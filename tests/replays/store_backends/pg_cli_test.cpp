// stackrace-replay add / list / verify / reindex --store postgresql://...: the same commands as on a folder.
#include <gtest/gtest.h>

#include "tests/replays/cli_support.h"
#include "tests/replays/store_backends/pg_test_db.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

using testing::tool;

std::string golden_arg(const char* file) { return "'" + (testing::data_dir() / file).string() + "'"; }

TEST(PgCli, AddListVerifyAndReindexWorkOnADatabase) {
  testing::PgTestDb db;
  ASSERT_TRUE(db.ready());
  const std::string store = " --store " + db.locator();
  const auto added = tool("add" + store + " " + golden_arg("mode_sprint.srr") + " " + golden_arg("race_sprint.srr"));
  ASSERT_EQ(added.exit_code, 0) << added.out;
  EXPECT_NE(added.out.find("mode_sprint.srr -> "), std::string::npos) << added.out;
  const auto again = tool("add" + store + " " + golden_arg("mode_sprint.srr"));
  EXPECT_EQ(again.exit_code, 0) << again.out;

  const auto listed = tool("list" + store);
  ASSERT_EQ(listed.exit_code, 0) << listed.out;
  EXPECT_NE(listed.out.find("sprinter"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("ada"), std::string::npos) << listed.out;
  const auto best = tool("list --best --player sprinter" + store);
  ASSERT_EQ(best.exit_code, 0) << best.out;
  EXPECT_NE(best.out.find("by sprinter"), std::string::npos) << best.out;

  const auto verified = tool("verify" + store);
  EXPECT_EQ(verified.exit_code, 0) << verified.out;
  EXPECT_NE(verified.out.find("verified 2 of 2 replays"), std::string::npos) << verified.out;

  const auto reindexed = tool("reindex" + store);
  EXPECT_EQ(reindexed.exit_code, 0) << reindexed.out;
  EXPECT_NE(reindexed.out.find("indexed 2 replays (2 verified), 0 unreadable"), std::string::npos) << reindexed.out;
}

TEST(PgCli, AnUnreachableDatabaseIsNamedWithoutThePassword) {
  for (const char* command : {"list", "add", "verify"}) {
    const auto run = tool(std::string(command) + " --store postgresql://racer:s3cr3tpw@127.0.0.1:1/games" +
                          (std::string(command) == "add" ? " " + golden_arg("mode_sprint.srr") : ""));
    EXPECT_EQ(run.exit_code, 2) << command << ": " << run.out;
    EXPECT_NE(run.out.find("cannot connect to the database at 127.0.0.1:1/games: "), std::string::npos)
        << command << ": " << run.out;
    EXPECT_EQ(run.out.find("s3cr3tpw"), std::string::npos) << command << ": " << run.out;
  }
}

TEST(PgCli, VerifyNeedsFilesOrAStore) {
  const auto run = tool("verify");
  EXPECT_NE(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("FILE or --store"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace sr::replay
