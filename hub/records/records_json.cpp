#include "hub/records/records_json.h"

#include <fmt/format.h>

#include "common/replay/names.h"

namespace sr::hub::records {
namespace {

using I64 = std::int64_t;

void put_board(web::JsonWriter& w, const Board& b) {
  w.key("board").value(b.id);
  w.key("mode").value(replay::names::name_of(replay::names::kMode, b.mode));
  w.key("limit").value(b.limit_text);
  w.key("goal").value(goal_name(b.goal));
  w.key("custom").value(b.custom);
}

std::string plural(std::int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string race_time_text(std::int64_t us) {
  const std::int64_t ms = us / 1000;
  const std::int64_t s = ms / 1000;
  if (s < 60) return fmt::format("{}.{:03} s", s, ms % 1000);
  return fmt::format("{}:{:02}.{:03}", s / 60, s % 60, ms % 1000);
}

std::string result_text(const Entry& e) {
  switch (e.board.goal) {
    case engine::GoalKind::kTime:
      return race_time_text(e.time_us) + " (" + plural(e.lines, "line", "lines") + ", " +
             plural(e.pieces, "piece", "pieces") + ")";
    case engine::GoalKind::kScore:
      return plural(e.score, "point", "points") + " (" + plural(e.lines, "line", "lines") + ", " +
             plural(e.pieces, "piece", "pieces") + ")";
    case engine::GoalKind::kLines:
      return plural(e.lines, "line", "lines") + " (" + plural(e.pieces, "piece", "pieces") + ")";
  }
  return "";
}

void put_entry(web::JsonWriter& w, const Entry& e) {
  w.key("record").value(e.record);
  w.key("place");
  if (e.best) {
    w.value(e.place);
  } else {
    w.null();
  }
  w.key("board").value(e.board.id);
  w.key("list").value(list_name(e.list));
  w.key("player").value(e.player);
  w.key("key").value(e.key);
  w.key("key_id").value(e.key_id);
  w.key("time_us").value(I64{e.time_us});
  w.key("score").value(I64{e.score});
  w.key("lines").value(I64{e.lines});
  w.key("pieces").value(I64{e.pieces});
  w.key("rules_version").value(static_cast<I64>(e.rules_version));
  w.key("server").value(e.server_name);
  w.key("server_key_id").value(e.server_key_id);
  w.key("server_web").value(e.server_web);
  w.key("played_unix_ms").value(I64{e.played_unix_ms});
  w.key("game").value(e.game_id);
}

std::string boards_json(const std::vector<BoardSummary>& boards) {
  web::JsonWriter w(true);
  w.begin_object().key("boards").begin_array();
  for (const BoardSummary& b : boards) {
    w.begin_object();
    put_board(w, b.board);
    w.key("trusted").value(I64{b.trusted});
    w.key("other").value(I64{b.other});
    w.end_object();
  }
  w.end_array().end_object();
  return w.text();
}

std::string board_json(const BoardPage& page, ListKind list, std::int64_t offset) {
  web::JsonWriter w(true);
  w.begin_object();
  w.key("board").value(page.board.id);
  w.key("list").value(list_name(list));
  w.key("total").value(I64{page.total});
  w.key("offset").value(I64{offset});
  w.key("entries").begin_array();
  for (const Entry& e : page.entries) {
    w.begin_object();
    put_entry(w, e);
    w.end_object();
  }
  w.end_array().end_object();
  return w.text();
}

std::string place_json(const std::string& board, ListKind list, const Place& place) {
  web::JsonWriter w(true);
  w.begin_object();
  w.key("board").value(board);
  w.key("list").value(list_name(list));
  w.key("place").value(I64{place.place});
  w.key("of").value(I64{place.of});
  w.end_object();
  return w.text();
}

std::vector<std::string> why_listed(const Entry& e, const TrustList& trust) {
  std::vector<std::string> why;
  why.push_back("re-simulated by this hub: the result is its own");
  why.push_back("signed by the player's key " + e.key_id);
  const std::string server = "submitted by server \"" + e.server_name + "\" (key " + e.server_key_id + ")";
  if (trust.trusts_hex(e.server_key)) {
    const std::string name = trust.name_of(e.server_key);
    const std::string trusted =
        server + ", which this hub's operator trusts" + (name.empty() ? "" : " (as \"" + name + "\")");
    if (e.list == ListKind::kTrusted) {
      why.push_back(trusted + ", whose referee vouched for the whole run against the real clock");
    } else {
      why.push_back(trusted + ", but whose referee could not vouch for " + race_time_text(e.unverified_us) +
                    " of the run against the real clock (a stalled connection or a reconnect): so it is on the other "
                    "list");
    }
  } else {
    why.push_back(server +
                  ", which this hub's operator does not trust: no one the operator trusts watched its pace, so it is "
                  "on the other list");
  }
  if (e.best) {
    why.push_back("the player's best on the " + std::string(list_name(e.list)) + " list of " + e.board.id +
                  ", at place " + std::to_string(e.place));
  } else {
    why.push_back("not the player's best on the " + std::string(list_name(e.list)) + " list of " + e.board.id +
                  (e.best_record.empty() ? std::string() : ": their best there is record " + e.best_record));
  }
  return why;
}

std::string run_json(const Entry& e, const TrustList& trust) {
  web::JsonWriter w(true);
  w.begin_object();
  put_entry(w, e);
  w.key("best").value(e.best);
  w.key("best_record").value(e.best_record);
  w.key("racer").value(static_cast<I64>(e.racer));
  w.key("unverified_us").value(I64{e.unverified_us});
  w.key("submitted_unix_ms").value(I64{e.submitted_unix_ms});
  w.key("why").begin_array();
  for (const std::string& sentence : why_listed(e, trust)) w.value(sentence);
  w.end_array();
  w.end_object();
  return w.text();
}

std::string player_json(const PlayerRecords& p) {
  web::JsonWriter w(true);
  w.begin_object();
  w.key("key").value(p.key);
  w.key("key_id").value(p.key_id);
  w.key("names").begin_array();
  for (const std::string& name : p.names) w.value(name);
  w.end_array();
  w.key("records").begin_array();
  for (const Entry& e : p.records) {
    w.begin_object();
    put_entry(w, e);
    w.end_object();
  }
  w.end_array().end_object();
  return w.text();
}

std::string game_json(const replay::StoredGame& game) {
  namespace names = replay::names;
  web::JsonWriter w(true);
  w.begin_object();
  w.key("id").value(game.id);
  w.key("played_unix_ms").value(I64{game.created_unix_ms});
  w.key("place").value(game.place);
  w.key("mode").begin_object();
  w.key("mode").value(names::name_of(names::kMode, game.mode));
  w.key("limit").value(names::name_of(names::kLimit, game.limit));
  w.key("limit_value").value(I64{game.limit_value});
  w.key("goal").value(names::name_of(names::kGoal, game.goal));
  w.end_object();
  w.key("rules_version").value(static_cast<I64>(game.rules_version));
  w.key("verified").value(game.verified);
  w.key("verify_note").value(game.verify_note);
  w.key("racers").begin_array();
  for (const replay::StoredResult& r : game.results) {
    w.begin_object();
    w.key("name").value(r.player);
    w.key("key_id").value(r.key_id);
    w.key("status").value(replay::status_name(r.status));
    w.key("time_us").value(I64{r.time_us});
    w.key("lines").value(I64{r.lines});
    w.key("score").value(I64{r.score});
    w.key("pieces").value(I64{r.pieces});
    w.end_object();
  }
  w.end_array();
  w.key("page").value("games/" + game.id);
  w.key("srr").value("games/" + game.id + ".srr");
  w.key("json").value("games/" + game.id + ".json");
  w.end_object();
  return w.text();
}

}  // namespace sr::hub::records
