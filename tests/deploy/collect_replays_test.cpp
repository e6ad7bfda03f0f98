// deploy/collect-replays.sh: two servers' stores (made from golden replays) become one indexed store, and a second
// run copies nothing new.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/deploy/deploy_paths.h"
#include "tests/deploy/process.h"

namespace sr::test {
namespace {

namespace fs = std::filesystem;

std::size_t replay_files(const fs::path& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".srr" ? 1 : 0;
  return n;
}

ProcessResult replay_tool(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {STACKRACE_REPLAY_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

ProcessResult collect(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {(deploy_dir() / "collect-replays.sh").string(), "--replay-tool",
                                   STACKRACE_REPLAY_BIN};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_process(argv);
}

class CollectReplays : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path data = STACKRACE_TEST_DATA;
    // Server a played a solo sprint and a race; server b the same race and an ultra.
    for (const auto& [store, files] : std::vector<std::pair<fs::path, std::vector<std::string>>>{
             {a_, {"mode_sprint.srr", "race_sprint.srr"}}, {b_, {"race_sprint.srr", "mode_ultra.srr"}}}) {
      std::vector<std::string> args = {"add", "--store", store.string()};
      for (const std::string& f : files) args.push_back((data / f).string());
      const ProcessResult r = replay_tool(args);
      ASSERT_EQ(r.exit_code, 0) << r.output;
    }
    ASSERT_EQ(replay_files(a_), 2u);
    ASSERT_EQ(replay_files(b_), 2u);
  }
  TempDir root_{"stackrace-collect"};
  fs::path servers_ = root_.path() / "servers";
  fs::path a_ = servers_ / "server-a";
  fs::path b_ = servers_ / "server-b";
  fs::path all_ = root_.path() / "all";
};

TEST_F(CollectReplays, TwoStoresBecomeOneIndexedStoreWithEveryGameOnce) {
  const ProcessResult r = collect({all_.string(), a_.string(), b_.string()});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("copied 3 new replays from 2 stores (1 were already collected)"), std::string::npos)
      << r.output;
  // Whether the goldens verify is the replay tests' business; here every file must be indexed.
  EXPECT_NE(r.output.find("indexed 3 replays ("), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(", 0 unreadable"), std::string::npos) << r.output;
  EXPECT_EQ(replay_files(all_), 3u);
  EXPECT_TRUE(fs::exists(all_ / "index.sqlite"));

  const ProcessResult list = replay_tool({"list", "--store", all_.string()});
  ASSERT_EQ(list.exit_code, 0) << list.output;
  // One line per game, starting with its 16-hex-digit id.
  const std::regex game_line("^[0-9a-f]{16}  ");
  std::size_t games = 0;
  std::istringstream lines(list.output);
  for (std::string line; std::getline(lines, line);) games += std::regex_search(line, game_line) ? 1 : 0;
  EXPECT_EQ(games, 3u) << list.output;
}

TEST_F(CollectReplays, RunningAgainCopiesOnlyWhatIsNewAndSkipsTheDestination) {
  ASSERT_EQ(collect({all_.string(), a_.string(), b_.string()}).exit_code, 0);
  // A shell glob over the shared volume may include the destination itself.
  fs::create_directories(servers_ / "all");
  const ProcessResult again =
      collect({(servers_ / "all").string(), a_.string(), b_.string(), (servers_ / "all").string()});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("from 2 stores"), std::string::npos) << again.output;

  const ProcessResult second = collect({all_.string(), a_.string(), b_.string()});
  ASSERT_EQ(second.exit_code, 0) << second.output;
  EXPECT_NE(second.output.find("copied 0 new replays from 2 stores (4 were already collected)"), std::string::npos)
      << second.output;
  EXPECT_EQ(replay_files(all_), 3u);
}

TEST_F(CollectReplays, AMissingSourceOrAClashingFileFailsButCollectsTheRest) {
  // A file of the same name but other bytes (corruption) is reported and the collected copy is kept.
  ASSERT_EQ(collect({all_.string(), a_.string()}).exit_code, 0);
  fs::path clash;
  for (const auto& e : fs::directory_iterator(all_)) {
    if (e.path().extension() == ".srr" && !fs::exists(b_ / e.path().filename())) clash = e.path().filename();
  }
  ASSERT_FALSE(clash.empty());
  std::ofstream(b_ / clash) << "not the same bytes";
  const ProcessResult r = collect({all_.string(), b_.string(), (root_.path() / "nope").string()});
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("differs from the collected"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not a directory"), std::string::npos) << r.output;
  EXPECT_EQ(replay_files(all_), 3u) << "the other new replay of b was still collected";
}

TEST(CollectReplaysUsage, WithoutADestinationAndSourceItExplainsItself) {
  const ProcessResult r = run_process({(deploy_dir() / "collect-replays.sh").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("usage:"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace sr::test
