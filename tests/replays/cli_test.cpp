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
#include "tests/replays/cli_support.h"
#include "tests/replays/test_support.h"
#include "tests/support/status.h"

namespace sr::replay {
namespace {

using testing::TempDir;
using testing::tool;
using testing::ToolRun;

std::string data(const char* file) { return (testing::data_dir() / file).string(); }

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  const auto nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

const std::regex kSummary(R"(verified (\d+) of (\d+) replays in \d+ ms)");

TEST(Cli, VerifyAllGoldensExitsZero) {
  std::vector<std::filesystem::path> files = testing::golden_files();  // class version 1 fixtures
  for (const auto& f : testing::golden_files(testing::current_dir())) files.push_back(f);
  std::string args;
  for (const auto& f : files) args += " " + f.string();
  const ToolRun r = tool("verify" + args);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  std::smatch m;
  const std::string last = last_line(r.out);
  ASSERT_TRUE(std::regex_match(last, m, kSummary)) << last;
  EXPECT_EQ(m[1], m[2]);
  EXPECT_EQ(std::stoul(m[2]), files.size());
  EXPECT_EQ(r.out.find("unverified"), std::string::npos) << r.out;  // every golden is a clean run
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

TEST(Cli, InfoNamesTheRotationSystem) {
  const ToolRun r = tool("info " + (testing::current_dir() / "rotation_ocular.srr").string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("rules: rotation ocular, generator bag7"), std::string::npos) << r.out;
}

// The server's record of a stalled or reconnected racer shows in info and verify; verify still verifies (the inputs
// cannot show when they reached the server), and a clean run shows nothing.
TEST(Cli, InfoAndVerifyShowUnverifiedTimeAndReconnects) {
  TempDir dir;
  Result<Replay> r = load_replay_file(data("race_sprint.srr"));
  ASSERT_TRUE(r.ok());
  Replay late = r.value();
  late.racers[0].result.unverified_us = 2'250'000;
  late.racers[0].result.reconnects = 1;
  late.racers[2].result.reconnects = 2;
  const auto file = (dir.path() / "late.srr").string();
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(file, encode_binary(late))), std::nullopt);

  const ToolRun info = tool("info " + file);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  EXPECT_NE(info.out.find(" pieces/s, unverified 2.250 s, 1 reconnect\n"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find(" pieces/s, 2 reconnects\n"), std::string::npos) << info.out;
  const std::size_t bo = info.out.find("1 bo: ");
  ASSERT_NE(bo, std::string::npos) << info.out;
  const std::string bo_line = info.out.substr(bo, info.out.find('\n', bo) - bo);
  EXPECT_EQ(bo_line.find("unverified"), std::string::npos) << bo_line;
  EXPECT_EQ(bo_line.find("reconnect"), std::string::npos) << bo_line;

  const ToolRun verify = tool("verify " + file);
  EXPECT_EQ(verify.exit_code, 0) << verify.out;
  EXPECT_NE(
      verify.out.find("OK " + file +
                      ": verified 3 racers\n"
                      "  racer 0 \"ada\": unverified 2.250 s, 1 reconnect (recorded by the server, not re-simulated)\n"
                      "  racer 2 \"cy\": 2 reconnects (recorded by the server, not re-simulated)\n"),
      std::string::npos)
      << verify.out;
  const ToolRun quiet = tool("verify --quiet " + file);
  EXPECT_EQ(quiet.exit_code, 0) << quiet.out;
  EXPECT_EQ(quiet.out.find("unverified"), std::string::npos) << quiet.out;

  // Less than a millisecond late still shows: "0.000 s" would read as a clean run.
  late.racers[0].result.unverified_us = 300;
  late.racers[0].result.reconnects = 0;
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(file, encode_binary(late))), std::nullopt);
  const ToolRun tiny = tool("info " + file);
  ASSERT_EQ(tiny.exit_code, 0) << tiny.out;
  EXPECT_NE(tiny.out.find(" pieces/s, unverified < 0.001 s\n"), std::string::npos) << tiny.out;
}

TEST(Cli, InfoShowsEachRacersKey) {
  TempDir dir;
  Result<Replay> r = load_replay_file(data("race_sprint.srr"));
  ASSERT_TRUE(r.ok());
  Replay keyed = r.value();
  keyed.racers[1].key.emplace();
  for (std::size_t i = 0; i < kRacerKeyBytes; ++i) (*keyed.racers[1].key)[i] = static_cast<std::uint8_t>(i);
  const auto file = (dir.path() / "keyed.srr").string();
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(file, encode_binary(keyed))), std::nullopt);
  const ToolRun info = tool("info " + file);
  ASSERT_EQ(info.exit_code, 0) << info.out;
  // The short id is the first 4 bytes of the key's BLAKE2b-256 hash.
  EXPECT_NE(info.out.find("    key cb2f5160 (000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f)\n"),
            std::string::npos)
      << info.out;
  EXPECT_EQ(info.out.find("    key ", info.out.find("    key ") + 1), std::string::npos) << "only bo has a key";
  EXPECT_EQ(tool("verify " + file).exit_code, 0);
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
  const std::string golden = (testing::current_dir() / "mode_sprint.srr").string();
  ASSERT_EQ(tool("export --json " + golden + " -o " + json.string()).exit_code, 0);
  const ToolRun imported = tool("import " + json.string() + " " + back.string());
  ASSERT_EQ(imported.exit_code, 0) << imported.out;
  EXPECT_EQ(testing::read_bytes(back), testing::read_bytes(golden));
  EXPECT_EQ(testing::read_bytes(json), testing::read_bytes(testing::current_dir() / "mode_sprint.json"));
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
