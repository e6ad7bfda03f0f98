// Which answer a request path gets (web/README.md, "Addresses"; web/API.md). Pure: tests/web_server/routes_test.cpp
// checks every path the pages and the API use, and the ones they must refuse.
//
// Every page's links are relative, so the site works behind a reverse proxy under any path prefix: a page at
// /PREFIX/games/<id> finds its script at ../js/game.js and its replay at <id>.srr.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sr::server::web {

enum class RouteKind : std::uint8_t {
  kNotFound,
  kFile,         // a file of the site: `file` ("/index.html" for "/", "/game.html" for "/games/<id>", "/js/x.js")
  kReplayFile,   // /games/<id>.srr: the stored replay, as it is
  kReplayJson,   // /games/<id>.json: its JSON form (common/replay/FORMAT.md)
  kApiIndex,     // /api/v1
  kApiServer,    // /api/v1/server
  kApiRooms,     // /api/v1/rooms
  kApiRoom,      // /api/v1/rooms/<room>
  kApiLive,      // /api/v1/rooms/<room>/live: the live feed (Server-Sent Events)
  kApiGames,     // /api/v1/games?...
  kApiGame,      // /api/v1/games/<id>
  kApiRecords,   // /api/v1/records?...
  kApiLadder,    // /api/v1/ladder
  kApiNotFound,  // another /api/ path: a JSON 404
  kMetrics,      // /metrics, /healthz: only when the metrics share this port
  kHealth,
};

struct Route {
  RouteKind kind = RouteKind::kNotFound;
  std::string file;        // kFile
  std::string game_id;     // kReplayFile, kReplayJson, kApiGame: 16 hex digits, lower case
  std::uint32_t room = 0;  // kApiRoom, kApiLive (>= 1); also set for the live page (/live/<room>)
};

// `path` is the request's decoded path (HttpRequest::path). With `metrics`, /metrics and /healthz are answered here.
[[nodiscard]] Route route(std::string_view path, bool metrics);

// A room id in a path: 1..4294967295 in decimal digits without sign or leading zero; 0 when not one.
[[nodiscard]] std::uint32_t parse_room_id(std::string_view text);

}  // namespace sr::server::web
