// Runs the built stackrace-replay binary: exit codes, output formats, and every subcommand's --help.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <utility>

#include "common/replay/codec.h"
#include "replays/store/file_io.h"
#include "tests/replays/test_support.h"
#include "tests/support/run_command.h"
#include "tests/support/status.h"

namespace sr::replay {
namespace {

struct ToolRun {
  int exit_code = -1;
  std::string out;
};

// Runs the tool with `args` (already shell-quoted where needed); stderr goes to stdout.
ToolRun tool(const std::string& args) {
  const test::CommandRun r = test::run_command(std::string(STACKRACE_REPLAY_BIN) + " " + args);
  return {r.exit_code, r.output};
}

std::string data(const char* file) { return (testing::data_dir() / file).string(); }

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

class TempDir {
 public:
  TempDir() : path_(std::filesystem::temp_directory_path() / ("sr_cli_test_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

const std::regex kSummary(R"(verified (\d+) of (\d+) replays in \d+ ms)");

TEST(Cli, VerifyAllGoldensExitsZero) {
  std::string args;
  for (const auto& f : testing::golden_files()) args += " " + f.string();
  const ToolRun r = tool("verify" + args);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::smatch m;
  const std::string last = last_line(r.out);
  ASSERT_TRUE(std::regex_match(last, m, kSummary)) << last;
  EXPECT_EQ(m[1], m[2]);
  EXPECT_EQ(std::stoul(m[2]), testing::golden_files().size());
}

TEST(Cli, VerifyExitsOneOnAMismatch) {
  TempDir dir;
  Result<Replay> r = load_replay_file(data("mode_sprint.srr"));
  ASSERT_TRUE(r.ok());
  Replay tampered = r.value();
  tampered.racers[0].result.stats.score += 1;
  const auto bytes = encode_binary(tampered);
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(dir.path() / "tampered.srr", bytes)), std::nullopt);
  const ToolRun run = tool("verify " + data("mode_sprint.srr") + " " + (dir.path() / "tampered.srr").string());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_NE(run.out.find("MISMATCH"), std::string::npos);
  EXPECT_NE(run.out.find("stats.score differs"), std::string::npos) << run.out;
  std::smatch m;
  const std::string last = last_line(run.out);
  ASSERT_TRUE(std::regex_match(last, m, kSummary)) << last;
  EXPECT_EQ(m[1], "1");
  EXPECT_EQ(m[2], "2");
}

TEST(Cli, VerifyExitsTwoOnAnUnreadableFile) {
  TempDir dir;
  const std::vector<std::uint8_t> junk = {'S', 'R', 'R', 'P', 1, 0, 1, 0xFF};
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(dir.path() / "junk.srr", junk)), std::nullopt);
  const ToolRun run = tool("verify " + data("mode_sprint.srr") + " " + (dir.path() / "junk.srr").string() + " " +
                           (dir.path() / "missing.srr").string());
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.out.find("UNREADABLE"), std::string::npos);
  std::smatch m;
  const std::string last = last_line(run.out);
  ASSERT_TRUE(std::regex_match(last, m, kSummary)) << last;
  EXPECT_EQ(m[1], "1");
  EXPECT_EQ(m[2], "3");
}

TEST(Cli, BoardPrintsTheTSpinGoldenAfterPieceOne) {
  const ToolRun r = tool("board " + data("tspin.srr") + " --piece 1");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::string rows;
  for (int i = 0; i < 19; ++i) rows += "..........\n";
  rows += "GGGG......\n";
  EXPECT_EQ(r.out.substr(0, rows.size()), rows);
  EXPECT_NE(r.out.find("current: I north x=3 y=17\nhold: -\nqueue: OLJSZ\n"), std::string::npos) << r.out;
}

TEST(Cli, BoardRejectsAPieceThatNeverLocked) {
  const ToolRun r = tool("board " + data("tspin.srr") + " --piece 100000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("locked"), std::string::npos) << r.out;
  EXPECT_EQ(tool("board " + data("tspin.srr") + " --piece 1 --time-ms 5").exit_code, 2);
}

TEST(Cli, InfoShowsHeaderAndRacers) {
  const ToolRun r = tool("info " + data("race_sprint.srr"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("rules: v1"), std::string::npos);
  EXPECT_NE(r.out.find("racers: 3"), std::string::npos);
  EXPECT_NE(r.out.find("0 ada: finished at"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 bo: topped out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 cy: disconnected at"), std::string::npos) << r.out;
}

TEST(Cli, InfoShowsTheCreationDateInUtcPast2038) {
  TempDir dir;
  const std::pair<std::int64_t, const char*> cases[] = {{4'102'444'800'000, "2100-01-01 00:00:00 UTC"},
                                                        {kMaxCreatedUnixMs, "9999-12-31 23:59:59 UTC"}};
  for (const auto& [unix_ms, text] : cases) {
    Result<Replay> r = load_replay_file(data("mode_sprint.srr"));
    ASSERT_TRUE(r.ok());
    Replay late = r.value();
    late.created_unix_ms = unix_ms;
    ASSERT_EQ(sr::test::problem_of(write_file_atomic(dir.path() / "late.srr", encode_binary(late))), std::nullopt);
    const ToolRun run = tool("info " + (dir.path() / "late.srr").string());
    ASSERT_EQ(run.exit_code, 0) << run.out;
    EXPECT_NE(run.out.find(std::string("created: ") + text + "\n"), std::string::npos) << run.out;
  }
}

TEST(Cli, ExportAndImportRoundTrip) {
  TempDir dir;
  const auto json = dir.path() / "sprint.json";
  const auto back = dir.path() / "sprint.srr";
  ASSERT_EQ(tool("export --json " + data("mode_sprint.srr") + " -o " + json.string()).exit_code, 0);
  const ToolRun imported = tool("import " + json.string() + " " + back.string());
  ASSERT_EQ(imported.exit_code, 0) << imported.out;
  EXPECT_EQ(testing::read_bytes(back), testing::read_bytes(data("mode_sprint.srr")));
  EXPECT_EQ(testing::read_bytes(json), testing::read_bytes(data("mode_sprint.json")));
}

TEST(Cli, ImportsAHandWrittenReplay) {
  TempDir dir;
  const auto out = dir.path() / "hand.srr";
  const ToolRun r = tool("import " + data("handwritten_tspin.json") + " " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(tool("verify " + out.string()).exit_code, 0);
  const ToolRun bad = tool("import " + data("mode_sprint.srr") + " " + out.string());
  EXPECT_EQ(bad.exit_code, 2);
}

TEST(Cli, FumenPrintsOneString) {
  const ToolRun r = tool("fumen " + data("tspin.srr"));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("v115@HhD8FeC8CeH8AeE8JeFLJ", 0), 0u) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1);
}

TEST(Cli, StoreCommands) {
  TempDir dir;
  const std::string store = (dir.path() / "store").string();
  const ToolRun add = tool("add --store " + store + " " + data("mode_sprint.srr") + " " + data("race_sprint.srr"));
  ASSERT_EQ(add.exit_code, 0) << add.out;
  const ToolRun list = tool("list --store " + store);
  ASSERT_EQ(list.exit_code, 0) << list.out;
  EXPECT_NE(list.out.find("sprinter: finished"), std::string::npos) << list.out;
  const ToolRun best = tool("list --store " + store + " --best --player ada");
  ASSERT_EQ(best.exit_code, 0) << best.out;
  EXPECT_NE(best.out.find("sprint (40 lines): "), std::string::npos) << best.out;
  EXPECT_NE(best.out.find(" by ada "), std::string::npos) << best.out;
  std::filesystem::remove(std::filesystem::path(store) / "index.sqlite");
  const ToolRun reindex = tool("reindex --store " + store);
  ASSERT_EQ(reindex.exit_code, 0) << reindex.out;
  EXPECT_NE(reindex.out.find("indexed 2 replays (2 verified), 0 unreadable"), std::string::npos) << reindex.out;
  EXPECT_EQ(tool("list --store " + store + " --mode zen").exit_code, 2);
}

TEST(Cli, EverySubcommandHasHelp) {
  for (const char* sub :
       {"info", "verify", "export", "import", "board", "fumen", "list", "reindex", "add", "make-goldens"}) {
    const ToolRun r = tool(std::string(sub) + " --help");
    EXPECT_EQ(r.exit_code, 0) << sub << ": " << r.out;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << sub;
  }
  const ToolRun top = tool("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_EQ(top.out.find("make-goldens"), std::string::npos);  // hidden
  EXPECT_EQ(tool("").exit_code, 2);
  EXPECT_EQ(tool("frobnicate").exit_code, 2);
}

}  // namespace
}  // namespace sr::replay
