// The game's command line: the multiplayer options go together in the documented ways, every mode the server
// allows can be created from it, and anything else stops with a sentence (exit status 2), never later in the game.
#include "client/app/cli.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

namespace sr::client {
namespace {

struct Parsed {
  std::optional<int> exit_code;
  AppOptions options;
  std::string err;
};

Parsed parse(std::initializer_list<const char*> args) {
  std::vector<std::string> words{"stackrace"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  Parsed p;
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  p.exit_code = parse_command_line(static_cast<int>(argv.size()), argv.data(), p.options);
  (void)testing::internal::GetCapturedStdout();
  p.err = testing::internal::GetCapturedStderr();
  return p;
}

// The positional argument is a file, or a game's web link when it starts with http:// or https://.
TEST(CommandLine, AGamesWebLinkIsTakenApartFromAFile) {
  auto p = parse({"http://127.0.0.1:7880/stackrace/games/0123456789abcdef"});
  ASSERT_FALSE(p.exit_code) << p.err;
  EXPECT_EQ(p.options.replay_link, "http://127.0.0.1:7880/stackrace/games/0123456789abcdef");
  EXPECT_FALSE(p.options.replay_file);
  p = parse({"race.srr"});
  ASSERT_FALSE(p.exit_code) << p.err;
  EXPECT_EQ(p.options.replay_file, std::filesystem::path("race.srr"));
  EXPECT_FALSE(p.options.replay_link);
}

TEST(CommandLine, CreatesARoomOfEveryModeTheServerAllows) {
  auto p = parse({"--host-port", "0", "--create-room", "marathon", "--variable-goal", "--max-racers", "3", "--private",
                  "--no-auto-start", "--room-name", "lan", "--stall-budget", "30"});
  ASSERT_FALSE(p.exit_code) << p.err;
  ASSERT_TRUE(p.options.room);
  const auto made = p.options.room->to_settings();
  ASSERT_TRUE(made.ok()) << made.error();
  const protocol::RoomSettings& s = made.value();
  EXPECT_EQ(s.config, engine::make_marathon(engine::GoalSystem::kVariable));
  EXPECT_EQ(s.name, "lan");
  EXPECT_EQ(s.max_racers, 3);
  EXPECT_TRUE(s.is_private);
  EXPECT_FALSE(s.auto_start);
  EXPECT_EQ(s.stall_budget_s, 30);
  EXPECT_TRUE(parse({"--host-port", "0", "--create-room", "sprint", "--stall-budget", "61"}).exit_code);

  for (const char* mode : {"sprint", "ultra", "master", "endless", "contest"}) {
    p = parse({"--connect", "example.org:7000", "--create-room", mode});
    ASSERT_FALSE(p.exit_code) << mode << ": " << p.err;
    ASSERT_TRUE(p.options.room);
    EXPECT_TRUE(p.options.room->to_settings().ok()) << mode;
    EXPECT_EQ(p.options.room->mode, *engine::mode_from_name(mode));
  }
  p = parse({"--connect", "h", "--create-room", "endless", "--seconds", "300"});
  ASSERT_FALSE(p.exit_code) << p.err;
  EXPECT_EQ(p.options.room->to_settings().value().config.limit_value, 300);
}

TEST(CommandLine, ResumeSecondsDefaultToTheServersMinute) {
  EXPECT_EQ(parse({"--connect", "127.0.0.1:7878"}).options.resume_seconds, 60);
  auto p = parse({"--connect", "127.0.0.1:7878", "--resume-seconds", "5"});
  ASSERT_FALSE(p.exit_code) << p.err;
  EXPECT_EQ(p.options.resume_seconds, 5);
  EXPECT_TRUE(parse({"--connect", "127.0.0.1:7878", "--resume-seconds", "0"}).exit_code);
}

TEST(CommandLine, FrameCapIsTheMonitorsRateOrThirtyToAThousand) {
  EXPECT_FALSE(parse({}).options.frame_cap);
  for (int cap : {0, 30, 60, 1000}) {
    const std::string arg = std::to_string(cap);
    auto p = parse({"--frame-cap", arg.c_str()});
    ASSERT_FALSE(p.exit_code) << p.err;
    EXPECT_EQ(p.options.frame_cap, cap);
  }
  for (const char* bad : {"1", "29", "1001", "-5", "fast"}) {
    auto p = parse({"--frame-cap", bad});
    EXPECT_TRUE(p.exit_code) << bad;  // 2 (ours) or CLI11's own code for a value out of its range
    EXPECT_NE(p.err.find("frame-cap"), std::string::npos) << p.err;
  }
}

TEST(CommandLine, SpectateNeedsAServerAndNoRoomOfItsOwn) {
  auto p = parse({"--connect", "127.0.0.1:7878", "--spectate", "race", "--exit-after-race"});
  ASSERT_FALSE(p.exit_code) << p.err;
  EXPECT_EQ(p.options.spectate, "race");
  EXPECT_FALSE(p.options.room);

  p = parse({"--spectate", "race"});
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(p.err,
            "stackrace: --create-room, --spectate, --auto-ready and --exit-after-race need --host-port, --connect "
            "or --browse\n");
  p = parse({"--browse", "--connect", "h"});
  EXPECT_EQ(p.err, "stackrace: --browse, --host-port and --connect exclude each other\n");
  p = parse({"--browse", "--directory", "ftp://h"});
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(p.err.rfind("stackrace: --directory \"ftp://h\" is not a directory's address: ", 0), 0u) << p.err;
  p = parse({"--browse", "--directory", "http://hub.example.org:8470/", "--create-room", "sprint"});
  ASSERT_FALSE(p.exit_code) << p.err;
  EXPECT_EQ(p.options.directories, std::vector<std::string>{"http://hub.example.org:8470"});
  p = parse({"--connect", "h", "--spectate", "race", "--create-room", "sprint"});
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(p.err, "stackrace: --create-room and --spectate exclude each other\n");
  p = parse({"--connect", "h", "--spectate", ""});
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_EQ(p.err, "stackrace: --spectate needs a room name\n");
}

TEST(CommandLine, RecordsOpensAloneWithItsHubs) {
  auto p = parse({"--records", "--directory", "http://hub.example.org:8470/"});
  ASSERT_FALSE(p.exit_code) << p.err;
  EXPECT_TRUE(p.options.records);
  EXPECT_EQ(p.options.directories, std::vector<std::string>{"http://hub.example.org:8470"});
  EXPECT_FALSE(parse({}).options.records);
  for (auto args : {std::initializer_list<const char*>{"--records", "--connect", "h"},
                    std::initializer_list<const char*>{"--records", "--browse"},
                    std::initializer_list<const char*>{"--records", "--mode", "sprint"},
                    std::initializer_list<const char*>{"--records", "race.srr"}}) {
    p = parse(args);
    EXPECT_EQ(p.exit_code, 2);
    EXPECT_EQ(p.err,
              "stackrace: --records does not go with --host-port, --connect, --browse, --mode, a replay FILE or "
              "LINK, or --bench-frames\n");
  }
}

TEST(CommandLine, BadCombinationsAreSentences) {
  struct Case {
    std::initializer_list<const char*> args;
    const char* error;
  };
  const Case cases[] = {
      {{"--connect", "h", "--create-room", "ultra", "--lines", "10"},
       "stackrace: --create-room: ultra is timed: use --seconds, not --lines\n"},
      {{"--connect", "h", "--create-room", "custom"},
       "stackrace: --create-room: custom rooms have too many rules for the command line: create them in the game "
       "(Multiplayer > Create room > Mode: custom)\n"},
      {{"--connect", "h", "--create-room", "tetris"},
       "stackrace: --create-room: unknown mode \"tetris\" (sprint, ultra, marathon, master, endless, contest)\n"},
      {{"--connect", "h", "--lines", "10"},
       "stackrace: --lines, --seconds, --variable-goal, --max-racers, --private, --no-auto-start and --room-name "
       "need --create-room\n"},
      {{"--connect", "h", "--create-room", "sprint", "--room-name", ""},
       "stackrace: --create-room: the room needs a name\n"},
      {{"--connect", "h:0"},
       "stackrace: --connect \"h:0\" is not an address: HOST or HOST:PORT with a port of 1-65535\n"},
      {{"--connect", ":7878"},
       "stackrace: --connect \":7878\" is not an address: HOST or HOST:PORT with a port of 1-65535\n"},
      {{"--connect", "a b"},
       "stackrace: --connect \"a b\" is not an address: HOST or HOST:PORT with a port of 1-65535\n"},
      {{"--connect", "h", "--host-port", "0"},
       "stackrace: --host-port and --connect exclude each other (hosting joins the own server)\n"},
      {{"--port-file", "p"}, "stackrace: --port-file needs --host-port\n"},
      {{"--connect", "h", "--mode", "sprint"},
       "stackrace: --host-port and --connect do not go with --mode, a replay FILE or LINK, or --bench-frames\n"},
      {{"--connect", "h", "http://h:8080/games/00000000000000ff"},
       "stackrace: --host-port and --connect do not go with --mode, a replay FILE or LINK, or --bench-frames\n"},
      {{"https://races.example.org/games/00000000000000ff"},
       "stackrace: https links are not supported, use http://races.example.org/games/00000000000000ff if the server "
       "serves its pages over http too\n"},
      {{"http://h:8080/games/ff"},
       "stackrace: \"http://h:8080/games/ff\" is not a game's web link: its path must end in /games/ and the game's "
       "16 lower-case hex digits\n"},
      {{"http://h:99999/games/00000000000000ff"},
       "stackrace: \"http://h:99999/games/00000000000000ff\" is not a web address: its port is not a number of 1 to "
       "65535\n"},
  };
  for (const Case& c : cases) {
    const Parsed p = parse(c.args);
    EXPECT_EQ(p.exit_code, 2) << c.error;
    EXPECT_EQ(p.err, c.error);
  }
  // Ranges are CLI11's: still an exit status and a message, not a crash.
  const Parsed p = parse({"--connect", "h", "--create-room", "sprint", "--max-racers", "17"});
  EXPECT_NE(p.exit_code.value_or(0), 0);
  EXPECT_NE(p.err.find("--max-racers"), std::string::npos) << p.err;
}

}  // namespace
}  // namespace sr::client
