// The JSON API (server/web/api.h, web/API.md): its filters, its objects built from the lobby snapshot, and the
// store's answers, exactly.
#include "server/web/api.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "common/engine/config.h"
#include "common/replay/codec.h"
#include "tests/replays/test_support.h"

namespace sr::server::web {
namespace {

namespace rt = replay::testing;

Route route_to(RouteKind kind, std::string game_id = {}) {
  Route r;
  r.kind = kind;
  r.game_id = std::move(game_id);
  return r;
}

LobbySnapshot lobby() {
  LobbySnapshot s;
  s.server_name = "test<server>";
  s.motd = "hello & welcome";
  s.game_port = 7878;
  s.players = 3;
  protocol::RoomInfo room;
  room.room_id = 4;
  room.settings.name = "\"><img src=x>";
  room.settings.config = engine::make_sprint();
  room.settings.max_racers = 8;
  room.phase = protocol::RoomPhase::kRacing;
  room.race_id = 2;
  room.code = "ABCDEF";
  room.members = {{1, "<script>", protocol::Role::kRacer, true}, {2, "watcher", protocol::Role::kSpectator, false}};
  s.rooms = {room};
  s.unix_ms = 1'700'000'000'000;
  return s;
}

TEST(Api, ServerInfo) {
  const LobbySnapshot s = lobby();
  EXPECT_EQ(server_json(&s, true),
            "{\"api_version\":1,\"name\":\"test\\u003cserver\\u003e\",\"motd\":\"hello \\u0026 welcome\","
            "\"game_port\":7878,\"protocol_version\":" +
                std::to_string(protocol::kProtocolVersion) +
                ",\"rules_version\":" + std::to_string(engine::kRulesVersion) +
                ",\"players\":3,\"public_rooms\":1,\"races_running\":1,\"contest\":false,\"engine\":true,"
                "\"updated_unix_ms\":1700000000000}");
  EXPECT_NE(server_json(nullptr, false).find("\"name\":\"\""), std::string::npos);
}

TEST(Api, RoomsWithTheirMembersEscapedAndNoCode) {
  const LobbySnapshot s = lobby();
  const std::string expected_room =
      "{\"id\":4,\"name\":\"\\\"\\u003e\\u003cimg src=x\\u003e\",\"mode\":{\"mode\":\"sprint\",\"limit\":\"lines\","
      "\"limit_value\":40,\"goal\":\"time\"},\"phase\":\"racing\",\"race_id\":2,\"max_racers\":8,\"racers\":1,"
      "\"spectators\":1,\"members\":[{\"name\":\"\\u003cscript\\u003e\",\"role\":\"racer\",\"ready\":true},"
      "{\"name\":\"watcher\",\"role\":\"spectator\",\"ready\":false}],\"live\":\"live/4\"}";
  EXPECT_EQ(rooms_json(&s), "{\"rooms\":[" + expected_room + "]}");
  EXPECT_EQ(room_json(&s, 4), expected_room);
  EXPECT_EQ(room_json(&s, 5), std::nullopt);
  EXPECT_EQ(rooms_json(nullptr), "{\"rooms\":[]}");
}

TEST(Api, TheLadderOnlyWhenItRuns) {
  LobbySnapshot s = lobby();
  EXPECT_EQ(ladder_json(&s), std::nullopt);
  protocol::Ladder l;
  l.ranked_games = 10;
  l.counted_best = 3;
  l.entrants = 1;
  l.rows = {protocol::LadderRow{"rocket", 2, {{0xff, 2000, 20}, {0, 1200, 12}}}};
  s.ladder = l;
  EXPECT_EQ(ladder_json(&s),
            "{\"ranked_games\":10,\"counted_best\":3,\"entrants\":1,\"rows\":[{\"rank\":1,\"entrant\":\"rocket\","
            "\"average\":\"1066.67\",\"ranked_played\":2,\"best\":[{\"game_id\":\"00000000000000ff\",\"score\":2000,"
            "\"lines\":20},{\"game_id\":null,\"score\":1200,\"lines\":12}]}]}");
}

TEST(Api, GameFilters) {
  const auto q = games_query({{"mode", "ultra"},
                              {"player", "a b"},
                              {"since", "2024-02-29"},
                              {"until", "86400000"},
                              {"result", "topped_out"},
                              {"after", "ABCDEF0123456789"},
                              {"limit", "100"},
                              {"x", ""}});
  ASSERT_TRUE(q.ok()) << q.error();
  EXPECT_EQ(q.value().mode, engine::ModeKind::kUltra);
  EXPECT_EQ(q.value().player, "a b");
  EXPECT_EQ(q.value().since_unix_ms, 1'709'164'800'000);
  EXPECT_EQ(q.value().until_unix_ms, 86'400'000);
  EXPECT_EQ(q.value().status, replay::ResultStatus::kToppedOut);
  EXPECT_EQ(q.value().after_id, "abcdef0123456789");
  EXPECT_EQ(q.value().limit, 100u);
  EXPECT_EQ(games_query({{"result", "verified"}}).value().verified, true);
  EXPECT_EQ(games_query({{"result", "unverified"}}).value().verified, false);
  EXPECT_EQ(games_query({}).value().limit, kDefaultGamesPerPage);
  EXPECT_EQ(games_query({{"mode", "<b>"}}).error(), "unknown mode '<b>'");
  EXPECT_EQ(games_query({{"limit", "0"}}).error(), "limit: 1..100");
  EXPECT_EQ(games_query({{"limit", "101"}}).error(), "limit: 1..100");
  EXPECT_EQ(games_query({{"since", "2024-13-01"}}).error(), "since: a date (YYYY-MM-DD) or unix milliseconds");
  EXPECT_EQ(games_query({{"after", "zz"}}).error(), "after: a game id (16 hex digits)");
  EXPECT_EQ(games_query({{"result", "won"}}).error(),
            "result: finished, topped_out, disconnected, forfeited, unfinished, verified or unverified");
  EXPECT_EQ(games_query({{"player", std::string(65, 'a')}}).error(), "player: a name is at most 64 bytes");
  EXPECT_EQ(games_query({{"sort", "x"}}).error(), "unknown parameter 'sort'");
  EXPECT_EQ(parse_day_or_ms("1970-01-02"), 86'400'000);
  EXPECT_EQ(parse_day_or_ms("-5"), std::nullopt);
}

class StoreApi : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sr-web-api-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    auto store = replay::ReplayStore::open(dir_, true);
    ASSERT_TRUE(store.ok());
    replay::Replay a = rt::small_sprint(20, 1);
    a.created_unix_ms = 1'000;
    a.racers[0].name = "alice";
    replay::Replay b = rt::small_sprint(25, 2);
    b.created_unix_ms = 2'000;
    b.racers[0].name = "<bob>";
    old_ = store.value().add(a).value();
    new_ = store.value().add(b).value();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string body(const HttpResponse& r) { return r.body ? *r.body : std::string(); }

  std::filesystem::path dir_;
  std::string old_, new_;
};

TEST_F(StoreApi, GamesNewestFirstWithPaging) {
  StoreReader reader(dir_);
  const HttpResponse all = reader.answer(route_to(RouteKind::kApiGames), {});
  EXPECT_EQ(all.status, 200);
  const std::string text = body(all);
  EXPECT_LT(text.find(new_), text.find(old_));
  EXPECT_NE(text.find("\"next_after\":null"), std::string::npos);
  EXPECT_NE(text.find("\"name\":\"\\u003cbob\\u003e\""), std::string::npos) << text;
  const HttpResponse first = reader.answer(route_to(RouteKind::kApiGames), {{"limit", "1"}});
  EXPECT_NE(body(first).find("\"next_after\":\"" + new_ + "\""), std::string::npos) << body(first);
  const HttpResponse second = reader.answer(route_to(RouteKind::kApiGames), {{"limit", "1"}, {"after", new_}});
  EXPECT_NE(body(second).find(old_), std::string::npos);
  EXPECT_EQ(body(second).find(new_), std::string::npos);
}

TEST_F(StoreApi, FiltersByPlayerDateAndResult) {
  StoreReader reader(dir_);
  const std::string by_player = body(reader.answer(route_to(RouteKind::kApiGames), {{"player", "alice"}}));
  EXPECT_NE(by_player.find(old_), std::string::npos);
  EXPECT_EQ(by_player.find(new_), std::string::npos);
  const std::string by_date = body(reader.answer(route_to(RouteKind::kApiGames), {{"since", "1500"}}));
  EXPECT_EQ(by_date.find(old_), std::string::npos);
  EXPECT_NE(by_date.find(new_), std::string::npos);
  const std::string forfeited = body(reader.answer(route_to(RouteKind::kApiGames), {{"result", "forfeited"}}));
  EXPECT_NE(forfeited.find(old_), std::string::npos);
  const std::string finished = body(reader.answer(route_to(RouteKind::kApiGames), {{"result", "finished"}}));
  EXPECT_EQ(finished, "{\"games\":[],\"next_after\":null}");
  EXPECT_EQ(reader.answer(route_to(RouteKind::kApiGames), {{"mode", "x"}}).status, 400);
}

TEST_F(StoreApi, OneGameAndItsJsonForm) {
  StoreReader reader(dir_);
  const HttpResponse game = reader.answer(route_to(RouteKind::kApiGame, old_), {});
  EXPECT_EQ(game.status, 200);
  EXPECT_EQ(body(game).rfind("{\"id\":\"" + old_ + "\",\"played_unix_ms\":1000,\"place\":\"local\"", 0), 0u)
      << body(game);
  EXPECT_NE(body(game).find("\"page\":\"games/" + old_ + "\",\"srr\":\"games/" + old_ + ".srr\""), std::string::npos);
  EXPECT_EQ(reader.answer(route_to(RouteKind::kApiGame, "0000000000000000"), {}).status, 404);
  const HttpResponse json = reader.answer(route_to(RouteKind::kReplayJson, old_), {});
  EXPECT_EQ(json.status, 200);
  const auto decoded = replay::decode_json(body(json));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded.value().racers[0].name, "alice");
  EXPECT_EQ(reader.answer(route_to(RouteKind::kReplayJson, "0000000000000000"), {}).status, 404);
}

// Two keys raced as "alice": each of her rows names its key and says the name is shared, so the pages can show
// "alice #cb2f5160" and "alice #bdf247bd"; <bob>, alone with his name and without a key, is shown as he is.
TEST_F(StoreApi, RacersCarryTheirKeysShortIdAndWhetherAnotherKeyUsedTheName) {
  {
    auto store = replay::ReplayStore::open(dir_);
    ASSERT_TRUE(store.ok());
    for (std::uint8_t first : {std::uint8_t{0}, std::uint8_t{100}}) {
      replay::Replay keyed = rt::small_sprint(20, 3 + first);
      keyed.created_unix_ms = 3'000 + first;
      keyed.racers[0].name = "alice";
      keyed.racers[0].key.emplace();
      for (std::size_t i = 0; i < replay::kRacerKeyBytes; ++i)
        (*keyed.racers[0].key)[i] = static_cast<std::uint8_t>(first + i);
      ASSERT_TRUE(store.value().add(keyed).ok());
    }
  }
  StoreReader reader(dir_);
  const std::string text = body(reader.answer(route_to(RouteKind::kApiGames), {}));
  EXPECT_NE(text.find("{\"name\":\"alice\",\"key_id\":\"bdf247bd\",\"name_shared\":true,"), std::string::npos) << text;
  EXPECT_NE(text.find("{\"name\":\"alice\",\"key_id\":\"cb2f5160\",\"name_shared\":true,"), std::string::npos) << text;
  EXPECT_NE(text.find("{\"name\":\"alice\",\"key_id\":\"\",\"name_shared\":false,"), std::string::npos) << text;
  EXPECT_NE(text.find("{\"name\":\"\\u003cbob\\u003e\",\"key_id\":\"\",\"name_shared\":false,"), std::string::npos)
      << text;
}

TEST_F(StoreApi, RecordsTakeModeAndPlayerOnly) {
  StoreReader reader(dir_);
  const HttpResponse records = reader.answer(route_to(RouteKind::kApiRecords), {});
  EXPECT_EQ(records.status, 200);
  EXPECT_EQ(body(records), "{\"records\":[]}");  // forfeited games hold no record
  EXPECT_EQ(reader.answer(route_to(RouteKind::kApiRecords), {{"since", "5"}}).status, 400);
}

TEST(StoreApiMissing, AStoreThatCannotBeReadIsA503) {
  StoreReader reader("/nonexistent/stackrace-store");
  EXPECT_EQ(reader.answer(route_to(RouteKind::kApiGames), {}).status, 503);
}

}  // namespace
}  // namespace sr::server::web
