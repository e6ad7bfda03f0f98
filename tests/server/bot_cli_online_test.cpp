// stackrace-bot --server as a user runs it against a real server: races, summary line, --poll-ms, --delays-out.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "net/identity/run_signature.h"
#include "replays/store/file_io.h"
#include "tests/deploy/process.h"
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

// The server goes away mid-race: shut down (it says so) or killed (silence). The bot says what happened and exits
// with 1 well before its --timeout, instead of waiting it out.
TEST(StackraceBotOnline, NoticesTheServerGoingAwayMidRace) {
  const struct {
    int signal;
    const char* says;
  } kCases[] = {
      {SIGTERM, "lost the server: the server is shutting down"},
      {SIGKILL, "the server has not answered any bot for 15 s since the connections dropped"},
  };
  for (const auto& c : kCases) {
    TempDir data("stackrace-bot-gone");
    ChildProcess server;
    ASSERT_TRUE(
        server.start({STACKRACE_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--data-dir", data.path().string()}));
    std::string port;
    ASSERT_TRUE(server.read_until(
        [&](const std::string& out) {
          const auto at = out.find("listening on 127.0.0.1:");
          if (at == std::string::npos) return false;
          const auto start = at + std::string("listening on 127.0.0.1:").size();
          const auto end = out.find(' ', start);
          if (end == std::string::npos) return false;
          port = out.substr(start, end - start);
          return true;
        },
        std::chrono::seconds(30)))
        << server.output();
    ChildProcess bot;
    ASSERT_TRUE(bot.start({STACKRACE_BOT_BINARY, "--server", "127.0.0.1:" + port, "--count", "2", "--create", "sprint",
                           "--lines", "40", "--pps", "2", "--races", "20", "--timeout", "600"}));
    ASSERT_TRUE(bot.read_until([](const std::string& out) { return out.find("rooms ready") != std::string::npos; },
                               std::chrono::seconds(60)))
        << bot.output();
    // The race is on (the bots have its start) before the server goes.
    ASSERT_TRUE(server.read_until([](const std::string& out) { return out.find("race 1: go") != std::string::npos; },
                                  std::chrono::seconds(30)))
        << server.output();
    server.signal(c.signal);
    const std::optional<int> exit = bot.wait(std::chrono::seconds(120));
    ASSERT_TRUE(exit.has_value()) << "the bot did not exit\n" << bot.output();
    EXPECT_EQ(*exit, 1) << bot.output();
    EXPECT_NE(bot.output().find(c.says), std::string::npos) << bot.output();
    EXPECT_EQ(bot.output().find("timed out after"), std::string::npos) << bot.output();
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
      {"--ladder rocket", "--ladder and --leaderboard need --server HOST:PORT"},
      {"--server 127.0.0.1:7878 --ladder rocket --leaderboard", "give --ladder NAME or --leaderboard, not both"},
      {"--server 127.0.0.1:7878 --create sprint --practice", "--practice and --secret-file need --ladder"},
      {"--server 127.0.0.1:7878 --ladder seventeen-chars-x", "--ladder: the entrant's name is not valid"},
      {"--server 127.0.0.1:7878 --ladder rocket --games 0", "--games must be 1..1000000"},
      {"--server 127.0.0.1:7878 --create sprint --count 2 --external x",
       "--external races one bot: --count must be 1 (or left out)"},
      {"--server 127.0.0.1:7878 --ladder rocket --external x --answer-ms 0", "--answer-ms must be 1..600000"},
      // The player options are checked by one rule on every branch (--search was once checked for solo games only).
      {"--server 127.0.0.1:7878 --create sprint --search wide", "--search must be full or drops"},
      {"--server 127.0.0.1:7878 --ladder rocket --search wide", "--search must be full or drops"},
      {"--server 127.0.0.1:7878 --create sprint --weights heavy", "--weights must be one of"},
      {"--server 127.0.0.1:7878 --ladder rocket --lookahead 3", "--lookahead must be 0 or 1"},
      {"--mode sprint --recorded /tmp", "--recorded races on a server: give --server HOST:PORT"},
      {"--server 127.0.0.1:7878 --create sprint --recorded /nonexistent-recordings",
       "cannot read the recorded games in /nonexistent-recordings"},
      {"--server 127.0.0.1:7878 --room x --recorded /tmp", "--recorded races in rooms it creates: give --create MODE"},
      {"--server 127.0.0.1:7878 --create sprint --races 2 --recorded /tmp", "--recorded races one race per room"},
  };
  for (const auto& c : kCases) {
    const ToolRun r = bot_tool(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.says), std::string::npos) << c.args << "\n" << r.output;
  }
}

// The load generator (--recorded, bot/recorded_runner.h) against a server handing out known seeds: two rooms of two
// race the games recorded beforehand for seeds 11 and 12 (a 4-line sprint), every racer finishes, the summary and
// the generator's lateness are printed, and each stored replay holds exactly the recorded changes of its seed.
TEST(StackraceBotOnline, RecordedGamesAreRacedChangeForChange) {
  ReplayJobs jobs;
  server::ServerOptions options;
  options.race_seeds_from = 11;
  options.on_replay_job = jobs.hook();
  ServerFixture server(options);
  TempDir recordings("stackrace-recorded");
  const std::filesystem::path& recorded = recordings.path();
  const ToolRun record =
      bot_tool("--mode sprint --lines 4 --seed 11 --games 2 --quiet --out " + recorded.string() + "/");
  ASSERT_EQ(record.exit_code, 0) << record.output;
  const ToolRun r = bot_tool("--server 127.0.0.1:" + std::to_string(server.port()) +
                             " --count 4 --room-size 2 --create sprint --lines 4 --timeout 120 --name-prefix rec "
                             "--recorded " +
                             recorded.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("2 recorded games read from"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("summary: 2 races, 4 of 4 racers finished"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("generator lateness: median "), std::string::npos) << r.output;

  std::map<std::uint64_t, std::vector<engine::InputChange>> recorded_inputs;
  for (const char* name : {"sprint-11.srr", "sprint-12.srr"}) {
    auto rec = replay::load_replay_file(recorded / name);
    ASSERT_TRUE(rec.ok()) << name;
    recorded_inputs[rec.value().seed] = rec.value().racers.at(0).inputs;
  }
  std::set<std::uint64_t> seeds;
  for (const auto& stored : server.stored_replays()) {
    EXPECT_EQ(stored.replay.racers.size(), 2u) << stored.file;
    EXPECT_TRUE(stored.verified) << stored.file << ": " << stored.message;
    seeds.insert(stored.replay.seed);
    ASSERT_EQ(recorded_inputs.count(stored.replay.seed), 1u) << stored.replay.seed;
    for (const auto& racer : stored.replay.racers) {
      EXPECT_EQ(racer.inputs, recorded_inputs[stored.replay.seed]) << racer.name;
      EXPECT_EQ(racer.result.status, replay::ResultStatus::kFinished) << racer.name;
    }
    // Each recorded racer signed its run (its own key, bot_key), and the signature verifies from the stored replay.
    const auto handed = jobs.jobs();
    const auto job =
        std::find_if(handed.begin(), handed.end(), [&](const auto& j) { return j.replay.seed == stored.replay.seed; });
    ASSERT_NE(job, handed.end());
    ASSERT_EQ(job->run_signatures.size(), stored.replay.racers.size());
    for (std::size_t i = 0; i < stored.replay.racers.size(); ++i) {
      ASSERT_TRUE(job->run_signatures[i].has_value()) << stored.replay.racers[i].name;
      ASSERT_TRUE(stored.replay.racers[i].key.has_value());
      EXPECT_TRUE(
          net::verify_run(*stored.replay.racers[i].key, net::run_digest(stored.replay, i), *job->run_signatures[i]))
          << stored.replay.racers[i].name;
    }
  }
  EXPECT_EQ(seeds, (std::set<std::uint64_t>{11, 12}));
  const server::ServerStats stats = server.stop();
  EXPECT_EQ(stats.rooms_total.run_signatures, 4u);
  EXPECT_EQ(stats.rooms_total.run_signatures_refused, 0u);
}

// Without known seeds the recorded games fit no race: the generator says so and stops with 1 instead of racing
// something else.
TEST(StackraceBotOnline, ARaceWithNoRecordedGameIsAbandonedSayingWhy) {
  ServerFixture server;  // random seeds
  TempDir recordings("stackrace-recorded");
  const std::filesystem::path& recorded = recordings.path();
  ASSERT_EQ(bot_tool("--mode sprint --lines 4 --seed 11 --games 1 --quiet --out " + recorded.string() + "/").exit_code,
            0);
  const ToolRun r =
      bot_tool("--server 127.0.0.1:" + std::to_string(server.port()) +
               " --count 2 --room-size 2 --create sprint --lines 4 --timeout 60 --recorded " + recorded.string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("race abandoned: no recorded game for seed"), std::string::npos) << r.output;
}

// A team enters a contest as the README says: the first run makes the player key file (owner-only) and plays a ranked
// game; the leaderboard prints it; another key cannot spend the name's games. (The contest is 2 s long here.)
TEST(StackraceBotOnline, PlaysAContestLadderGameAndPrintsTheLeaderboard) {
  server::ServerOptions options;
  options.ladder.enabled = true;
  options.ladder.contest_seconds = 2;
  options.countdown_us = 200'000;
  ServerFixture server(options);
  const std::string at = "--server 127.0.0.1:" + std::to_string(server.port());
  const std::filesystem::path key = server.data_dir() / "team" / "rocket.key";

  const ToolRun played = bot_tool(at + " --ladder rocket --games 1 --pps 8 --key " + key.string());
  ASSERT_EQ(played.exit_code, 0) << played.output;
  EXPECT_NE(played.output.find("made a new player key in " + key.string()), std::string::npos) << played.output;
  EXPECT_NE(played.output.find("ranked game 1 as 'rocket': "), std::string::npos) << played.output;
  EXPECT_NE(played.output.find("'rocket' is ranked 1 of 1: 1 ranked games of 10 played, best-3 average "),
            std::string::npos)
      << played.output;
  ASSERT_TRUE(std::filesystem::exists(key));
  EXPECT_EQ(std::filesystem::status(key).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  std::ifstream in(key);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line.rfind("stackrace-key 1 ", 0), 0u) << line;
  EXPECT_EQ(line.size(), 16u + 64u) << line;

  const ToolRun board = bot_tool(at + " --leaderboard");
  ASSERT_EQ(board.exit_code, 0) << board.output;
  EXPECT_EQ(board.output.rfind("rank  entrant  ranked  best-3 avg  best scores (game id)\n", 0), 0u) << board.output;
  EXPECT_NE(board.output.find("\n   1  rocket     1/10  "), std::string::npos) << board.output;

  const std::filesystem::path other = server.data_dir() / "other.key";
  // The ladder bot connects under the entrant's name, which the first key holds on this server too: another key is
  // refused at Hello already (ServerLadder.* covers an entrant asked for under another player name).
  const ToolRun thief = bot_tool(at + " --ladder rocket --games 1 --key " + other.string());
  EXPECT_EQ(thief.exit_code, 2) << thief.output;
  EXPECT_NE(thief.output.find("the name 'rocket' belongs to another player's key on this server; 'rocket2' is free"),
            std::string::npos)
      << thief.output;

  const ToolRun bad_key = bot_tool(at + " --ladder rocket --key " + server.data_dir().string());
  EXPECT_EQ(bad_key.exit_code, 2) << bad_key.output;
  EXPECT_NE(
      bad_key.output.find("cannot read the player key file " + server.data_dir().string() + ": it is a directory"),
      std::string::npos)
      << bad_key.output;
  const ToolRun bad_secret =
      bot_tool(at + " --ladder rocket --key " + key.string() + " --secret-file " + server.data_dir().string());
  EXPECT_EQ(bad_secret.exit_code, 2) << bad_secret.output;
  EXPECT_NE(bad_secret.output.find("cannot read the ladder secret file"), std::string::npos) << bad_secret.output;
}

}  // namespace
}  // namespace sr::test
