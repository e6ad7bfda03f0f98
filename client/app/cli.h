// The command line of `stackrace`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "client/lobby/room_form.h"

namespace sr::client {

struct AppOptions {
  std::optional<std::string> mode;  // start straight into this mode
  std::optional<std::int64_t> limit;
  std::optional<std::uint64_t> seed;  // fixed seed (also kept by quick restart)
  std::optional<double> bot_pps;      // race the bot at this speed (with --mode)
  std::optional<std::filesystem::path> config_dir, data_dir;
  std::optional<std::filesystem::path> screenshot;  // where F12 writes
  int bench_frames = 0;
  std::optional<int> countdown_ms;  // the solo countdown for this session (else the setting's)
  bool exit_after_game = false;
  int width = 1280, height = 720;
  bool fullscreen = false;
  bool vsync = true;
  std::optional<int> frame_cap;  // overrides settings.json's frame_cap for this run (0 or 30..1000)
  std::string log_level = "info";
  std::optional<std::filesystem::path> replay_file;  // open this .srr (or its JSON export) in the viewer
  std::optional<std::string> replay_link;  // or download the replay of this game's web link and open it (checked)
  // Multiplayer straight from the command line (tests, LAN parties).
  std::optional<std::uint16_t> host_port;          // host a server on this port (0 = any) and join it
  std::optional<std::filesystem::path> port_file;  // with --host-port: the port is written here
  std::optional<std::string> connect;              // join this server ("host:port", checked by the parser)
  bool browse = false;                             // open Multiplayer > Browse servers at start
  bool records = false;                            // open Records (the hubs' record boards) at start
  std::vector<std::string> directories;            // directories added to the settings (http URLs, checked)
  std::optional<std::string> create_room;          // then create a room of this mode (see room_form_for_cli)
  std::optional<int> lines, seconds;               // its limit
  bool variable_goal = false;                      // marathon rooms: variable goal
  int max_racers = 8;
  bool private_room = false;
  bool no_auto_start = false;
  int stall_budget_s = 10;
  std::string room_name = "race";
  std::optional<RoomForm> room;         // --create-room and its options, as the create-room form would send them
  std::optional<std::string> spectate;  // or watch the public room of this name (mid-race: from where it is)
  bool auto_ready = false;              // ready once another racer is in the room
  bool exit_after_race = false;         // quit after the first race's results (screenshot first)
  int resume_seconds = 60;              // how long a dropped racer tries to get back into the race
};

// Parses argv. Returns an exit code when the program should stop now (--help, --version, bad arguments; the
// message is already printed), nullopt to go on.
[[nodiscard]] std::optional<int> parse_command_line(int argc, char** argv, AppOptions& out);

}  // namespace sr::client
