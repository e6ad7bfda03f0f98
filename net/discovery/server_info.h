// What a browser reads of a server (common/protocol/DIRECTORY.md, "The info JSON") and of a directory's list
// ("GET /api/servers"): tolerant parsers of JSON from the network. Unknown fields are ignored (fields can be added
// without a version change); a field of the wrong type is taken as missing; JSON that is not an object with the
// required fields is refused with a sentence.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sr::net {

struct InfoRoom {
  std::string name;
  std::string mode;   // "sprint", ... "custom", or whatever a newer server says
  std::string phase;  // "waiting", "countdown", "racing", "results", or newer
  std::uint32_t racers = 0;
  std::uint32_t max_racers = 0;
};

struct ServerInfo {
  std::string name;            // required
  std::uint32_t protocol = 0;  // required: PROTOCOL.md's version; another than ours cannot be joined
  std::string version;
  std::uint32_t players = 0;
  std::uint32_t capacity = 0;
  std::vector<InfoRoom> rooms;  // rooms that are not objects are skipped
  bool racing = false;
  bool ladder = false;
  std::string web;         // empty when absent
  std::uint16_t port = 0;  // the game port; required (1..65535)
};

// The info JSON (at most 64 KiB). The info, or why it is refused ("not JSON", "no name").
[[nodiscard]] sr::Result<ServerInfo, std::string> parse_server_info(std::string_view json);

// One server of a directory's list.
struct ListedServer {
  std::string address;  // as the directory writes it (IPv6 without brackets)
  ServerInfo info;      // info.port is the listed port
  std::uint32_t seen_s = 0;
};

// `GET /api/servers`'s answer (at most 4 MiB). Entries that are malformed (no address, no port, bad info) are skipped
// so that one bad entry does not hide the rest; the whole is refused only when it is not {"servers":[...]}.
//
// The fetch itself is the caller's: the game has its own HTTP GET (client/web/http_get.h; https is not supported
// there), bots and tests may use any client. net/ stays free of an HTTP library.
[[nodiscard]] sr::Result<std::vector<ListedServer>, std::string> parse_directory_servers(std::string_view json);

}  // namespace sr::net
