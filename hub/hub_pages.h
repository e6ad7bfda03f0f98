// What the directory serves besides registrations: the list as JSON (`GET /api/servers`) and as an HTML page
// (`GET /`), and its metrics as Prometheus text (`GET /metrics`); common/protocol/DIRECTORY.md section 3.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hub/registry.h"

namespace sr::hub {

// {"servers":[{"address":...,"port":...,<the info's fields>,"seen_s":...},...]} in the order given. Strings are
// escaped html_safe (web::JsonWriter): a server's name can never form markup wherever the JSON is shown.
[[nodiscard]] std::string servers_json(const std::vector<ListedServer>& servers);

// A whole HTML page listing `servers`: name (a link to its web page if it has one), address:port, players/capacity,
// rooms with their modes and phases, whether it races, its version. Every text is HTML-escaped.
[[nodiscard]] std::string servers_html(const std::vector<ListedServer>& servers);

// `text` with & < > " ' written as character references.
[[nodiscard]] std::string html_escape(std::string_view text);

// Requests the HTTP server answered, by route.
struct RequestCounts {
  std::uint64_t register_requests = 0;        // POST /api/register
  std::uint64_t servers = 0;                  // GET /api/servers
  std::uint64_t page = 0;                     // GET /
  std::uint64_t metrics = 0;                  // GET /metrics
  std::uint64_t healthz = 0;                  // GET /healthz
  std::uint64_t submit = 0;                   // POST /api/records/submit
  std::uint64_t records_api = 0;              // GET /api/records...,  /api/players/...
  std::uint64_t records_pages = 0;            // GET /records..., /players/...
  std::uint64_t games = 0;                    // GET /games/<id>[.srr|.json], /api/v1/games/<id>
  std::uint64_t site = 0;                     // GET /verify, /favicon.svg (css/, js/, wasm/ are not counted)
  std::uint64_t other = 0;                    // anything else (404, wrong method)
  std::uint64_t challenge_send_failures = 0;  // challenge datagrams the socket refused to send
};

// Prometheus text (version 0.0.4): stackrace_hub_servers_listed, stackrace_hub_open_challenges,
// stackrace_hub_registrations_total{outcome=...} (refusals as outcome="refused" with a reason),
// stackrace_hub_requests_total{route=...}, stackrace_hub_challenge_send_failures_total.
[[nodiscard]] std::string metrics_text(const Registry& registry, const RequestCounts& requests);

}  // namespace sr::hub
