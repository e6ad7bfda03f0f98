// The info JSON a server answers queries with and registers with the directory (common/protocol/DIRECTORY.md, "The
// info JSON"): built from the lobby's public rooms on the game loop, never longer than fits an info datagram.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/protocol/records.h"

namespace sr::server {

struct ServerInfoFields {
  std::string name;          // LobbyOptions::server_name
  std::size_t players = 0;   // connected now
  std::size_t capacity = 0;  // LobbyOptions::max_players
  bool ladder = false;       // runs a contest ladder
  std::string web;           // the pages' public address (--web-url), empty: left out
  std::uint16_t port = 0;    // the game port
};

// At most this many rooms are listed (most racers first), fewer when they would not fit.
inline constexpr std::size_t kMaxInfoRooms = 8;

// The info JSON: the fields above, `protocol` (protocol::kProtocolVersion), `version` (the program's version),
// `rooms` (of `rooms`, which must be public: most racers first, ties by room id, at most kMaxInfoRooms, cut further
// until the whole is at most protocol::kMaxInfoJsonBytes) and `racing` (any room of `rooms` in its race, listed or
// not). Always within protocol::kMaxInfoJsonBytes: names are at most 32 bytes and the web address 200.
[[nodiscard]] std::string server_info_json(const ServerInfoFields& fields,
                                           const std::vector<protocol::RoomInfo>& rooms);

// The names of the phases the info JSON uses ("waiting", ..., "results"; modes are engine::mode_name's).
[[nodiscard]] const char* phase_name(protocol::RoomPhase phase);

// The program's version ("0.1.0"): the project version CMake builds.
[[nodiscard]] const char* program_version();

}  // namespace sr::server
