// `stackrace-bot --directory URL`: the server to race on, picked from a directory's list (stackrace-hub's
// GET /api/servers, common/protocol/DIRECTORY.md) instead of typed with --server.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "net/discovery/server_info.h"

namespace sr::botcli {

// The server of `listed` to join: the one named `name` (exactly) when a name is given, else the one with the most
// players (the first listed of those). Only servers of `protocol` count. An error sentence when none fits ("the
// directory lists no server named 'x'", "... speaks protocol 7, this bot 8").
[[nodiscard]] sr::Result<net::ListedServer, std::string> pick_server(const std::vector<net::ListedServer>& listed,
                                                                     const std::optional<std::string>& name,
                                                                     std::uint32_t protocol);

// GETs URL/api/servers (http only; a 10 s deadline) and parses it. The list, or an error sentence naming the URL.
[[nodiscard]] sr::Result<std::vector<net::ListedServer>, std::string> fetch_directory(const std::string& url);

}  // namespace sr::botcli
