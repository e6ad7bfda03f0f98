#include "hub/records/records_routes.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include "common/replay/codec.h"
#include "hub/records/records_json.h"
#include "hub/records/records_pages.h"
#include "hub/records/records_query.h"
#include "net/identity/submission.h"

namespace sr::hub::records {
namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kHtml = "text/html; charset=utf-8";

void json(httplib::Response& res, int status, const std::string& body) {
  res.status = status;
  res.set_header("Cache-Control", "no-cache");
  res.set_header("Access-Control-Allow-Origin", "*");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_content(body, kJson);
}

void html(httplib::Response& res, int status, const std::string& body) {
  res.status = status;
  res.set_header("Cache-Control", "no-cache");
  res.set_header("Content-Security-Policy", kPagePolicy);
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_content(body, kHtml);
}

// A failed read of the book: logged, answered 503.
template <class T>
bool failed(const sr::Result<T, std::string>& r, httplib::Response& res, bool page, const std::string& root) {
  if (r) return false;
  spdlog::warn("records: the record book could not be read: {}", r.error());
  const std::string sentence = "the records cannot be read now; try again later";
  if (page) {
    html(res, 503, message_page("unavailable", sentence, root));
  } else {
    json(res, 503, error_json(sentence));
  }
  return true;
}

}  // namespace

void RecordsHttp::install(httplib::Server& http) {
  http.Post("/api/records/submit", [this](const httplib::Request& req, httplib::Response& res) { submit(req, res); });
  http.Get("/api/records", [this](const httplib::Request& req, httplib::Response& res) { api_boards(req, res); });
  http.Get(R"(/api/records/run/([^/]+))",
           [this](const httplib::Request& req, httplib::Response& res) { run(req, res, false); });
  http.Get(R"(/api/records/([^/]+)/place)",
           [this](const httplib::Request& req, httplib::Response& res) { api_place(req, res); });
  http.Get(R"(/api/records/([^/]+))",
           [this](const httplib::Request& req, httplib::Response& res) { board(req, res, false); });
  http.Get(R"(/api/players/([^/]+))",
           [this](const httplib::Request& req, httplib::Response& res) { player(req, res, false); });
  http.Get("/records", [this](const httplib::Request& req, httplib::Response& res) { page_boards(req, res); });
  http.Get(R"(/records/run/([^/]+))",
           [this](const httplib::Request& req, httplib::Response& res) { run(req, res, true); });
  http.Get(R"(/records/([^/]+))",
           [this](const httplib::Request& req, httplib::Response& res) { board(req, res, true); });
  http.Get(R"(/players/([^/]+))",
           [this](const httplib::Request& req, httplib::Response& res) { player(req, res, true); });
  http.Get(R"(/games/([^/]+))", [this](const httplib::Request& req, httplib::Response& res) { game(req, res); });
  http.Get(R"(/api/v1/games/([^/]+))",
           [this](const httplib::Request& req, httplib::Response& res) { api_game(req, res); });
  http.Get("/games", [this](const httplib::Request&, httplib::Response& res) {
    c_.count(RecordsRoute::kPage);
    res.set_redirect("records");  // the game page's "Games" link: the hub's games are its records
  });
  http.Get("/verify", [this](const httplib::Request&, httplib::Response& res) { site_file(res, "verify.html"); });
  http.Get("/favicon.svg", [this](const httplib::Request&, httplib::Response& res) { site_file(res, "favicon.svg"); });
}

// The hub, or an answer saying there are no records (false).
bool RecordsHttp::on(httplib::Response& res, bool page, const std::string& root) {
  if (c_.hub) return true;
  if (page) {
    html(res, 503, message_page("no records", kNoRecords, root));
  } else {
    json(res, 503, error_json(kNoRecords));
  }
  return false;
}

void RecordsHttp::refuse(httplib::Response& res, bool page, int status, const std::string& sentence,
                         const std::string& root) {
  if (page) {
    html(res, status, message_page(status == 404 ? "not found" : "bad request", sentence, root));
  } else {
    json(res, status, error_json(sentence));
  }
}

void RecordsHttp::submit(const httplib::Request& req, httplib::Response& res) {
  c_.count(RecordsRoute::kSubmit);
  if (!c_.hub) {
    if (c_.count_off) c_.count_off(SubmitResult::kUnavailable);
    json(res, 503, error_json(kNoRecords));
    res.set_header("Retry-After", "3600");
    return;
  }
  const SubmitAnswer a =
      c_.hub->submit(req.remote_addr, req.body, req.get_header_value(net::kSubmissionSignatureHeader));
  json(res, a.status, a.body);
  if (a.retry_after_s > 0) res.set_header("Retry-After", std::to_string(a.retry_after_s));
}

void RecordsHttp::api_boards(const httplib::Request& req, httplib::Response& res) {
  c_.count(RecordsRoute::kApi);
  if (!on(res, false, "./")) return;
  if (!req.params.empty()) return refuse(res, false, 400, "/api/records takes no parameters", "./");
  auto boards = c_.hub->with_book([](RecordBook& b) { return b.boards(); });
  if (failed(boards, res, false, "./")) return;
  json(res, 200, boards_json(boards.value()));
}

void RecordsHttp::page_boards(const httplib::Request& req, httplib::Response& res) {
  c_.count(RecordsRoute::kPage);
  if (!on(res, true, "./")) return;
  if (!req.params.empty()) return refuse(res, true, 400, "/records takes no parameters", "./");
  auto boards = c_.hub->with_book([](RecordBook& b) { return b.boards(); });
  if (failed(boards, res, true, "./")) return;
  html(res, 200, boards_page(boards.value()));
}

void RecordsHttp::board(const httplib::Request& req, httplib::Response& res, bool page) {
  c_.count(page ? RecordsRoute::kPage : RecordsRoute::kApi);
  const std::string root = "../";
  if (!on(res, page, root)) return;
  const std::string id = req.matches[1];
  if (!page && id == "submit") return refuse(res, false, 405, "POST a submission to /api/records/submit", root);
  if (!is_board_id(id)) return refuse(res, page, 400, "that is not a board id (sprint-40l, ultra-120s, ...)", root);
  auto q = parse_list_query(req.params);
  if (!q) return refuse(res, page, 400, q.error(), root);
  const ListQuery query = q.value();
  auto found = c_.hub->with_book([&](RecordBook& b) { return b.board(id, query.list, query.offset, query.limit); });
  if (failed(found, res, page, root)) return;
  if (!found.value()) return refuse(res, page, 404, "no board " + id + " on this hub", root);
  if (page) {
    html(res, 200, board_page(*found.value(), query));
  } else {
    json(res, 200, board_json(*found.value(), query.list, query.offset));
  }
}

void RecordsHttp::api_place(const httplib::Request& req, httplib::Response& res) {
  c_.count(RecordsRoute::kApi);
  if (!on(res, false, "../../")) return;
  const std::string id = req.matches[1];
  if (!is_board_id(id)) return refuse(res, false, 400, "that is not a board id (sprint-40l, ultra-120s, ...)", "");
  // The board's goal says which parameter the query takes: the board first (its goal from any of its runs).
  auto info = c_.hub->with_book([&](RecordBook& b) { return b.board(id, ListKind::kTrusted, 0, 1); });
  if (failed(info, res, false, "")) return;
  if (!info.value()) return refuse(res, false, 404, "no board " + id + " on this hub", "");
  auto q = parse_place_query(req.params, info.value()->board);
  if (!q) return refuse(res, false, 400, q.error(), "");
  auto place = c_.hub->with_book([&](RecordBook& b) { return b.place(id, q.value().list, q.value().rank_value); });
  if (failed(place, res, false, "")) return;
  if (!place.value()) return refuse(res, false, 404, "no board " + id + " on this hub", "");
  json(res, 200, place_json(id, q.value().list, *place.value()));
}

void RecordsHttp::run(const httplib::Request& req, httplib::Response& res, bool page) {
  c_.count(page ? RecordsRoute::kPage : RecordsRoute::kApi);
  const std::string root = "../../";
  if (!on(res, page, root)) return;
  const std::string record = req.matches[1];
  if (!req.params.empty()) return refuse(res, page, 400, "a record's address takes no parameters", root);
  if (!is_record_id(record)) {
    return refuse(res, page, 400, "that is not a record id (<16 hex digits of a game>-<racer>)", root);
  }
  auto found = c_.hub->with_book([&](RecordBook& b) { return b.run(record); });
  if (failed(found, res, page, root)) return;
  if (!found.value()) return refuse(res, page, 404, "no record " + record + " on this hub", root);
  const Entry& e = *found.value();
  if (page) {
    html(res, 200, run_page(e, why_listed(e, c_.hub->trust())));
  } else {
    json(res, 200, run_json(e, c_.hub->trust()));
  }
}

void RecordsHttp::player(const httplib::Request& req, httplib::Response& res, bool page) {
  c_.count(page ? RecordsRoute::kPage : RecordsRoute::kApi);
  const std::string root = "../";
  if (!on(res, page, root)) return;
  std::string ref = req.matches[1];
  if (!req.params.empty()) return refuse(res, page, 400, "a player's address takes no parameters", root);
  if (!is_player_ref(ref)) {
    return refuse(res, page, 400, "that is not a player key (64 hex digits) or its short id (8)", root);
  }
  if (ref.size() == 8) {
    auto keys = c_.hub->with_book([&](RecordBook& b) { return b.keys_with_id(ref); });
    if (failed(keys, res, page, root)) return;
    if (keys.value().empty()) return refuse(res, page, 404, "no records of player " + ref + " on this hub", root);
    if (keys.value().size() > 1) {
      return refuse(res, page, 409,
                    "the short id " + ref + " names " + std::to_string(keys.value().size()) +
                        " keys on this hub: ask with the whole key",
                    root);
    }
    ref = keys.value().front();
  }
  auto found = c_.hub->with_book([&](RecordBook& b) { return b.player(ref); });
  if (failed(found, res, page, root)) return;
  if (!found.value()) return refuse(res, page, 404, "no records of player " + ref + " on this hub", root);
  if (page) {
    html(res, 200, player_page(*found.value()));
  } else {
    json(res, 200, player_json(*found.value()));
  }
}

void RecordsHttp::game(const httplib::Request& req, httplib::Response& res) {
  c_.count(RecordsRoute::kGame);
  const std::string root = "../";
  if (!on(res, true, root)) return;
  std::string name = req.matches[1];
  const auto ends = [&](const std::string& suffix) {
    return name.size() == 16 + suffix.size() && name.compare(16, suffix.size(), suffix) == 0;
  };
  const bool srr = ends(".srr");
  const bool as_json = ends(".json");
  const std::string id = name.substr(0, 16);
  if (!is_game_id(id) || (!srr && !as_json && name.size() != 16)) {
    return refuse(res, true, 404, "there is no such game on this hub", root);
  }
  if (srr || as_json) {
    auto bytes = c_.hub->replay_bytes(id);
    if (!bytes) return json(res, 404, error_json("there is no such game on this hub"));
    if (srr) {
      res.set_header("Content-Disposition", "attachment; filename=\"" + id + ".srr\"");
      res.set_header("Cache-Control", "max-age=86400");
      res.set_content(std::string(bytes.value().begin(), bytes.value().end()), "application/octet-stream");
      return;
    }
    auto replay = replay::decode_binary(bytes.value());
    if (!replay.ok()) return json(res, 500, error_json("the stored replay does not decode"));
    res.set_header("Content-Disposition", "attachment; filename=\"" + id + ".json\"");
    return json(res, 200, replay::encode_json(replay.value()));
  }
  auto stored = c_.hub->game(id);
  if (failed(stored, res, true, root)) return;
  if (!stored.value()) return refuse(res, true, 404, "there is no such game on this hub", root);
  const std::string* page = c_.site ? c_.site->file("game.html") : nullptr;
  if (!page) {
    return html(res, 404,
                message_page("no replay page",
                             "this hub serves no web site (start it with --web-dir): download the replay at games/" +
                                 id + ".srr",
                             root));
  }
  res.set_header("Cache-Control", "no-cache");
  res.set_header("Content-Security-Policy", kSitePolicy);
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_content(*page, kHtml);
}

void RecordsHttp::api_game(const httplib::Request& req, httplib::Response& res) {
  c_.count(RecordsRoute::kGame);
  if (!on(res, false, "")) return;
  const std::string id = req.matches[1];
  if (!is_game_id(id)) return refuse(res, false, 400, "that is not a game id (16 hex digits)", "");
  auto stored = c_.hub->game(id);
  if (failed(stored, res, false, "")) return;
  if (!stored.value()) return refuse(res, false, 404, "there is no such game on this hub", "");
  json(res, 200, game_json(*stored.value()));
}

void RecordsHttp::site_file(httplib::Response& res, const char* name) {
  c_.count(RecordsRoute::kSite);
  const std::string* file = c_.site ? c_.site->file(name) : nullptr;
  if (!file) return refuse(res, true, 404, "this hub serves no web site (start it with --web-dir)", "./");
  res.set_header("Content-Security-Policy", kSitePolicy);
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_content(*file, std::string(name).ends_with(".svg") ? "image/svg+xml" : kHtml);
}

}  // namespace sr::hub::records
