// stackrace-server's options: one table for the command line and the TOML config file (--config, same keys as the
// long options, command-line values win), shared by main.cpp and the tests that check that the deployment files
// (Dockerfile, systemd unit, example config) name only options that exist.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "server/agones.h"
#include "server/http_metrics.h"
#include "server/server.h"

namespace sr::server {

struct ServerConfig {
  ServerOptions server;
  std::string data_dir = "stackrace-data";
  std::string database;                     // ServerOptions::database
  std::uint64_t replay_low_space_mb = 256;  // warn (log, metric) below this much free space in data_dir
  std::string log_level = "info";
  int room_idle_minutes = 15;                      // LobbyOptions::room_idle_us
  int lobby_idle_minutes = 10;                     // LobbyOptions::lobby_idle_us (0: never)
  double relay_every_ms = kRelayEveryUs / 1000.0;  // ServerOptions::relay_every_us
  std::string trusted_addresses;                   // AddressLimits::trusted, comma-separated
  std::int64_t connects_per_second = 8;            // ConnectGateLimits::per_second
  MetricsHttpOptions metrics;                      // port 0: no metrics endpoint
  // Web pages (server/web, deploy/README.md "Web pages"): port 0 = off. The same port as metrics: one server, both.
  std::uint16_t web_port = 0;
  std::string web_bind = "0.0.0.0";
  std::string web_url;  // the pages' public address told to players (LobbyOptions::web_url); empty: from the port
  std::string web_dir;  // the site; empty = next to the program, else /usr/share/stackrace/web
  std::string web_trusted_proxies;     // comma-separated: reverse proxies whose X-Forwarded-For is believed
  std::size_t web_max_streams = 2000;  // live pages open at once, all addresses together
  std::size_t web_streams_per_address = 16;
  std::size_t web_connections_per_address = 64;
  std::int64_t web_requests_per_second = 20;  // per address (bursts of 5 seconds' worth)
  bool contest = false;                       // run the contest ladder (LadderOptions::enabled)
  int ladder_ranked_games = 10;               // LadderRules::ranked_games
  int contest_seconds = 90;                   // LadderOptions::contest_seconds
  // LAN discovery and the directory (deploy/README.md, "Public servers and LAN discovery").
  std::uint16_t lan_port = 47777;        // ServerOptions::lan_port (protocol::kDiscoveryPort)
  bool no_lan = false;                   // no LAN discovery
  bool public_server = false;            // register with every directory in `directories`
  std::vector<std::string> directories;  // http(s) URLs of stackrace-hub directories; "" items are none
  // Records (deploy/README.md, "Records"): the records hub's http:// base URL, empty: off.
  std::string records;                    // ServerOptions::records.hub
  std::uint64_t records_queue_mb = 1024;  // RecordsQueue::Limits::max_bytes, in MiB
  bool agones = false;                    // talk to the Agones SDK sidecar
  double agones_idle_shutdown_s = 300;
  double agones_health_interval_s = 2;
  // Actions instead of serving (the "Actions" option group).
  bool check_config = false;  // parse the options and the config file, then exit 0
  bool health_check = false;  // ask a running server's /healthz (on --metrics-port) and exit 0 if it is healthy
};

// The group of options that are actions, not settings: they never belong in a config file.
inline constexpr const char* kActionsGroup = "Actions";

// Declares every option on `app`, bound to `config`. Unknown keys in a config file are errors (a typo must not be
// silently ignored).
void add_server_options(CLI::App& app, ServerConfig& config);

// "a, b,c" -> {"a", "b", "c"}; empty items are skipped.
[[nodiscard]] std::vector<std::string> split_addresses(const std::string& list);

// The ServerOptions to run with, once `app` has parsed into `config`.
[[nodiscard]] ServerOptions server_options(const ServerConfig& config);

// The directories given (--directory, empty items left out).
[[nodiscard]] std::vector<std::string> directory_urls(const ServerConfig& config);

// The directories to register with: ok (none without --public), or an error sentence (--public without a directory,
// a directory that is no http(s) URL).
[[nodiscard]] sr::Status<std::string> check_public(const ServerConfig& config);

// The Agones agent's settings from `config` and the environment (AGONES_SDK_HTTP_PORT, default 9358).
// Ok, or an error sentence if the environment variable is not a port number.
[[nodiscard]] sr::Status<std::string> agones_options(const ServerConfig& config, AgonesOptions& out);

}  // namespace sr::server
