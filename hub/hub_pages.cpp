#include "hub/hub_pages.h"

#include <fmt/format.h>

#include "web/wasm/json_writer.h"

namespace sr::hub {

std::string servers_json(const std::vector<ListedServer>& servers) {
  web::JsonWriter w(true);
  w.begin_object().key("servers").begin_array();
  for (const ListedServer& s : servers) {
    w.begin_object();
    w.key("address").value(s.address);
    w.key("port").value(static_cast<int>(s.port));
    put_info_fields(w, s.info);
    w.key("seen_s").value(s.seen_s);
    w.end_object();
  }
  w.end_array().end_object();
  return w.text();
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string servers_html(const std::vector<ListedServer>& servers) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>stackrace servers</title>\n"
      "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
      "th,td{padding:.3em .8em;border-bottom:1px solid #ccc;text-align:left;vertical-align:top}</style>\n"
      "</head>\n<body>\n<h1>stackrace servers</h1>\n";
  out += fmt::format("<p>{} public server{} (the same list as JSON: <a href=\"/api/servers\">/api/servers</a>).</p>\n",
                     servers.size(), servers.size() == 1 ? "" : "s");
  if (!servers.empty()) {
    out +=
        "<table>\n<tr><th>Name</th><th>Address</th><th>Players</th><th>Rooms</th><th>Racing</th><th>Version</th>"
        "</tr>\n";
    for (const ListedServer& s : servers) {
      const std::string name = html_escape(s.info.name);
      out += "<tr><td>";
      out +=
          s.info.web.empty() ? name : "<a href=\"" + html_escape(s.info.web) + "\" rel=\"nofollow\">" + name + "</a>";
      const bool v6 = s.address.find(':') != std::string::npos;
      out += fmt::format("</td><td>{}{}{}:{}</td><td>{}/{}</td><td>", v6 ? "[" : "", html_escape(s.address),
                         v6 ? "]" : "", s.port, s.info.players, s.info.capacity);
      for (std::size_t i = 0; i < s.info.rooms.size(); ++i) {
        const RoomSummary& r = s.info.rooms[i];
        out += fmt::format("{}{} ({}, {}, {}/{})", i == 0 ? "" : "<br>", html_escape(r.name), html_escape(r.mode),
                           html_escape(r.phase), r.racers, r.max_racers);
      }
      out +=
          fmt::format("</td><td>{}</td><td>{}</td></tr>\n", s.info.racing ? "yes" : "no", html_escape(s.info.version));
    }
    out += "</table>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

std::string metrics_text(const Registry& registry, const RequestCounts& requests) {
  std::string out;
  out += "# HELP stackrace_hub_servers_listed Game servers listed (proven and not expired).\n";
  out += "# TYPE stackrace_hub_servers_listed gauge\n";
  out += fmt::format("stackrace_hub_servers_listed {}\n", registry.listed_count());
  out += "# HELP stackrace_hub_open_challenges Hub challenges sent and not yet answered or lapsed.\n";
  out += "# TYPE stackrace_hub_open_challenges gauge\n";
  out += fmt::format("stackrace_hub_open_challenges {}\n", registry.open_challenges());
  out += "# HELP stackrace_hub_registrations_total Registrations answered, by outcome (refusals by reason).\n";
  out += "# TYPE stackrace_hub_registrations_total counter\n";
  for (int i = 0; i < kOutcomeCount; ++i) {
    const auto o = static_cast<Outcome>(i);
    if (is_refusal(o)) {
      out += fmt::format("stackrace_hub_registrations_total{{outcome=\"refused\",reason=\"{}\"}} {}\n", outcome_name(o),
                         registry.count(o));
    } else {
      out +=
          fmt::format("stackrace_hub_registrations_total{{outcome=\"{}\"}} {}\n", outcome_name(o), registry.count(o));
    }
  }
  out += "# HELP stackrace_hub_requests_total HTTP requests answered, by route.\n";
  out += "# TYPE stackrace_hub_requests_total counter\n";
  const std::pair<const char*, std::uint64_t> routes[] = {{"register", requests.register_requests},
                                                          {"servers", requests.servers},
                                                          {"page", requests.page},
                                                          {"metrics", requests.metrics},
                                                          {"healthz", requests.healthz},
                                                          {"submit", requests.submit},
                                                          {"records_api", requests.records_api},
                                                          {"records_pages", requests.records_pages},
                                                          {"games", requests.games},
                                                          {"site", requests.site},
                                                          {"other", requests.other}};
  for (const auto& [route, n] : routes)
    out += fmt::format("stackrace_hub_requests_total{{route=\"{}\"}} {}\n", route, n);
  out += "# HELP stackrace_hub_challenge_send_failures_total Challenge datagrams the socket could not send.\n";
  out += "# TYPE stackrace_hub_challenge_send_failures_total counter\n";
  out += fmt::format("stackrace_hub_challenge_send_failures_total {}\n", requests.challenge_send_failures);
  return out;
}

}  // namespace sr::hub
