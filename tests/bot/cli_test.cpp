// stackrace-bot as a user runs it: exit statuses, summary lines, the aggregate.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/run_command.h"

namespace {

using ToolRun = sr::test::CommandRun;

ToolRun tool(const std::string& args) { return sr::test::run_command(std::string(STACKRACE_BOT_BINARY) + " " + args); }

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(StackraceBotCli, PlaysGamesAndSummarises) {
  const ToolRun r = tool("--mode ultra --seconds 10 --seed 5 --games 3");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(count(r.output, "\nseed=") + (r.output.rfind("seed=", 0) == 0 ? 1 : 0), 3) << r.output;
  EXPECT_NE(r.output.find("seed=7 result=finished time=10.000s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("aggregate: mode=ultra weights=score games=3 completed=3 (100.0%)"), std::string::npos)
      << r.output;
}

TEST(StackraceBotCli, SameArgumentsSameOutputLines) {
  const ToolRun a = tool("--mode sprint --lines 10 --seed 9 --quiet --lookahead 0 --search drops");
  const ToolRun b = tool("--mode sprint --lines 10 --seed 9 --games 1 --lookahead 0 --search drops");
  EXPECT_EQ(a.exit_code, 0);
  // The per-game line is deterministic; the aggregate's decision times are not.
  const std::string line = b.output.substr(0, b.output.find('\n'));
  EXPECT_EQ(line.rfind("seed=9 result=finished", 0), 0u) << b.output;
  EXPECT_EQ(
      tool("--mode sprint --lines 10 --seed 9 --games 1 --lookahead 0 --search drops").output.substr(0, line.size()),
      line);
}

TEST(StackraceBotCli, BadArgumentsExitWithTwoAndSayWhy) {
  const struct {
    const char* args;
    const char* says;
  } kCases[] = {
      {"--mode sprint", "--seed is required"},
      {"--mode zen --seed 1", "--mode must be one of"},
      {"--mode sprint --seconds 30 --seed 1", "use --lines"},
      {"--mode endless --seed 1", "give it --lines N or --seconds N"},
      {"--mode sprint --seed 1 --pps fast", "--pps must be"},
      {"--mode sprint --seed 1 --games 0", "--games must be"},
      {"--mode sprint --seed 1 --weights heavy", "--weights must be one of"},
      {"--mode sprint --seed 1 --lookahead 2", "--lookahead must be 0 or 1"},
      {"--mode sprint --seed 1 --tap-ms 60-30", "--tap-ms must be"},
      {"--mode sprint --seed 1 --out /nonexistent/dir/x.srr", "does not exist"},
      {"--mode sprint --seed 1 --frobnicate", "not expected"},
      // Chat lines the online bots say (--say) are checked as the server checks chat, before any connection.
      {"--server 127.0.0.1:1 --create sprint --say ''", "--say: 0 bytes, needs at least 1"},
      {"--server 127.0.0.1:1 --create sprint --say \"$(printf 'a\\tb')\"", "--say: control character"},
  };
  for (const auto& c : kCases) {
    const ToolRun r = tool(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
  }
}

TEST(StackraceBotCli, HelpAndPresetList) {
  const ToolRun help = tool("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("--external"), std::string::npos);
  const ToolRun presets = tool("--list-weights");
  EXPECT_EQ(presets.exit_code, 0);
  EXPECT_EQ(count(presets.output, "\n"), 4) << presets.output;
}

}  // namespace
