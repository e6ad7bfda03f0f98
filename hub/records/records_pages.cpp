#include "hub/records/records_pages.h"

#include <fmt/format.h>

#include "common/replay/civil_time.h"
#include "common/replay/names.h"
#include "hub/hub_pages.h"
#include "hub/records/records_json.h"

namespace sr::hub::records {
namespace {

std::string esc(std::string_view text) { return html_escape(text); }

std::string head(const std::string& title, const std::string& root) {
  const std::string r = esc(root);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
         esc(title) + "</title>\n<link rel=\"icon\" href=\"" + r + "favicon.svg\" type=\"image/svg+xml\">\n" +
         "<link rel=\"stylesheet\" href=\"" + r + "css/site.css\">\n</head>\n<body data-root=\"" + r + "\">\n" +
         "<header class=\"site\">\n  <a class=\"brand\" href=\"" + r +
         "records\">stackrace records</a>\n  <nav><a href=\"" + r + "records\">Boards</a><a href=\"" + r +
         "\">Servers</a><a href=\"" + r + "verify\">Verify a replay</a></nav>\n</header>\n<main>\n";
}

constexpr const char* kFoot = "</main>\n</body>\n</html>\n";

std::string mode_line(const Board& b) {
  return std::string(replay::names::name_of(replay::names::kMode, b.mode)) + ", " + b.limit_text + ", ranked by " +
         (b.goal == engine::GoalKind::kTime ? "time (lower first)"
                                            : std::string(goal_name(b.goal)) + " (higher first)") +
         (b.custom ? ", custom settings" : ", standard settings");
}

std::string player_cell(const Entry& e, const std::string& root) {
  return "<a href=\"" + esc(root) + "players/" + esc(e.key) + "\"><bdi>" + esc(e.player) +
         "</bdi></a> <span class=\"mono muted\">" + esc(e.key_id) + "</span>";
}

std::string server_cell(const Entry& e) {
  std::string name = "<bdi>" + esc(e.server_name) + "</bdi>";
  if (!e.server_web.empty()) name = "<a href=\"" + esc(e.server_web) + "\" rel=\"nofollow noopener\">" + name + "</a>";
  return name + " <span class=\"mono muted\">" + esc(e.server_key_id) + "</span>";
}

}  // namespace

std::string utc_text(std::int64_t unix_ms) {
  const auto t = replay::civil_from_unix_ms(unix_ms);
  return t ? replay::format_civil(*t) + " UTC" : "unknown";
}

std::string message_page(const std::string& title, const std::string& sentence, const std::string& root) {
  return head("stackrace records: " + title, root) + "<h1>" + esc(title) + "</h1>\n<p>" + esc(sentence) + "</p>\n" +
         kFoot;
}

std::string boards_page(const std::vector<BoardSummary>& boards) {
  const std::string root = "./";
  std::string out = head("stackrace records", root);
  out += "<h1>Records</h1>\n";
  out += fmt::format(
      "<p>{} board{}. Every result here was re-simulated by this hub from its replay and signed by its player's key. "
      "A board's <b>trusted</b> list holds the runs of servers this hub's operator trusts, whose referee vouched for "
      "the whole run against the real clock; its <b>other</b> list every other verified run. One entry per player "
      "key: its best. (The same as JSON: <a href=\"api/records\">api/records</a>.)</p>\n",
      boards.size(), boards.size() == 1 ? "" : "s");
  if (!boards.empty()) {
    out +=
        "<table class=\"list\">\n<thead><tr><th>board</th><th>mode</th><th>limit</th><th>ranked by</th>"
        "<th>settings</th><th>trusted</th><th>other</th></tr></thead>\n<tbody>\n";
    for (const BoardSummary& b : boards) {
      const std::string link = "records/" + esc(b.board.id);
      out += "<tr><td><a href=\"" + link + "\" class=\"mono\">" + esc(b.board.id) + "</a></td><td>" +
             esc(replay::names::name_of(replay::names::kMode, b.board.mode)) + "</td><td>" + esc(b.board.limit_text) +
             "</td><td>" + esc(goal_name(b.board.goal)) + "</td><td>" + (b.board.custom ? "custom" : "standard") +
             "</td>";
      out += fmt::format("<td><a href=\"{}?list=trusted\">{}</a></td><td><a href=\"{}?list=other\">{}</a></td></tr>\n",
                         link, b.trusted, link, b.other);
    }
    out += "</tbody>\n</table>\n";
  }
  return out + kFoot;
}

std::string board_page(const BoardPage& page, const ListQuery& q) {
  const std::string root = "../";
  const Board& b = page.board;
  const std::string list = list_name(q.list);
  std::string out = head("stackrace records: " + b.id + " (" + list + ")", root);
  out += "<h1 class=\"mono\">" + esc(b.id) + "</h1>\n<p class=\"muted\">" + esc(mode_line(b)) + "</p>\n";
  out += "<p>";
  for (const ListKind other : {ListKind::kTrusted, ListKind::kOther}) {
    const std::string name = list_name(other);
    out += other == q.list ? "<b>" + name + " list</b>"
                           : "<a href=\"" + esc(b.id) + "?list=" + name + "\">" + name + " list</a>";
    out += other == ListKind::kTrusted ? " · " : "";
  }
  out += fmt::format(": {} player{}. (JSON: <a href=\"../api/records/{}?list={}\">api/records/{}</a>.)</p>\n",
                     page.total, page.total == 1 ? "" : "s", esc(b.id), list, esc(b.id));
  if (!page.entries.empty()) {
    out +=
        "<table class=\"list\">\n<thead><tr><th>place</th><th>player</th><th>result</th><th>server</th>"
        "<th>played</th><th></th></tr></thead>\n<tbody>\n";
    for (const Entry& e : page.entries) {
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"when\">{}</td>", e.place,
                         player_cell(e, root), esc(result_text(e)), server_cell(e), esc(utc_text(e.played_unix_ms)));
      out += "<td><a href=\"run/" + esc(e.record) + "\">record</a> · <a href=\"../games/" + esc(e.game_id) +
             "\">replay</a></td></tr>\n";
    }
    out += "</tbody>\n</table>\n";
  }
  out += "<p class=\"paging\">";
  if (q.offset > 0) {
    out += fmt::format("<a href=\"{}?list={}&amp;offset={}&amp;limit={}\">previous</a>", esc(b.id), list,
                       std::max<std::int64_t>(0, q.offset - q.limit), q.limit);
  }
  if (q.offset + q.limit < page.total) {
    out += fmt::format("<a href=\"{}?list={}&amp;offset={}&amp;limit={}\">next</a>", esc(b.id), list,
                       q.offset + q.limit, q.limit);
  }
  out += "</p>\n";
  return out + kFoot;
}

std::string run_page(const Entry& e, const std::vector<std::string>& why) {
  const std::string root = "../../";
  std::string out = head("stackrace records: " + e.player + " on " + e.board.id, root);
  out += "<h1>Record <span class=\"mono\">" + esc(e.record) + "</span></h1>\n<table class=\"list\">\n<tbody>\n";
  const auto row = [&](const std::string& name, const std::string& html) {
    out += "<tr><th>" + name + "</th><td>" + html + "</td></tr>\n";
  };
  row("who",
      player_cell(e, root) + " <span class=\"muted\">(key <span class=\"mono\">" + esc(e.key) + "</span>)</span>");
  row("board", "<a class=\"mono\" href=\"../" + esc(e.board.id) + "?list=" + list_name(e.list) + "\">" +
                   esc(e.board.id) + "</a> <span class=\"muted\">" + esc(mode_line(e.board)) + "</span>");
  row("list", std::string(list_name(e.list)) +
                  (e.best ? ", place " + std::to_string(e.place)
                          : ", not the player's best" + (e.best_record.empty()
                                                             ? std::string()
                                                             : " (their best: <a href=\"" + esc(e.best_record) + "\">" +
                                                                   esc(e.best_record) + "</a>)")));
  row("result", esc(result_text(e)));
  row("rules", "version " + std::to_string(e.rules_version));
  row("where", server_cell(e));
  row("when", "played " + esc(utc_text(e.played_unix_ms)) + ", submitted " + esc(utc_text(e.submitted_unix_ms)));
  row("replay", "<a href=\"" + root + "games/" + esc(e.game_id) + "\">watch it</a> · <a href=\"" + root + "games/" +
                    esc(e.game_id) + ".srr\">download (.srr)</a> <span class=\"muted\">racer " +
                    std::to_string(e.racer) + "</span>");
  out += "</tbody>\n</table>\n<h2>Why it is listed here</h2>\n<ul>\n";
  for (const std::string& sentence : why) out += "<li>" + esc(sentence) + "</li>\n";
  out += "</ul>\n<p class=\"muted\">The same as JSON: <a href=\"" + root + "api/records/run/" + esc(e.record) +
         "\">api/records/run/" + esc(e.record) + "</a>.</p>\n";
  return out + kFoot;
}

std::string player_page(const PlayerRecords& p) {
  const std::string root = "../";
  std::string out = head("stackrace records: player " + p.key_id, root);
  out += "<h1>Player <span class=\"mono\">" + esc(p.key_id) + "</span></h1>\n<p>Key <span class=\"mono\">" +
         esc(p.key) + "</span>. Names: ";
  for (std::size_t i = 0; i < p.names.size(); ++i) out += (i == 0 ? "<bdi>" : ", <bdi>") + esc(p.names[i]) + "</bdi>";
  out += ".</p>\n";
  if (!p.records.empty()) {
    out +=
        "<table class=\"list\">\n<thead><tr><th>board</th><th>list</th><th>place</th><th>result</th><th>server</th>"
        "<th>played</th><th></th></tr></thead>\n<tbody>\n";
    for (const Entry& e : p.records) {
      out += "<tr><td><a class=\"mono\" href=\"../records/" + esc(e.board.id) + "?list=" + list_name(e.list) + "\">" +
             esc(e.board.id) + "</a></td><td>" + list_name(e.list) + "</td><td>" + std::to_string(e.place) +
             "</td><td>" + esc(result_text(e)) + "</td><td>" + server_cell(e) + "</td><td class=\"when\">" +
             esc(utc_text(e.played_unix_ms)) + "</td><td><a href=\"../records/run/" + esc(e.record) +
             "\">record</a> · <a href=\"../games/" + esc(e.game_id) + "\">replay</a></td></tr>\n";
    }
    out += "</tbody>\n</table>\n";
  }
  out += "<p class=\"muted\">The same as JSON: <a href=\"../api/players/" + esc(p.key) + "\">api/players/" +
         esc(p.key_id) + "</a>.</p>\n";
  return out + kFoot;
}

}  // namespace sr::hub::records
