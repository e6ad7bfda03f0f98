#include "client/app/cli.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "client/app/net_play.h"
#include "client/solo/modes.h"
#include "client/web/game_link.h"
#include "common/protocol/messages.h"
#include "common/protocol/web_url.h"

namespace sr::client {
namespace {

// The multiplayer options go together in few ways; anything else is a sentence, never a surprise later.
std::string check_net_options(const CLI::App& cli, AppOptions& o) {
  const bool net = o.host_port || o.connect || o.browse;
  if (o.host_port && o.connect) return "--host-port and --connect exclude each other (hosting joins the own server)";
  if (o.browse && (o.host_port || o.connect)) return "--browse, --host-port and --connect exclude each other";
  if (o.records && (net || o.mode || o.replay_file || o.bench_frames > 0)) {
    return "--records does not go with --host-port, --connect, --browse, --mode, a replay FILE or LINK, or "
           "--bench-frames";
  }
  for (std::string& url : o.directories) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    if (auto parsed = protocol::parse_web_url(url + "/api/servers"); !parsed) {
      return "--directory \"" + url + "\" is not a directory's address: " + parsed.error();
    }
  }
  if (o.port_file && !o.host_port) return "--port-file needs --host-port";
  if (o.connect && !parse_address(*o.connect)) {
    return "--connect \"" + *o.connect + "\" is not an address: HOST or HOST:PORT with a port of 1-65535";
  }
  if (o.create_room && o.spectate) return "--create-room and --spectate exclude each other";
  bool room_options = false;
  for (const char* name :
       {"--lines", "--seconds", "--variable-goal", "--max-racers", "--private", "--no-auto-start", "--room-name"}) {
    room_options = room_options || cli.count(name) > 0;
  }
  if (room_options && !o.create_room) {
    return "--lines, --seconds, --variable-goal, --max-racers, --private, --no-auto-start and --room-name need "
           "--create-room";
  }
  if (!net && (o.create_room || o.spectate || o.auto_ready || o.exit_after_race)) {
    return "--create-room, --spectate, --auto-ready and --exit-after-race need --host-port, --connect or --browse";
  }
  if (net && (o.mode || o.replay_file || o.bench_frames > 0)) {
    return "--host-port and --connect do not go with --mode, a replay FILE or LINK, or --bench-frames";
  }
  if (o.spectate && o.spectate->empty()) return "--spectate needs a room name";
  if (o.create_room) {
    auto made = room_form_for_cli(*o.create_room, o.lines, o.seconds, o.variable_goal);
    if (!made) return "--create-room: " + made.error();
    RoomForm form = std::move(made.value());
    form.name = o.room_name;
    form.max_racers = o.max_racers;
    form.is_private = o.private_room;
    form.auto_start = !o.no_auto_start;
    form.stall_budget_s = o.stall_budget_s;
    if (const auto settings = form.to_settings(); !settings) return "--create-room: " + settings.error();
    o.room = std::move(form);
  }
  return {};
}

}  // namespace

std::optional<int> parse_command_line(int argc, char** argv, AppOptions& o) {
  CLI::App cli{"stackrace: a deterministic tetromino racing game. Without options it opens the main menu."};
  cli.set_version_flag("--version", "stackrace 0.1.0");
  cli.add_option("--mode", o.mode, "Start straight into a game: sprint, ultra, marathon, master, endless, contest");
  cli.add_option("--limit", o.limit, "With --mode: lines for sprint and master, seconds for ultra");
  cli.add_option("--seed", o.seed, "With --mode: the piece seed (quick restart keeps it); random otherwise");
  cli.add_option("--bot-pps", o.bot_pps, "With --mode: race the bot at this many pieces per second")
      ->check(CLI::Range(0.1, 10.0));
  cli.add_option("--config-dir", o.config_dir, "Where settings.json lives (default $XDG_CONFIG_HOME/stackrace)");
  cli.add_option("--data-dir", o.data_dir, "Where replays are saved (default $XDG_DATA_HOME/stackrace)");
  cli.add_option("--screenshot", o.screenshot, "Where F12 writes its PNG (default <data-dir>/screenshots/...)");
  cli.add_option("--countdown-ms", o.countdown_ms,
                 "Length of the 3-2-1 countdown of solo games, this session (default: the setting, 3000)")
      ->check(CLI::Range(0, 10'000));
  cli.add_flag("--exit-after-game", o.exit_after_game,
               "Quit once the game started with --mode ends (after saving its replay)");
  cli.add_option("--bench-frames", o.bench_frames,
                 "Frame-time benchmark: N frames with 1 board, then N with 16 boards at the window size; "
                 "prints average and 99th percentile and quits")
      ->check(CLI::Range(1, 1'000'000));
  cli.add_option("--width", o.width, "Window width")->check(CLI::Range(320, 16384));
  cli.add_option("--height", o.height, "Window height")->check(CLI::Range(240, 16384));
  cli.add_flag("--fullscreen", o.fullscreen, "Start in fullscreen (F11 toggles)");
  bool no_vsync = false;
  cli.add_flag("--no-vsync", no_vsync, "Do not wait for the display's refresh");
  cli.add_option("--frame-cap", o.frame_cap,
                 "Frames per second where vsync is not honoured, for this run: 0 = the monitor's rate, or 30-1000 "
                 "(default: settings.json's frame_cap)")
      ->check(CLI::Range(0, 1000));
  cli.add_option("--log-level", o.log_level, "trace, debug, info, warn, error");
  cli.add_option("FILE_OR_LINK", o.replay_file,
                 "A replay to watch in the viewer: a file (.srr or its JSON export), or a game's web link "
                 "http://HOST:PORT[/PREFIX]/games/<id> (a server's web pages, copied from the results or the replay "
                 "browser): its replay, LINK.srr, is downloaded and verified; https links are not supported");
  cli.add_option("--host-port", o.host_port, "Host a server on this port (0 = any free port) and join it");
  cli.add_option("--port-file", o.port_file, "With --host-port: write the port to this file");
  cli.add_option("--connect", o.connect, "Join the server at HOST:PORT (port 7878 if left out)");
  cli.add_flag("--browse", o.browse,
               "Open Multiplayer > Browse servers at start: the directories' servers and the LAN's, with pings; the "
               "room options below apply to the server joined from there");
  cli.add_option("--directory", o.directories,
                 "A server directory (stackrace-hub) to list servers from, http://HOST:PORT; kept in the settings "
                 "(Browse servers lists and edits them; Records reads the record boards of the same hubs); may be "
                 "given more than once");
  cli.add_flag("--records", o.records,
               "Open Records at start: the record boards of the hubs among the directories (--directory adds one)");
  cli.add_option("--create-room", o.create_room,
                 "With --host-port or --connect: create a room of this mode: sprint, ultra, marathon, master, "
                 "endless or contest (custom rooms: in the game's Create room form)");
  cli.add_option("--lines", o.lines, "With --create-room sprint, master or endless: lines to clear")
      ->check(CLI::Range(RoomForm::kMinLines, RoomForm::kMaxLines));
  cli.add_option("--seconds", o.seconds, "With --create-room ultra, contest or endless: seconds")
      ->check(CLI::Range(RoomForm::kMinSeconds, RoomForm::kMaxSeconds));
  cli.add_flag("--variable-goal", o.variable_goal, "With --create-room marathon: the variable goal (5 x level lines)");
  cli.add_option("--max-racers", o.max_racers, "With --create-room: racers at most (1-16)")
      ->check(CLI::Range(1, static_cast<int>(protocol::kMaxRacers)));
  cli.add_flag("--private", o.private_room, "With --create-room: a private room, joined by its code");
  cli.add_flag("--no-auto-start", o.no_auto_start,
               "With --create-room: the host starts the race (not when everyone is ready)");
  cli.add_option("--room-name", o.room_name, "With --create-room: the room's name");
  cli.add_option("--stall-budget", o.stall_budget_s,
                 "With --create-room: seconds of game time a racer may send late over a race (a stalled connection) "
                 "before the server removes them")
      ->check(CLI::Range(0, static_cast<int>(protocol::kMaxStallBudgetS)));
  cli.add_option("--spectate", o.spectate,
                 "With --host-port or --connect: watch the public room of this name (joined mid-race, the race is "
                 "shown from where it is)");
  cli.add_flag("--auto-ready", o.auto_ready, "Get ready once another racer is in the room");
  cli.add_option("--resume-seconds", o.resume_seconds,
                 "How long to keep trying to get back into a race after the connection drops (the server keeps "
                 "the seat for 60 s)")
      ->check(CLI::Range(1, 600));
  cli.add_flag("--exit-after-race", o.exit_after_race,
               "Quit once the first race's results are shown (after the --screenshot, if given)");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  o.vsync = !no_vsync;
  if (o.frame_cap && *o.frame_cap != 0 && *o.frame_cap < 30) {
    std::cerr << "stackrace: --frame-cap is 0 (the monitor's rate) or 30 to 1000\n";
    return 2;
  }
  if (const std::string error = check_net_options(cli, o); !error.empty()) {
    std::cerr << "stackrace: " << error << "\n";
    return 2;
  }
  if (o.replay_file && looks_like_link(o.replay_file->string())) {
    if (auto link = parse_game_link(o.replay_file->string()); !link) {
      std::cerr << "stackrace: " << link.error() << "\n";
      return 2;
    }
    o.replay_link = o.replay_file->string();
    o.replay_file.reset();
  }
  if (o.mode) {
    if (const auto config = config_for_cli(*o.mode, o.limit); !config) {
      std::cerr << "stackrace: " << config.error() << "\n";
      return 2;
    }
  } else if (o.limit || o.seed || o.bot_pps || o.exit_after_game) {
    std::cerr << "stackrace: --limit, --seed, --bot-pps and --exit-after-game need --mode\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace sr::client
