// Which answer each address gets (server/web/routes.h): the pages, the site's files, the API, and refusals.
#include "server/web/routes.h"

#include <gtest/gtest.h>

namespace sr::server::web {
namespace {

TEST(Routes, PagesAreTheSitesFiles) {
  EXPECT_EQ(route("/", false).file, "/index.html");
  EXPECT_EQ(route("/games", false).file, "/games.html");
  EXPECT_EQ(route("/verify", false).file, "/verify.html");
  const Route game = route("/games/0123456789ABCDEF", false);
  EXPECT_EQ(game.kind, RouteKind::kFile);
  EXPECT_EQ(game.file, "/game.html");
  EXPECT_EQ(game.game_id, "0123456789abcdef");
  const Route live = route("/live/42", false);
  EXPECT_EQ(live.kind, RouteKind::kFile);
  EXPECT_EQ(live.file, "/live.html");
  EXPECT_EQ(live.room, 42u);
  EXPECT_EQ(route("/js/live.js", false).file, "/js/live.js");
  EXPECT_EQ(route("/css/site.css", false).file, "/css/site.css");
  EXPECT_EQ(route("/wasm/stackrace_engine.wasm", false).file, "/wasm/stackrace_engine.wasm");
  EXPECT_EQ(route("/favicon.svg", false).file, "/favicon.svg");
}

TEST(Routes, ReplayDownloads) {
  const Route srr = route("/games/00000000000000ff.srr", false);
  EXPECT_EQ(srr.kind, RouteKind::kReplayFile);
  EXPECT_EQ(srr.game_id, "00000000000000ff");
  const Route json = route("/games/00000000000000FF.json", false);
  EXPECT_EQ(json.kind, RouteKind::kReplayJson);
  EXPECT_EQ(json.game_id, "00000000000000ff");
}

TEST(Routes, TheApi) {
  EXPECT_EQ(route("/api/v1", false).kind, RouteKind::kApiIndex);
  EXPECT_EQ(route("/api/v1/", false).kind, RouteKind::kApiIndex);
  EXPECT_EQ(route("/api/v1/server", false).kind, RouteKind::kApiServer);
  EXPECT_EQ(route("/api/v1/rooms", false).kind, RouteKind::kApiRooms);
  EXPECT_EQ(route("/api/v1/games", false).kind, RouteKind::kApiGames);
  EXPECT_EQ(route("/api/v1/records", false).kind, RouteKind::kApiRecords);
  EXPECT_EQ(route("/api/v1/ladder", false).kind, RouteKind::kApiLadder);
  const Route room = route("/api/v1/rooms/7", false);
  EXPECT_EQ(room.kind, RouteKind::kApiRoom);
  EXPECT_EQ(room.room, 7u);
  const Route live = route("/api/v1/rooms/4294967295/live", false);
  EXPECT_EQ(live.kind, RouteKind::kApiLive);
  EXPECT_EQ(live.room, 4294967295u);
  const Route game = route("/api/v1/games/abcdefABCDEF0123", false);
  EXPECT_EQ(game.kind, RouteKind::kApiGame);
  EXPECT_EQ(game.game_id, "abcdefabcdef0123");
  for (const char* path : {"/api/v1/rooms/0", "/api/v1/rooms/4294967296", "/api/v1/rooms/-1", "/api/v1/rooms/07",
                           "/api/v1/games/123", "/api/v1/nothing", "/api/v2/server", "/api/"}) {
    EXPECT_EQ(route(path, false).kind, RouteKind::kApiNotFound) << path;
  }
}

TEST(Routes, MetricsOnlyWhenTheyShareThePort) {
  EXPECT_EQ(route("/metrics", false).kind, RouteKind::kNotFound);
  EXPECT_EQ(route("/metrics", true).kind, RouteKind::kMetrics);
  EXPECT_EQ(route("/healthz", true).kind, RouteKind::kHealth);
}

TEST(Routes, EverythingElseIsNotFound) {
  for (const char* path :
       {"/index.html", "/game.html", "/games/", "/games/xyz", "/games/0123456789abcdef.txt", "/games/0123456789abcdeg",
        "/live/", "/live/0", "/live/abc", "/live/1/2", "/etc/passwd", "/js", "/server.cpp"}) {
    EXPECT_EQ(route(path, false).kind, RouteKind::kNotFound) << path;
  }
  EXPECT_EQ(parse_room_id("12"), 12u);
  EXPECT_EQ(parse_room_id("+12"), 0u);
  EXPECT_EQ(parse_room_id(""), 0u);
}

}  // namespace
}  // namespace sr::server::web
