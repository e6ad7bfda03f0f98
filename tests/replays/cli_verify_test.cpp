// `stackrace-replay verify` over every kind of file it can meet, its whole output pinned line for line (only the
// summary's milliseconds vary) with its exit code: what a hub re-verifying submitted records reads, and what a
// faster verify must keep printing.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/verify.h"
#include "replays/store/file_io.h"
#include "tests/replays/cli_support.h"
#include "tests/replays/test_support.h"
#include "tests/support/status.h"

namespace sr::replay {
namespace {

using testing::TempDir;
using testing::tool;
using testing::ToolRun;

Replay golden(const char* file) {
  Result<Replay> r = load_replay_file(testing::data_dir() / file);
  EXPECT_TRUE(r.ok()) << file;
  return r.ok() ? r.value() : Replay{};
}

void write(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(path, bytes)), std::nullopt) << path;
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  write(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

// The output with the summary's time replaced by "T".
std::string without_time(const std::string& out) {
  static const std::regex kTime(R"(( replays in )\d+( ms\n)$)");
  return std::regex_replace(out, kTime, "$1T$2");
}

// A directory holding one file of every kind, named for what it is.
class VerifyFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto& d = dir_.path();
    std::filesystem::copy_file(testing::data_dir() / "mode_sprint.srr", d / "ok.srr");

    Replay late = golden("race_sprint.srr");
    late.racers[0].result.unverified_us = 2'250'000;
    late.racers[0].result.reconnects = 1;
    late.racers[2].result.reconnects = 2;
    write(d / "late.srr", encode_binary(late));

    Replay mismatch = late;
    mismatch.racers[0].result.stats.score += 1;
    mismatch.racers[2].result.stats.lines += 1;
    write(d / "mismatch.srr", encode_binary(mismatch));

    Replay newer = golden("mode_sprint.srr");
    newer.rules_version = engine::kRulesVersion + 1;
    write(d / "rules.srr", encode_binary(newer));

    write(d / "short.srr", {'S', 'R', 'R'});
    std::vector<std::uint8_t> magic = encode_binary(testing::tiny());
    magic[0] = 'X';
    write(d / "magic.srr", magic);
    std::vector<std::uint8_t> stream = encode_binary(testing::tiny());
    stream[90] |= 1;  // a padding bit of the input log set
    write(d / "stream.srr", stream);
    write(d / "empty.srr", {});
    std::filesystem::create_directory(d / "dir.srr");
    ASSERT_EQ(::mkfifo((d / "fifo.srr").c_str(), 0600), 0);  // nobody writes to it: reading must not wait
    { std::ofstream big(d / "huge.srr", std::ios::binary); }
    std::filesystem::resize_file(d / "huge.srr", kMaxReplayFileBytes + 1);  // sparse: takes no disk

    write_text(d / "ok.json", "\n  " + encode_json(golden("mode_sprint.srr")));
    write_text(d / "bad.json", "{\"format\": \"stackrace-replay\", ");
  }

  [[nodiscard]] const std::filesystem::path& dir() const { return dir_.path(); }

 private:
  TempDir dir_{"sr_cli_verify_test"};
};

const std::string kEveryKind =
    "ok.srr late.srr mismatch.srr rules.srr short.srr magic.srr stream.srr empty.srr missing.srr dir.srr fifo.srr "
    "huge.srr "
    "ok.json bad.json";

const std::string kMismatchLines =
    "MISMATCH mismatch.srr: racer 0 \"ada\", piece 103 at 35.475000 s: stats.score differs (recorded 15791, replayed "
    "15790) (and 1 more racers)\n"
    "  also racer 2 \"cy\", piece 30 at 10.226000 s: stats.lines differs (recorded 12, replayed 11)\n"
    "  racer 0 \"ada\": unverified 2.250 s, 1 reconnect (recorded by the server, not re-simulated)\n"
    "  racer 2 \"cy\": 2 reconnects (recorded by the server, not re-simulated)\n";

// What follows the mismatch, --quiet or not: the files that cannot be played or read.
std::string unreadable_lines() {
  return "UNSUPPORTED rules.srr: made with rules v" + std::to_string(engine::kRulesVersion + 1) +
         ", this build plays up to v" + std::to_string(engine::kRulesVersion) +
         "\n"
         "UNREADABLE short.srr: at byte 0: a replay file is at least 7 bytes, this input has 3\n"
         "UNREADABLE magic.srr: at byte 0: not a stackrace replay (the file does not start with \"SRRP\")\n"
         "UNREADABLE stream.srr: racers[0].inputs.stream at byte 89: padding bits after the last change are not "
         "zero\n"
         "UNREADABLE empty.srr: at byte 0: a replay file is at least 7 bytes, this input has 0\n"
         "UNREADABLE missing.srr: cannot read missing.srr: No such file or directory\n"
         "UNREADABLE dir.srr: cannot read dir.srr: Is a directory\n"
         "UNREADABLE fifo.srr: cannot read fifo.srr: Operation not supported\n"
         "UNREADABLE huge.srr: huge.srr is 67108865 bytes, more than the 67108864 a replay may have\n";
}

TEST_F(VerifyFiles, PrintsOneLineAFileAndExitsTwoWhenAnyIsUnreadable) {
  const ToolRun r = tool("verify " + kEveryKind, dir());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(without_time(r.out),
            "OK ok.srr: verified 1 racer\n"
            "OK late.srr: verified 3 racers\n"
            "  racer 0 \"ada\": unverified 2.250 s, 1 reconnect (recorded by the server, not re-simulated)\n"
            "  racer 2 \"cy\": 2 reconnects (recorded by the server, not re-simulated)\n" +
                kMismatchLines + unreadable_lines() +
                "OK ok.json: verified 1 racer\n"
                "UNREADABLE bad.json: syntax error at byte 31: Missing a name for object member.\n"
                "verified 3 of 14 replays in T ms\n");
}

TEST_F(VerifyFiles, QuietPrintsOnlyWhatDidNotVerify) {
  const ToolRun r = tool("verify --quiet " + kEveryKind, dir());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(without_time(r.out), kMismatchLines + unreadable_lines() +
                                     "UNREADABLE bad.json: syntax error at byte 31: Missing a name for object member.\n"
                                     "verified 3 of 14 replays in T ms\n");
}

// The names of kEveryKind in `out` (a file name, or the start of an error about it) written with `prefix` before them.
std::string with_prefix(std::string out, const std::string& prefix) {
  std::istringstream names(kEveryKind);
  for (std::string name; names >> name;) {
    const std::regex at("(^|[ \n])" + std::regex_replace(name, std::regex(R"(\.)"), R"(\.)") + "([: ])");
    out = std::regex_replace(out, at, "$1" + prefix + name + "$2");
  }
  return out;
}

// kEveryKind with `prefix` before every name.
std::string prefixed(const std::string& prefix) {
  std::istringstream names(kEveryKind);
  std::string out;
  for (std::string name; names >> name;) out += (out.empty() ? "" : " ") + prefix + name;
  return out;
}

// verify opens the files of one directory by their names in it (ReplayFileReader): the same lines as by whole paths,
// relative or absolute, with the paths as given in them.
TEST_F(VerifyFiles, PathsWithDirectoriesPrintTheSameLines) {
  const std::string relative = without_time(tool("verify " + kEveryKind, dir()).out);
  const std::string name = dir().filename().string();
  const std::string sub = prefixed(name + "/");
  const ToolRun r = tool("verify " + sub, dir().parent_path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(without_time(r.out), with_prefix(relative, name + "/"));
  EXPECT_NE(without_time(r.out), relative);  // the prefix is there

  const std::string absolute = dir().string() + "/";
  const ToolRun a = tool("verify " + prefixed(absolute) + " " + sub, dir().parent_path());
  EXPECT_EQ(a.exit_code, 2);
  const std::string lines = relative.substr(0, relative.rfind("verified 3 of 14 "));  // without the summary
  const std::string twice =
      with_prefix(lines, absolute) + with_prefix(lines, name + "/") + "verified 6 of 28 replays in T ms\n";
  EXPECT_EQ(without_time(a.out), twice);
}

// ReplayFileReader::load() gives what load_replay_file() gives, file by file and error by error, whichever
// directory the files before it were in.
TEST_F(VerifyFiles, ReaderLoadsAsLoadReplayFileDoes) {
  TempDir other{"sr_cli_verify_other"};
  std::filesystem::copy_file(dir() / "late.srr", other.path() / "late.srr");
  std::vector<std::string> paths;
  std::istringstream names(kEveryKind);
  for (std::string name; names >> name;) {
    paths.push_back((dir() / name).string());
    paths.push_back((other.path() / "late.srr").string());  // another directory between two of the first
  }
  paths.push_back((dir() / "no_such_dir" / "ok.srr").string());
  paths.push_back((dir() / "ok.srr" / "x.srr").string());  // a "directory" that is a file
  paths.push_back(dir().string() + "/");                   // no name after the last slash
  paths.push_back("/");
  paths.push_back((dir() / "ok.srr").string());
  ReplayFileReader reader;
  for (const std::string& p : paths) {
    const Result<Replay> want = load_replay_file(p);
    const Result<Replay> got = reader.load(p);
    ASSERT_EQ(got.ok(), want.ok()) << p;
    if (want.ok()) {
      EXPECT_EQ(encode_binary(got.value()), encode_binary(want.value())) << p;
    } else {
      EXPECT_EQ(got.error().describe(), want.error().describe()) << p;
    }
  }
  // And a file the reader never saw in a directory it has open.
  EXPECT_EQ(reader.load((dir() / "missing.srr").string()).error().describe(),
            "cannot read " + (dir() / "missing.srr").string() + ": No such file or directory");
}

TEST_F(VerifyFiles, ExitCodes) {
  EXPECT_EQ(tool("verify ok.srr late.srr ok.json", dir()).exit_code, 0);
  EXPECT_EQ(tool("verify ok.srr mismatch.srr", dir()).exit_code, 1);
  EXPECT_EQ(tool("verify mismatch.srr rules.srr", dir()).exit_code, 2);  // a file this build cannot play
  EXPECT_EQ(tool("verify mismatch.srr missing.srr", dir()).exit_code, 2);
  EXPECT_EQ(tool("verify stream.srr", dir()).exit_code, 2);
  EXPECT_EQ(tool("verify", dir()).exit_code, 2);  // no file: a usage error
}

}  // namespace
}  // namespace sr::replay
