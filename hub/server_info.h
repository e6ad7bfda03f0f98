// What the directory keeps of a game server's registration: the info JSON of common/protocol/DIRECTORY.md ("The info
// JSON"), checked field by field and written out again from the checked values (never the raw input).
#pragma once

#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "web/wasm/json_writer.h"

namespace sr::hub {

inline constexpr std::size_t kMaxRooms = 8;            // rooms per info (DIRECTORY.md, "The info JSON")
inline constexpr std::size_t kMaxVersionBytes = 32;    // printable ASCII
inline constexpr std::int64_t kMaxPlayers = 100'000;   // players and capacity: 0..kMaxPlayers
inline constexpr std::int64_t kMaxRoomRacers = 1'000;  // racers and max_racers of a room: 0..kMaxRoomRacers
inline constexpr std::int64_t kMaxProtocolVersion = 65'535;

// One public room as the server described it.
struct RoomSummary {
  std::string name;             // protocol::kRoomNameText: 1..32 bytes of printable ASCII
  std::string mode;             // one of DIRECTORY.md's modes (sprint, ultra, ...)
  std::int64_t racers = 0;      // 0..kMaxRoomRacers
  std::int64_t max_racers = 0;  // 0..kMaxRoomRacers
  std::string phase;            // waiting, countdown, racing or results
  bool operator==(const RoomSummary&) const = default;
};

struct ServerInfo {
  std::string name;                // protocol::kServerNameText: 1..32 bytes of printable ASCII
  std::int64_t protocol = 0;       // 0..kMaxProtocolVersion: PROTOCOL.md's version the server speaks
  std::string version;             // 0..kMaxVersionBytes of printable ASCII
  std::int64_t players = 0;        // 0..kMaxPlayers
  std::int64_t capacity = 0;       // 0..kMaxPlayers
  std::vector<RoomSummary> rooms;  // 0..kMaxRooms
  bool racing = false;
  bool ladder = false;
  std::string web;  // empty, or an http(s) URL (protocol::kWebUrlText, at most 200 bytes)
  bool operator==(const ServerInfo&) const = default;
};

// Reads the info object. Required: name, protocol, players, capacity. Optional: version (""), rooms ([]), racing
// (true when a room races), ladder (false), web (""). Unknown fields are ignored, as DIRECTORY.md asks of readers.
// # Errors
// A sentence naming the field and what is wrong with it ("info.rooms[2].mode: 'golf' is not a mode").
[[nodiscard]] sr::Result<ServerInfo, std::string> parse_info(const rapidjson::Value& info);

// Ok if object `v` names no member twice (RapidJSON keeps both and finds the first), else "<what> has the key 'k'
// twice" (the key quoted only when it is short printable ASCII).
[[nodiscard]] sr::Status<std::string> check_unique_keys(const rapidjson::Value& v, const std::string& what);

// Writes the info's fields (not an object of its own: the caller opens it, so the listing can add address and port).
void put_info_fields(web::JsonWriter& w, const ServerInfo& info);

}  // namespace sr::hub
