// stackrace-server's options against deploy/server.example.toml: the example names every option, says the truth
// about the defaults, and the server accepts it; typos are refused; --check-config and --health-check work.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/protocol/text.h"
#include "server/server_config.h"
#include "tests/deploy/deploy_paths.h"
#include "tests/deploy/process.h"
#include "tests/support/status.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;

// The settings' long names (without dashes): every option but help, --config and the actions.
std::set<std::string> setting_names() {
  server::ServerConfig config;
  CLI::App app;
  server::add_server_options(app, config);
  std::set<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group() == server::kActionsGroup || o->get_lnames().empty()) continue;
    const std::string& name = o->get_lnames().front();
    if (name == "help" || name == "config") continue;
    names.insert(name);
  }
  return names;
}

// Parses `args` (no program name) into `config`; empty on success, else CLI11's message.
std::string parse(const std::vector<std::string>& args, server::ServerConfig& config) {
  CLI::App app;
  server::add_server_options(app, config);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return e.get_name() + ": " + e.what();
  }
  return "";
}

TEST(ServerExampleConfig, NamesEveryOptionOnceWithACommentAbove) {
  const std::string text = read_text_file(example_config_path());
  std::set<std::string> keys;
  const std::regex key_line(R"(^([a-z][a-z0-9-]*) = .+$)");
  std::istringstream lines(text);
  std::string line, previous;
  while (std::getline(lines, line)) {
    std::smatch m;
    if (std::regex_match(line, m, key_line)) {
      EXPECT_TRUE(keys.insert(m[1]).second) << "twice: " << m[1];
      EXPECT_TRUE(previous.starts_with("#")) << "no comment above " << m[1];
    }
    previous = line;
  }
  EXPECT_EQ(keys, setting_names());
}

TEST(ServerExampleConfig, ParsesAndStatesTheDefaults) {
  server::ServerConfig parsed;
  ASSERT_EQ(parse({"--config", example_config_path().string()}, parsed), "");
  const server::ServerConfig defaults;
  // The example's values are the defaults, except the data directory (noted in its comment).
  EXPECT_EQ(parsed.data_dir, "/var/lib/stackrace");
  EXPECT_EQ(parsed.server.port, defaults.server.port);
  EXPECT_EQ(parsed.server.bind, defaults.server.bind);
  EXPECT_EQ(parsed.server.lobby.max_players, defaults.server.lobby.max_players);
  EXPECT_EQ(parsed.server.lobby.max_rooms, defaults.server.lobby.max_rooms);
  EXPECT_EQ(parsed.server.lobby.max_per_address, defaults.server.lobby.max_per_address);
  EXPECT_EQ(parsed.server.lobby.address.max_rooms, defaults.server.lobby.address.max_rooms);
  EXPECT_EQ(parsed.room_idle_minutes, defaults.room_idle_minutes);
  EXPECT_EQ(parsed.relay_every_ms, defaults.relay_every_ms);
  EXPECT_EQ(server::server_options(parsed).relay_every_us, 2'000);
  EXPECT_EQ(parsed.trusted_addresses, defaults.trusted_addresses);
  EXPECT_EQ(parsed.server.lobby.server_name, defaults.server.lobby.server_name);
  EXPECT_EQ(parsed.server.lobby.motd, defaults.server.lobby.motd);
  EXPECT_EQ(parsed.log_level, defaults.log_level);
  EXPECT_EQ(parsed.metrics.port, defaults.metrics.port);
  EXPECT_EQ(parsed.metrics.bind, defaults.metrics.bind);
  EXPECT_EQ(parsed.agones, defaults.agones);
  EXPECT_EQ(parsed.agones_idle_shutdown_s, defaults.agones_idle_shutdown_s);
  EXPECT_EQ(parsed.agones_health_interval_s, defaults.agones_health_interval_s);
}

// One address can never hold more ENet slots than its players and a few refusals need, however fast it connects.
TEST(ServerOptions, TheSilentPerAddressSlotLimitFollowsMaxPerAddress) {
  server::ServerConfig parsed;
  ASSERT_EQ(parse({"--max-per-address", "10", "--max-players", "100", "--max-rooms-per-address", "3",
                   "--room-idle-minutes", "2"},
                  parsed),
            "");
  const server::ServerOptions options = server::server_options(parsed);
  EXPECT_EQ(options.net.max_peers, 164u);
  EXPECT_EQ(options.net.max_peers_per_ip, 10u + server::AddressLimits{}.max_pending);
  EXPECT_EQ(options.lobby.address.max_rooms, 3u);
  EXPECT_EQ(options.lobby.room_idle_us, 120'000'000);
  ASSERT_EQ(parse({"--trust-addresses", "127.0.0.1, 10.1.2.3"}, parsed), "");
  EXPECT_EQ(server::server_options(parsed).lobby.address.trusted, (std::vector<std::string>{"127.0.0.1", "10.1.2.3"}));
  EXPECT_NE(parse({"--trust-addresses", "127.0.0.1,localhost"}, parsed), "");
  ASSERT_EQ(parse({"--max-per-address", "4000", "--max-players", "100"}, parsed), "");
  EXPECT_EQ(server::server_options(parsed).net.max_peers_per_ip, 164u);
}

// --contest without --motd tells players the rules and both ways in: the game's lobby and the bot.
TEST(ServerOptions, AContestsDefaultMessageOfTheDaySaysHowPeopleAndBotsEnter) {
  server::ServerConfig parsed;
  ASSERT_EQ(parse({"--contest", "--ladder-ranked-games", "5"}, parsed), "");
  const std::string motd = server::server_options(parsed).lobby.motd;
  EXPECT_EQ(motd,
            "Contest: 90-second games, 5 ranked games per entrant, ranked by the average of the best 3. People enter "
            "from this lobby: \"Contest ladder\" shows the leaderboard, its replays and a Play button. Bots enter "
            "with stackrace-bot --server HOST:PORT --ladder NAME; see the leaderboard with --leaderboard.");
  EXPECT_TRUE(protocol::check_text(motd, protocol::kMotdText).ok());
  ASSERT_EQ(parse({"--contest", "--motd", "Welcome"}, parsed), "");
  EXPECT_EQ(server::server_options(parsed).lobby.motd, "Welcome");
}

// --contest-seconds sets the length of every ladder game and the message of the day says it; 5 to 600 seconds.
TEST(ServerOptions, ContestSecondsSetTheLadderGamesLength) {
  server::ServerConfig parsed;
  ASSERT_EQ(parse({"--contest"}, parsed), "");
  EXPECT_EQ(server::server_options(parsed).ladder.contest_seconds, 90);
  ASSERT_EQ(parse({"--contest", "--contest-seconds", "15"}, parsed), "");
  const server::ServerOptions options = server::server_options(parsed);
  EXPECT_EQ(options.ladder.contest_seconds, 15);
  EXPECT_EQ(options.lobby.motd.rfind("Contest: 15-second games, 10 ranked games per entrant", 0), 0u)
      << options.lobby.motd;
  server::ServerConfig bad;
  EXPECT_NE(parse({"--contest", "--contest-seconds", "4"}, bad), "");
  EXPECT_NE(parse({"--contest", "--contest-seconds", "601"}, bad), "");
}

// Race seeds are random unless --race-seeds FIRST asks for FIRST, FIRST+1, ... (a load test's recorded games).
TEST(ServerOptions, RaceSeedsAreRandomUnlessAFirstOneIsGiven) {
  server::ServerConfig defaults;
  ASSERT_EQ(parse({}, defaults), "");
  EXPECT_EQ(server::server_options(defaults).race_seeds_from, 0u);
  server::ServerConfig parsed;
  ASSERT_EQ(parse({"--race-seeds", "7"}, parsed), "");
  EXPECT_EQ(server::server_options(parsed).race_seeds_from, 7u);
  server::ServerConfig bad;
  EXPECT_NE(parse({"--race-seeds", "-1"}, bad), "");
  EXPECT_NE(parse({"--race-seeds", "seven"}, bad), "");
  // An unsigned option given a negative number is refused, not wrapped round to 2^64 - 1.
  EXPECT_NE(parse({"--replay-low-space-mb", "-1"}, bad), "");
}

// The web pages' address players are told (Welcome.web_port, web_url): the port alone by default, the operator's
// public address with --web-url, nothing without pages; an address that is not an http(s) URL is refused.
TEST(ServerOptions, WebUrlIsToldWithThePagesAndMustBeAnHttpUrl) {
  server::ServerConfig parsed;
  ASSERT_EQ(parse({"--web-port", "7880"}, parsed), "");
  EXPECT_EQ(server::server_options(parsed).lobby.web_port, 7880);
  EXPECT_EQ(server::server_options(parsed).lobby.web_url, "");
  server::ServerConfig proxied;
  ASSERT_EQ(parse({"--web-port", "7880", "--web-url", "https://races.example.org/stackrace"}, proxied), "");
  EXPECT_EQ(server::server_options(proxied).lobby.web_url, "https://races.example.org/stackrace");
  server::ServerConfig off;
  ASSERT_EQ(parse({"--web-url", "https://races.example.org/stackrace"}, off), "");
  EXPECT_EQ(server::server_options(off).lobby.web_port, 0);
  EXPECT_EQ(server::server_options(off).lobby.web_url, "") << "no pages, no address";
  server::ServerConfig bad;
  EXPECT_EQ(parse({"--web-port", "7880", "--web-url", "javascript:alert(1)"}, bad),
            "ValidationError: --web-url: not an http(s) URL: it does not start with http:// or https://");
  EXPECT_NE(parse({"--web-port", "7880", "--web-url", "http://h/?a=1"}, bad), "");
}

TEST(ServerOptions, CommandLineWinsOverTheConfigFile) {
  server::ServerConfig parsed;
  ASSERT_EQ(parse({"--config", example_config_path().string(), "--port", "7000", "--data-dir", "/tmp/x"}, parsed), "");
  EXPECT_EQ(parsed.server.port, 7000);
  EXPECT_EQ(parsed.data_dir, "/tmp/x");
}

TEST(ServerOptions, UnknownConfigKeyAndOutOfRangeValuesAreRefused) {
  TempDir dir("stackrace-config");
  const auto file = dir.path() / "typo.toml";
  std::ofstream(file) << "prot = 7000\n";
  server::ServerConfig config;
  EXPECT_NE(parse({"--config", file.string()}, config), "");
  EXPECT_NE(parse({"--port", "70000"}, config), "");
  EXPECT_NE(parse({"--port", "-1"}, config), "");
  EXPECT_NE(parse({"--metrics-port", "65536"}, config), "");
  EXPECT_NE(parse({"--max-per-address", "0"}, config), "");
  EXPECT_NE(parse({"--agones-health-interval", "0"}, config), "");
  EXPECT_NE(parse({"--relay-every-ms", "51"}, config), "");
  EXPECT_NE(parse({"--relay-every-ms", "-1"}, config), "");
  server::ServerConfig relay_at_once;
  EXPECT_EQ(parse({"--relay-every-ms", "0"}, relay_at_once), "");
  EXPECT_EQ(server::server_options(relay_at_once).relay_every_us, 0);
  EXPECT_NE(parse({"--config", (dir.path() / "missing.toml").string()}, config), "");
}

TEST(ServerOptions, AgonesPortComesFromTheEnvironmentVariable) {
  server::ServerConfig config;
  config.agones_health_interval_s = 0.25;
  config.agones_idle_shutdown_s = 0;
  server::AgonesOptions options;
  ASSERT_EQ(::unsetenv("AGONES_SDK_HTTP_PORT"), 0);
  EXPECT_EQ(sr::test::problem_of(server::agones_options(config, options)), std::nullopt);
  EXPECT_EQ(options.port, 9358);
  EXPECT_EQ(options.health_every, 250ms);
  EXPECT_EQ(options.idle_shutdown, 0ms);
}

TEST(ServerBinary, CheckConfigAcceptsTheExampleAndRefusesATypo) {
  const ProcessResult ok =
      run_process({STACKRACE_SERVER_BIN, "--config", example_config_path().string(), "--check-config"});
  EXPECT_EQ(ok.exit_code, 0) << ok.output;

  TempDir dir("stackrace-config");
  const auto file = dir.path() / "typo.toml";
  std::ofstream(file) << "max-player = 10\n";
  const ProcessResult bad = run_process({STACKRACE_SERVER_BIN, "--config", file.string(), "--check-config"});
  EXPECT_NE(bad.exit_code, 0) << bad.output;
  EXPECT_NE(bad.output.find("max-player"), std::string::npos) << bad.output;
}

TEST(ServerBinary, HealthCheckAsksTheRunningServer) {
  const std::string port = std::to_string(free_tcp_port());
  const ProcessResult nobody = run_process({STACKRACE_SERVER_BIN, "--health-check", "--metrics-port", port});
  EXPECT_EQ(nobody.exit_code, 1) << nobody.output;

  TempDir data("stackrace-health");
  ChildProcess server;
  ASSERT_TRUE(server.start({STACKRACE_SERVER_BIN, "--bind", "127.0.0.1", "--port", "0", "--data-dir",
                            data.path().string(), "--metrics-port", port}));
  ASSERT_TRUE(server.read_until([](const std::string& out) { return out.find("/metrics") != std::string::npos; }, 30s))
      << server.output();
  const ProcessResult healthy = run_process({STACKRACE_SERVER_BIN, "--health-check", "--metrics-port", port});
  EXPECT_EQ(healthy.exit_code, 0) << healthy.output;

  server.signal(SIGTERM);
  EXPECT_EQ(server.wait(30s), 0) << server.output();
  const ProcessResult gone = run_process({STACKRACE_SERVER_BIN, "--health-check", "--metrics-port", port});
  EXPECT_EQ(gone.exit_code, 1) << gone.output;
}

}  // namespace
}  // namespace sr::test

namespace sr::test {
namespace {

TEST(ServerOptions, LanDiscoveryIsOnPort47777UnlessTurnedOff) {
  server::ServerConfig on, moved, off;
  ASSERT_EQ(parse({}, on), "");
  EXPECT_EQ(server::server_options(on).lan_port, 47777);
  ASSERT_EQ(parse({"--lan-port", "47800"}, moved), "");
  EXPECT_EQ(server::server_options(moved).lan_port, 47800);
  ASSERT_EQ(parse({"--no-lan"}, off), "");
  EXPECT_EQ(server::server_options(off).lan_port, 0);
}

TEST(ServerOptions, PublicNeedsADirectoryAndADirectoryNeedsPublic) {
  server::ServerConfig alone, listed, unlisted, two;
  ASSERT_EQ(parse({"--public"}, alone), "");
  EXPECT_EQ(sr::test::problem_of(server::check_public(alone)),
            "--public needs a directory to be listed in: give its URL with --directory URL");
  ASSERT_EQ(parse({"--public", "--directory", "http://hub.example.org:8080"}, listed), "");
  EXPECT_EQ(sr::test::problem_of(server::check_public(listed)), std::nullopt);
  ASSERT_EQ(parse({"--directory", "http://hub.example.org:8080"}, unlisted), "");
  EXPECT_EQ(sr::test::problem_of(server::check_public(unlisted)),
            "--directory is given without --public: add --public to list this server there");
  ASSERT_EQ(parse({"--public", "--directory", "http://a.example.org", "--directory", "https://b.example.org/hub"}, two),
            "");
  EXPECT_EQ(server::directory_urls(two),
            (std::vector<std::string>{"http://a.example.org", "https://b.example.org/hub"}));
  server::ServerConfig bad;
  EXPECT_NE(parse({"--public", "--directory", "hub.example.org"}, bad), "");
}

}  // namespace
}  // namespace sr::test
