// stackrace-bot --server as a user runs it against a real server: races, summary line, --poll-ms, --delays-out.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/server/net_fixture.h"
#include "tests/support/run_command.h"

namespace sr::test {
namespace {

using ToolRun = CommandRun;

ToolRun bot_tool(const std::string& args) { return run_command(std::string(STACKRACE_BOT_BINARY) + " " + args); }

// Four bots in two rooms of two, once reading each packet as it arrives and once once per 16 ms frame: every race
// is printed with its replay id, the summary counts them, and --delays-out holds one line per measured delay.
TEST(StackraceBotOnline, RacesRoomsAndWritesTheDelaysItMeasured) {
  ServerFixture server;
  for (const char* poll : {"0", "16"}) {
    const std::string delays = (server.data_dir() / (std::string("delays-") + poll + ".txt")).string();
    const ToolRun r = bot_tool("--server 127.0.0.1:" + std::to_string(server.port()) +
                               " --count 4 --room-size 2 --create sprint --lines 4 --pps 4 --lookahead 0 "
                               "--search drops --timeout 120 --name-prefix p" +
                               poll + "- --poll-ms " + poll + " --delays-out " + delays);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("4 bots connected"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("2 rooms ready"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("summary: 2 races, 4 of 4 racers finished"), std::string::npos) << r.output;
    std::ifstream in(delays);
    ASSERT_TRUE(in) << delays;
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      double at = -1, delay_ms = -1;
      ASSERT_TRUE(fields >> at >> delay_ms) << line;
      EXPECT_GE(at, 0.0);
      EXPECT_GE(delay_ms, 0.0);
      EXPECT_LT(delay_ms, 10'000.0);
      ++lines;
    }
    // Each bot's presses reach its one opponent: at least a few per piece of a 4-line sprint (10 pieces).
    EXPECT_GT(lines, 4 * 10) << poll;
    EXPECT_NE(r.output.find("over " + std::to_string(lines) + " inputs"), std::string::npos) << r.output;
  }
}

TEST(StackraceBotOnline, BadOnlineArgumentsExitWithTwoAndSayWhy) {
  const struct {
    const char* args;
    const char* says;
  } kCases[] = {
      {"--server 127.0.0.1:7878 --create sprint --poll-ms -1", "--poll-ms must be 0..1000"},
      {"--server 127.0.0.1:99999 --create sprint", "--server must be HOST or HOST:PORT"},
      {"--server 127.0.0.1:7878 --count 0 --create sprint", "--count must be 1..4000"},
      {"--server 127.0.0.1:7878", "give --room NAME to join, or --create MODE"},
  };
  for (const auto& c : kCases) {
    const ToolRun r = bot_tool(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
  }
}

}  // namespace
}  // namespace sr::test
