#include "server/web/api.h"

#include <spdlog/spdlog.h>

#include <charconv>
#include <fstream>
#include <iterator>

#include "common/engine/config.h"
#include "common/protocol/messages.h"
#include "common/protocol/text.h"
#include "common/replay/civil_time.h"
#include "common/replay/codec.h"
#include "common/replay/names.h"
#include "replays/store/pg_db.h"
#include "server/web/web_json.h"

namespace sr::server::web {
namespace {

namespace names = replay::names;
using I64 = std::int64_t;

const protocol::RoomInfo* find_room(const LobbySnapshot* s, std::uint32_t room) {
  if (s == nullptr) return nullptr;
  for (const protocol::RoomInfo& r : s->rooms) {
    if (r.room_id == room) return &r;
  }
  return nullptr;
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size()) return std::nullopt;
  return v;
}

// /games/<id>.json from the replay's bytes.
HttpResponse replay_json_response(const std::string& game_id, const std::vector<std::uint8_t>& bytes) {
  auto decoded = replay::decode_binary(bytes);
  if (!decoded) return json_error(500, "the stored replay does not decode: " + decoded.error().describe());
  HttpResponse r = json_response(replay::encode_json(decoded.value()));
  r.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + game_id + ".json\"");
  return r;
}

// /games/<id>.srr from a store in a database: the headers web_server.cpp's replay_file() sends for a file.
HttpResponse replay_bytes_response(const std::string& game_id, const std::vector<std::uint8_t>& bytes) {
  HttpResponse r;
  r.content_type = "application/octet-stream";
  r.body = std::make_shared<const std::string>(bytes.begin(), bytes.end());
  r.headers.emplace_back("Content-Disposition", "attachment; filename=\"" + game_id + ".srr\"");
  // A stored replay never changes: its id is a hash of its bytes.
  r.headers.emplace_back("Cache-Control", "public, max-age=31536000, immutable");
  r.headers.emplace_back("Access-Control-Allow-Origin", "*");
  return r;
}

}  // namespace

std::string api_index_json() {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("api_version").value(kApiVersion);
  w.key("documentation").value("web/API.md in the stackrace repository");
  w.key("endpoints").begin_array();
  for (const char* e :
       {"api/v1/server", "api/v1/rooms", "api/v1/rooms/{room}", "api/v1/rooms/{room}/live", "api/v1/games",
        "api/v1/games/{id}", "api/v1/records", "api/v1/ladder", "games/{id}.srr", "games/{id}.json"}) {
    w.value(e);
  }
  w.end_array();
  w.end_object();
  return w.text();
}

std::string server_json(const LobbySnapshot* s, bool has_engine) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("api_version").value(kApiVersion);
  w.key("name").value(s != nullptr ? s->server_name : std::string());
  w.key("motd").value(s != nullptr ? s->motd : std::string());
  w.key("game_port").value(s != nullptr ? static_cast<I64>(s->game_port) : I64{0});
  w.key("protocol_version").value(static_cast<I64>(protocol::kProtocolVersion));
  w.key("rules_version").value(static_cast<I64>(engine::kRulesVersion));
  w.key("players").value(s != nullptr ? static_cast<I64>(s->players) : I64{0});
  std::size_t racing = 0;
  if (s != nullptr) {
    for (const protocol::RoomInfo& r : s->rooms) {
      racing += r.phase == protocol::RoomPhase::kCountdown || r.phase == protocol::RoomPhase::kRacing ? 1 : 0;
    }
  }
  w.key("public_rooms").value(s != nullptr ? static_cast<I64>(s->rooms.size()) : I64{0});
  w.key("races_running").value(static_cast<I64>(racing));
  w.key("contest").value(s != nullptr && s->ladder.has_value());
  w.key("engine").value(has_engine);
  w.key("updated_unix_ms").value(s != nullptr ? I64{s->unix_ms} : I64{0});
  w.end_object();
  return w.text();
}

std::string rooms_json(const LobbySnapshot* s) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("rooms").begin_array();
  if (s != nullptr) {
    for (const protocol::RoomInfo& r : s->rooms) put_room(w, r);
  }
  w.end_array();
  w.end_object();
  return w.text();
}

std::optional<std::string> room_json(const LobbySnapshot* s, std::uint32_t room) {
  const protocol::RoomInfo* r = find_room(s, room);
  if (r == nullptr) return std::nullopt;
  JsonWriter w = json_writer();
  put_room(w, *r);
  return w.text();
}

std::optional<std::string> ladder_json(const LobbySnapshot* s) {
  if (s == nullptr || !s->ladder) return std::nullopt;
  JsonWriter w = json_writer();
  put_ladder(w, *s->ladder);
  return w.text();
}

std::optional<std::int64_t> parse_day_or_ms(std::string_view text) {
  if (text.size() == 10 && text[4] == '-' && text[7] == '-') {
    const auto year = parse_int(text.substr(0, 4));
    const auto month = parse_int(text.substr(5, 2));
    const auto day = parse_int(text.substr(8, 2));
    if (!year || !month || !day || *year < 1970 || *month < 1 || *month > 12 || *day < 1 || *day > 31) {
      return std::nullopt;
    }
    return replay::days_from_civil(*year, static_cast<std::int32_t>(*month), static_cast<std::int32_t>(*day)) *
           86'400'000;
  }
  const auto ms = parse_int(text);
  if (!ms || *ms < 0 || *ms > replay::kMaxCreatedUnixMs) return std::nullopt;
  return ms;
}

sr::Result<replay::StoreQuery, std::string> games_query(const QueryParams& params) {
  replay::StoreQuery q;
  q.limit = kDefaultGamesPerPage;
  for (const auto& [name, value] : params) {
    if (value.empty()) continue;  // an empty field of a form: no filter
    if (name == "mode") {
      const auto mode = names::index_of(names::kMode, value);
      if (!mode) return std::string("unknown mode '") + value.substr(0, 32) + "'";
      q.mode = static_cast<engine::ModeKind>(*mode);
    } else if (name == "player") {
      if (value.size() > replay::kMaxNameBytes) return std::string("player: a name is at most 64 bytes");
      q.player = value;
    } else if (name == "since" || name == "until") {
      const auto t = parse_day_or_ms(value);
      if (!t) return name + ": a date (YYYY-MM-DD) or unix milliseconds";
      (name == "since" ? q.since_unix_ms : q.until_unix_ms) = *t;
    } else if (name == "result") {
      if (value == "verified" || value == "unverified") {
        q.verified = value == "verified";
      } else if (const auto status = replay::status_from_name(value)) {
        q.status = *status;
      } else {
        return std::string(
            "result: finished, topped_out, disconnected, forfeited, unfinished, verified or "
            "unverified");
      }
    } else if (name == "after") {
      if (!is_game_id(value)) return std::string("after: a game id (16 hex digits)");
      std::string id = value;
      for (char& c : id) c = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
      q.after_id = std::move(id);
    } else if (name == "limit") {
      const auto n = parse_int(value);
      if (!n || *n < 1 || *n > static_cast<std::int64_t>(kMaxGamesPerPage)) return std::string("limit: 1..100");
      q.limit = static_cast<std::size_t>(*n);
    } else {
      return "unknown parameter '" + name.substr(0, 32) + "'";
    }
  }
  return q;
}

std::string games_json(const std::vector<replay::StoredGame>& games, std::size_t limit) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("games").begin_array();
  for (const replay::StoredGame& g : games) put_game(w, g);
  w.end_array();
  w.key("next_after");
  if (!games.empty() && games.size() >= limit) {
    w.value(games.back().id);
  } else {
    w.null();
  }
  w.end_object();
  return w.text();
}

std::string records_json(const std::vector<replay::BestResult>& records) {
  JsonWriter w = json_writer();
  w.begin_object();
  w.key("records").begin_array();
  for (const replay::BestResult& b : records) put_record(w, b);
  w.end_array();
  w.end_object();
  return w.text();
}

replay::ReplayStore* StoreReader::store() {
  if (!store_) {
    auto opened = replay::ReplayStore::open(dir_);
    if (!opened) return nullptr;
    store_.emplace(std::move(opened.value()));
  }
  return &*store_;
}

HttpResponse StoreReader::answer(const Route& route, const QueryParams& params) {
  if (replay::pg::is_locator(dir_.native()) &&
      (route.kind == RouteKind::kReplayJson || route.kind == RouteKind::kReplayFile)) {
    // A store in a database: the bytes come from its row (the folder's files are read directly, below and in
    // web_server.cpp).
    replay::ReplayStore* s = store();
    if (s == nullptr) return json_error(503, "the replay store cannot be read");
    auto loaded = s->load(route.game_id);
    if (!loaded) {
      spdlog::warn("web: {}", loaded.error().message);
      return json_error(404, "no game " + route.game_id + " on this server");
    }
    if (route.kind == RouteKind::kReplayFile) return replay_bytes_response(route.game_id, loaded.value());
    if (loaded.value().size() > kMaxJsonExportSourceBytes) {
      return json_error(404, "this replay is too large for its JSON form");
    }
    return replay_json_response(route.game_id, loaded.value());
  }
  if (route.kind == RouteKind::kReplayJson) {
    const std::filesystem::path file = dir_ / (route.game_id + replay::ReplayStore::kExtension);
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) return json_error(404, "no game " + route.game_id + " on this server");
    if (size > kMaxJsonExportSourceBytes) return json_error(404, "this replay is too large for its JSON form");
    std::ifstream in(file, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return replay_json_response(route.game_id, bytes);
  }
  replay::ReplayStore* s = store();
  if (s == nullptr) return json_error(503, "the replay store cannot be read");
  if (route.kind == RouteKind::kApiGame) {
    replay::StoreQuery q;
    q.id = route.game_id;
    q.limit = 1;
    auto games = s->recent(q);
    if (!games) return json_error(503, "the replay store cannot be read");
    if (games.value().empty()) return json_error(404, "no game " + route.game_id + " on this server");
    JsonWriter w = json_writer();
    put_game(w, games.value().front());
    return json_response(w.text());
  }
  auto query = games_query(params);
  if (!query) return json_error(400, query.error());
  if (route.kind == RouteKind::kApiRecords) {
    if (query.value().after_id || query.value().since_unix_ms || query.value().until_unix_ms || query.value().status ||
        query.value().verified) {
      return json_error(400, "records take only mode and player");
    }
    auto best = s->best(query.value());
    if (!best) return json_error(503, "the replay store cannot be read");
    return json_response(records_json(best.value()));
  }
  auto games = s->recent(query.value());
  if (!games) return json_error(503, "the replay store cannot be read");
  return json_response(games_json(games.value(), query.value().limit));
}

}  // namespace sr::server::web
