// stackrace-bot: a headless player. Solo runs that write replays, and bots that race on a server.
//
//   stackrace-bot --mode sprint --seed 1                      one game, one summary line
//   stackrace-bot --mode marathon --seed 1 --games 1000       strength figures: per-game lines and an aggregate
//   stackrace-bot --mode sprint --seed 7 --out run.srr       a replay that stackrace-replay verify accepts
//   stackrace-bot --mode sprint --seed 7 --external ./mybot   a TBP bot (Cold Clear 2, ...) plays instead
//   stackrace-bot --server 127.0.0.1:7878 --count 8 --create sprint --races 3   eight bots race three sprints
//   stackrace-bot --server HOST:PORT --ladder rocket           the bot plays entrant rocket's ranked contest games
//   stackrace-bot --server HOST:PORT --ladder rocket --external ./mybot   a TBP bot plays them, in real time
//   stackrace-bot --server HOST:PORT --leaderboard             the contest ladder's leaderboard
//
// Exit status: 0 done (games an external bot forfeited count as played), 1 a run failed (replay not written, external
// bot could not start, died or broke the protocol), 2 bad arguments (online: also a server that cannot be reached).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bot/directory_pick.h"
#include "bot/external_runner.h"
#include "bot/ladder_runner.h"
#include "bot/online_runner.h"
#include "bot/options.h"
#include "bot/recorded_runner.h"
#include "bot/replay_out.h"
#include "bot/solo_runner.h"
#include "common/bot/weights.h"
#include "common/protocol/messages.h"
#include "common/protocol/text.h"
#include "net/identity/ladder_secret.h"
#include "net/identity/player_key.h"

using namespace sr;

namespace {

int usage_error(const std::string& message) {
  std::cerr << "stackrace-bot: " << message << "\n(run stackrace-bot --help for the options)\n";
  return 2;
}

// Every option as typed (add_options binds them; each way of playing checks its own below).
struct Args {
  std::string mode = "sprint";
  std::optional<std::int64_t> lines, seconds;
  std::optional<std::int32_t> level;
  std::uint64_t seed = 0;
  std::string pps_text = "3";
  std::string out_path;
  std::int64_t games = 1;
  std::string weights_name;
  int lookahead = 1;
  std::string search = "full";
  std::string tap_text = "30-60", gap_text = "15-30";
  std::string external;
  int think_ms = 0, answer_ms = botcli::kTbpSuggestMs;
  bool quiet = false, list_weights = false;
  std::string server;
  int count = 2, room_size = 8, races = 1, timeout_s = 600;
  std::string room, create, name_prefix = "bot";
  std::vector<std::string> say;
  std::string rotation;

  std::string delays_out, recorded;
  int poll_ms = 0;
  std::string ladder, secret_file;
  std::string directory, server_name;
  std::string key_file;
  bool practice = false, leaderboard = false;
  // Whether these were given (their defaults are not the same as leaving them out).
  bool seed_given = false, games_given = false, count_given = false;
};

// --key FILE (or the game's own key file): made on first use.
sr::Result<net::PlayerKey, std::string> load_key(const Args& a) {
  std::filesystem::path file = a.key_file;
  if (file.empty()) {
    auto path = net::default_key_file();
    if (!path) return sr::fail(path.error());
    file = path.value();
  }
  bool created = false;
  auto key = net::load_or_create_key(file, created);
  if (key && created) std::cerr << fmt::format("stackrace-bot: made a new player key in {}\n", file.string());
  return key;
}

// Binds every option to `a`; the options whose being given matters come back.
struct Given {
  CLI::Option* seed = nullptr;
  CLI::Option* games = nullptr;
  CLI::Option* count = nullptr;
};
Given add_options(CLI::App& app, Args& a) {
  Given given;
  auto& seed = given.seed;
  auto& games = given.games;
  auto& count = given.count;
  app.add_option("--mode", a.mode, "sprint, ultra, marathon, master, contest or endless")->capture_default_str();
  app.add_option("--lines", a.lines, "lines to clear (sprint 40, master 100, endless)");
  app.add_option("--seconds", a.seconds, "game length in seconds (ultra 120, contest 90, endless)");
  app.add_option("--level", a.level, "start level, which sets the gravity (marathon 1..15, others 1..30; not master)");
  app.add_option("--rotation", a.rotation, "rotation system: srs (default), srs_no180, classic or ocular");
  seed = app.add_option("--seed", a.seed, "piece sequence seed; with --games N, seeds S..S+N-1 are played");
  app.add_option("--pps", a.pps_text, "target pieces per second (decimals allowed); 0 = as fast as the keys allow")
      ->capture_default_str();
  app.add_option("--out", a.out_path,
                 "write the replay here (binary replay, .srr); with --games N > 1: FILE-<seed>.srr per game; "
                 "a directory (existing, or ending in '/') gets DIR/<mode>-<seed>.srr");
  games = app.add_option("--games", a.games,
                         "number of games to play (1..1000000); with --ladder: ranked games default to all the entrant "
                         "has left, practice games to 1")
              ->capture_default_str();
  app.add_option("--weights", a.weights_name, "evaluation preset: sprint, survival, score, contest (default: by mode)");
  app.add_option("--lookahead", a.lookahead, "pieces of preview the choice looks at: 1, or 0 (cheaper)")
      ->capture_default_str();
  app.add_option("--search", a.search,
                 "full: tucks and spins (soft drop, then moves and turns); drops: only drops from above (cheaper)")
      ->capture_default_str();
  app.add_option("--tap-ms", a.tap_text, "how long a tap holds its key, MIN-MAX milliseconds")->capture_default_str();
  app.add_option("--gap-ms", a.gap_text, "time between key presses, MIN-MAX milliseconds")->capture_default_str();
  app.add_option("--external", a.external,
                 "a Tetris Bot Protocol program to play instead of the built-in bot (run through /bin/sh -c); the "
                 "first of its suggested moves that can be reached is played, and it forfeits when none can. Solo "
                 "games, --ladder games and --server races (--count 1); online the clock runs while it thinks");
  app.add_option("--think-ms", a.think_ms,
                 "with --external: milliseconds the bot gets to think on each new position before it is asked for "
                 "a move (a bot asked at once may answer with no moves), 0..60000")
      ->capture_default_str();
  app.add_option("--answer-ms", a.answer_ms,
                 "with --external: milliseconds the bot may take to answer; a slower answer loses that game "
                 "(result=slow-answer; online: no more keys are pressed in it), the bot is restarted and the other "
                 "games go on, 1..600000")
      ->capture_default_str();
  app.add_option("--key", a.key_file,
                 "the player key the bots say Hello with, made on first use (default: $XDG_CONFIG_HOME/stackrace/"
                 "player.key, the game's own): a server binds each name to the first key that uses it. With --count "
                 "above 1 each bot has a key derived from this one and its name, the same run after run");
  app.add_flag("--quiet", a.quiet, "print only the aggregate line");
  app.add_flag("--list-weights", a.list_weights, "list the evaluation presets and exit");
  auto* online = app.add_option_group("online", "race on a server instead of playing solo");
  online->add_option("--server", a.server, "HOST:PORT of a stackrace-server (port 7878 if left out)");
  online->add_option("--directory", a.directory,
                     "instead of --server: a server directory (stackrace-hub, http://HOST:PORT); the bots join the "
                     "listed server named --server-name, or the one with the most players");
  online->add_option("--server-name", a.server_name, "with --directory: the listed server's name to join");
  count = online->add_option("--count", a.count, "bots to connect (1..4000); with --external 1")->capture_default_str();
  online->add_option("--room", a.room, "join the public room of this name (with --create: create it if missing)");
  online->add_option("--create", a.create, "create rooms of this mode (sprint, ultra, ...; --lines/--seconds apply)");
  online->add_option("--room-size", a.room_size, "bots per created room (1..16)")->capture_default_str();
  online->add_option("--races", a.races, "races each room plays (1..10000)")->capture_default_str();
  online->add_option("--name-prefix", a.name_prefix, "bots are named PREFIX1, PREFIX2, ...")->capture_default_str();
  online->add_option("--say", a.say,
                     "a chat line the bots say in their room before the first race (repeatable: the lines are shared "
                     "out among each room's bots, at most 5 each)");
  online->add_option("--timeout", a.timeout_s, "give up after this many seconds")->capture_default_str();
  online
      ->add_option("--poll-ms", a.poll_ms,
                   "0: each bot reads the network as soon as a packet arrives (exact relay delays); N: every N ms "
                   "and when it presses, as a game reads once per frame (a cheaper load generator)")
      ->capture_default_str();
  online->add_option("--delays-out", a.delays_out,
                     "write every relay delay measured to this file, a line 'SECONDS_SINCE_START DELAY_MS' each");
  online->add_option("--recorded", a.recorded,
                     "play the games recorded in this directory's replays instead of thinking: a race with seed S "
                     "plays one recorded with seed S and the same rules (a load generator; the server must run with "
                     "--race-seeds, see tests/load/load_test.sh)");

  auto* contest = app.add_option_group(
      "contest ladder", "play or list a contest ladder (a server run with stackrace-server --contest); needs --server");
  contest->add_option(
      "--ladder", a.ladder,
      "play the contest ladder's games as entrant NAME (1..16 printable characters), each alone in a "
      "contest game the server referees (90 seconds unless the server sets another length); ranked games are limited "
      "(10 by default) and count "
      "on the leaderboard by the average of the entrant's best 3; the built-in bot plays, or --external CMD");
  contest->add_flag("--practice", a.practice, "with --ladder: practice games (unlimited, never ranked)");
  contest->add_option("--secret-file", a.secret_file,
                      "with --ladder: the entrant's secret file from before player keys (default: "
                      "$XDG_CONFIG_HOME/stackrace/ladder/NAME.secret), sent when it exists so that an entrant it "
                      "held passes to --key; never made (the key holds new entrants)");
  contest->add_flag("--leaderboard", a.leaderboard, "print the contest ladder's leaderboard and exit");
  return given;
}

// --leaderboard: the contest ladder's leaderboard.
int leaderboard_main(const Args& a) {
  const auto host_port = botcli::parse_host_port(a.server);
  if (!host_port) return usage_error("--server must be HOST or HOST:PORT, e.g. 127.0.0.1:7878");
  return botcli::print_leaderboard(host_port->host, host_port->port, a.timeout_s < 1 ? 1 : std::min(a.timeout_s, 60),
                                   std::cout, std::cerr);
}

// --ladder NAME: the entrant's ranked (or practice) contest games.
int ladder_main(const Args& a, const botcli::PlayerRequest& player) {
  botcli::LadderRunOptions o;
  const auto host_port = botcli::parse_host_port(a.server);
  if (!host_port) return usage_error("--server must be HOST or HOST:PORT, e.g. 127.0.0.1:7878");
  o.host = host_port->host;
  o.port = host_port->port;
  if (auto checked = protocol::check_text(a.ladder, protocol::kPlayerNameText); !checked) {
    return usage_error("--ladder: the entrant's name is not valid: " + checked.error());
  }
  o.entrant = a.ladder;
  o.ranked = !a.practice;
  auto key = load_key(a);
  if (!key) {
    std::cerr << "stackrace-bot: " << key.error() << "\n";
    return 2;
  }
  o.key = key.value();
  if (a.games_given) {
    if (a.games < 1 || a.games > 1'000'000) return usage_error("--games must be 1..1000000");
    o.games = static_cast<int>(a.games);
  }
  if (a.secret_file.empty()) {
    auto path = net::default_secret_file(a.ladder);
    if (!path.ok()) return usage_error(path.error());
    o.secret_file = path.value();
  } else {
    o.secret_file = a.secret_file;
  }
  if (a.timeout_s < 1) return usage_error("--timeout must be at least 1 second");
  o.timeout_s = a.timeout_s;
  const auto chosen = botcli::check_player(player, "contest");
  if (!chosen) return usage_error(chosen.error());
  o.bot = chosen.value().bot;
  o.external = chosen.value().external;
  return botcli::run_ladder(o, std::cout, std::cerr);
}

// --server HOST:PORT: bots racing in rooms on a server.
int online_main(const Args& a, const botcli::PlayerRequest& player) {
  // --external races one bot: --count defaults to 1 then.
  const int count = !a.external.empty() && !a.count_given ? 1 : a.count;
  botcli::OnlineOptions o;
  const auto host_port = botcli::parse_host_port(a.server);
  if (!host_port) return usage_error("--server must be HOST or HOST:PORT, e.g. 127.0.0.1:7878");
  o.host = host_port->host;
  o.port = host_port->port;
  if (count < 1 || count > 4000) return usage_error("--count must be 1..4000");
  if (a.room_size < 1 || a.room_size > 16) return usage_error("--room-size must be 1..16");
  if (a.races < 1 || a.races > 10'000) return usage_error("--races must be 1..10000");
  if (a.timeout_s < 1) return usage_error("--timeout must be at least 1 second");
  if (a.name_prefix.empty() || a.name_prefix.size() > 10) return usage_error("--name-prefix must be 1..10 characters");
  if (a.room.empty() && a.create.empty())
    return usage_error("give --room NAME to join, or --create MODE to make rooms");
  o.count = count;
  auto key = load_key(a);
  if (!key) {
    std::cerr << "stackrace-bot: " << key.error() << "\n";
    return 2;
  }
  o.key = key.value();
  o.room_size = a.room_size;
  o.races = a.races;
  o.timeout_s = a.timeout_s;
  o.name_prefix = a.name_prefix;
  o.delays_out = a.delays_out;
  o.recorded = a.recorded;
  if (a.poll_ms < 0 || a.poll_ms > 1000) return usage_error("--poll-ms must be 0..1000");
  o.poll_every_ms = a.poll_ms;
  if (!a.room.empty()) o.room = a.room;
  for (const std::string& line : a.say) {
    if (const auto ok = protocol::check_text(line, protocol::kChatText); !ok) {
      return usage_error("--say: " + ok.error());
    }
  }
  o.say = a.say;
  if (!a.create.empty()) {
    const auto made = botcli::config_for(botcli::ModeRequest{a.create, a.lines, a.seconds, a.level, a.rotation});
    if (!made) return usage_error(made.error());
    o.create = made.value();
  }
  const auto chosen = botcli::check_player(player, "");  // weights: each game's mode unless named
  if (!chosen) return usage_error(chosen.error());
  o.bot = chosen.value().bot;
  o.external = chosen.value().external;
  if (o.external && count != 1) return usage_error("--external races one bot: --count must be 1 (or left out)");
  if (!o.recorded.empty()) {
    if (o.external) return usage_error("--recorded and --external cannot go together");
    if (o.room || !o.create) return usage_error("--recorded races in rooms it creates: give --create MODE, not --room");
    if (o.races != 1) return usage_error("--recorded races one race per room: leave --races out");
    return botcli::run_recorded(o);
  }
  return botcli::run_online(o);
}

// Solo games (--seed): summaries, replays, an external bot.
int solo_main(const Args& a, const botcli::PlayerRequest& player) {
  if (!a.seed_given) return usage_error("--seed is required (or --server to race online)");
  const auto config = botcli::config_for(botcli::ModeRequest{a.mode, a.lines, a.seconds, a.level, a.rotation});
  if (!config) return usage_error(config.error());
  if (a.games < 1 || a.games > 1'000'000) return usage_error("--games must be 1..1000000");
  const auto chosen = botcli::check_player(player, bot::default_weights_name(config.value().mode));
  if (!chosen) return usage_error(chosen.error());
  const auto tap = botcli::parse_ms_range(a.tap_text);
  const auto gap = botcli::parse_ms_range(a.gap_text);
  if (!tap) return usage_error("--tap-ms must be MIN-MAX milliseconds within 1..1000, e.g. 30-60");
  if (!gap) return usage_error("--gap-ms must be MIN-MAX milliseconds within 1..1000, e.g. 15-30");

  botcli::SoloOptions solo;
  solo.config = config.value();
  solo.first_seed = a.seed;
  solo.games = a.games;
  solo.weights_name = chosen.value().weights_name;
  solo.per_game_lines = !a.quiet;
  solo.settings = chosen.value().bot;
  solo.settings.timing = bot::Timing{tap->lo, tap->hi, gap->lo, gap->hi};

  std::optional<botcli::ReplayOut> replay_out;
  if (!a.out_path.empty()) {
    auto made = botcli::ReplayOut::open(a.out_path, a.games > 1);
    if (!made) return usage_error(made.error());
    replay_out = std::move(made.value());
    solo.on_game = [&](const botcli::PlayedGame& g) { return replay_out->write(g, std::cerr); };
  }
  if (chosen.value().external) return botcli::run_external(solo, *chosen.value().external, std::cout, std::cerr);
  return botcli::run_solo(solo, std::cout);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"stackrace-bot: plays stackrace headless, like a person at a keyboard, and writes replays."};
  Args a;
  const Given given = add_options(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usage_error(e.what());
  }

  a.seed_given = given.seed->count() > 0;
  a.games_given = given.games->count() > 0;
  a.count_given = given.count->count() > 0;
  // The player options every run shares, checked by one rule (botcli::check_player) on every branch below.
  const botcli::PlayerRequest player{a.pps_text, a.weights_name, a.lookahead, a.search,
                                     a.external, a.think_ms,     a.answer_ms};

  if (a.list_weights) {
    for (const auto& p : bot::weights_presets()) std::cout << fmt::format("{:<9} {}\n", p.name, p.purpose);
    return 0;
  }
  if (!a.server_name.empty() && a.directory.empty()) return usage_error("--server-name needs --directory");
  if (!a.directory.empty()) {
    if (!a.server.empty()) return usage_error("give --server HOST:PORT or --directory URL, not both");
    auto listed = botcli::fetch_directory(a.directory);
    if (!listed) {
      std::cerr << "stackrace-bot: " << listed.error() << "\n";
      return 2;
    }
    const std::optional<std::string> name =
        a.server_name.empty() ? std::nullopt : std::optional<std::string>(a.server_name);
    auto picked = botcli::pick_server(listed.value(), name, protocol::kProtocolVersion);
    if (!picked) {
      std::cerr << "stackrace-bot: " << picked.error() << "\n";
      return 2;
    }
    const bool v6 = picked.value().address.find(':') != std::string::npos;
    a.server = (v6 ? "[" + picked.value().address + "]" : picked.value().address) + ":" +
               std::to_string(picked.value().info.port);
    std::cout << fmt::format("found '{}' at {} in {}\n", picked.value().info.name, a.server, a.directory);
  }
  if ((!a.ladder.empty() || a.leaderboard) && a.server.empty()) {
    return usage_error("--ladder and --leaderboard need --server HOST:PORT");
  }
  if (!a.ladder.empty() && a.leaderboard) return usage_error("give --ladder NAME or --leaderboard, not both");
  if ((a.practice || !a.secret_file.empty()) && a.ladder.empty())
    return usage_error("--practice and --secret-file need --ladder");
  if (!a.recorded.empty() && (a.server.empty() || !a.ladder.empty())) {
    return usage_error("--recorded races on a server: give --server HOST:PORT (not --ladder)");
  }
  if (a.leaderboard) return leaderboard_main(a);
  if (!a.ladder.empty()) return ladder_main(a, player);
  if (!a.server.empty()) return online_main(a, player);
  return solo_main(a, player);
}
