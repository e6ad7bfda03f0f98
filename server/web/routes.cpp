#include "server/web/routes.h"

#include "common/ascii.h"
#include "server/web/web_json.h"

namespace sr::server::web {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

Route file(std::string name, std::uint32_t room = 0) { return Route{RouteKind::kFile, std::move(name), {}, room}; }

Route api(std::string_view rest) {
  if (rest.empty() || rest == "/") return Route{RouteKind::kApiIndex, {}, {}, 0};
  if (rest == "/server") return Route{RouteKind::kApiServer, {}, {}, 0};
  if (rest == "/rooms") return Route{RouteKind::kApiRooms, {}, {}, 0};
  if (rest == "/games") return Route{RouteKind::kApiGames, {}, {}, 0};
  if (rest == "/records") return Route{RouteKind::kApiRecords, {}, {}, 0};
  if (rest == "/ladder") return Route{RouteKind::kApiLadder, {}, {}, 0};
  if (starts_with(rest, "/games/")) {
    const std::string_view id = rest.substr(7);
    if (is_game_id(id)) return Route{RouteKind::kApiGame, {}, ascii_lower(id), 0};
  }
  if (starts_with(rest, "/rooms/")) {
    std::string_view tail = rest.substr(7);
    const bool live = tail.size() > 5 && tail.substr(tail.size() - 5) == "/live";
    if (live) tail.remove_suffix(5);
    if (const std::uint32_t room = parse_room_id(tail); room != 0) {
      return Route{live ? RouteKind::kApiLive : RouteKind::kApiRoom, {}, {}, room};
    }
  }
  return Route{RouteKind::kApiNotFound, {}, {}, 0};
}

}  // namespace

std::uint32_t parse_room_id(std::string_view text) {
  if (text.empty() || text.size() > 10 || text.front() == '0') return 0;
  std::uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v <= 0xFFFFFFFFull ? static_cast<std::uint32_t>(v) : 0;
}

Route route(std::string_view path, bool metrics) {
  if (path == "/") return file("/index.html");
  if (path == "/games") return file("/games.html");
  if (path == "/verify") return file("/verify.html");
  if (path == "/api/v1" || starts_with(path, "/api/v1/")) return api(path.substr(7));
  if (starts_with(path, "/api/")) return Route{RouteKind::kApiNotFound, {}, {}, 0};
  if (metrics && path == "/metrics") return Route{RouteKind::kMetrics, {}, {}, 0};
  if (metrics && path == "/healthz") return Route{RouteKind::kHealth, {}, {}, 0};
  if (starts_with(path, "/games/")) {
    const std::string_view name = path.substr(7);
    if (is_game_id(name)) return Route{RouteKind::kFile, "/game.html", ascii_lower(name), 0};
    if (name.size() == 20 && name.substr(16) == ".srr" && is_game_id(name.substr(0, 16))) {
      return Route{RouteKind::kReplayFile, {}, ascii_lower(name.substr(0, 16)), 0};
    }
    if (name.size() == 21 && name.substr(16) == ".json" && is_game_id(name.substr(0, 16))) {
      return Route{RouteKind::kReplayJson, {}, ascii_lower(name.substr(0, 16)), 0};
    }
    return Route{};
  }
  if (starts_with(path, "/live/")) {
    if (const std::uint32_t room = parse_room_id(path.substr(6)); room != 0) return file("/live.html", room);
    return Route{};
  }
  // The site's own files: styles, scripts, the engine, icons. Pages are reached by the addresses above.
  if (starts_with(path, "/css/") || starts_with(path, "/js/") || starts_with(path, "/wasm/") ||
      path == "/favicon.svg" || path == "/robots.txt") {
    return file(std::string(path));
  }
  return Route{};
}

}  // namespace sr::server::web
