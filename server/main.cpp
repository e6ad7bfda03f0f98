// stackrace-server: the dedicated lobby server. Options come from the command line and, with --config, a TOML file
// using the same keys (command-line values win); server_config.h has the table.
//
// Threads: the main loop (network, lobby, referees) runs here; the metrics endpoint and the Agones agent run on their
// own threads and only read the snapshots the loop publishes (metrics.h); a public server's registration agents
// (--public --directory) run on threads of their own and get the info JSON and challenge tokens through a
// DirectoryLink (server/directory_agent.h); the web pages (--web-port) run on threads
// of their own and get only what the loop hands them through a LiveTap (server/web/web_server.h); a server that
// submits records (--records) sends them from a thread of its own, which takes them from the queue the replay
// writer's thread fills (server/records_agent.h).
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <vector>

#include "common/protocol/messages.h"
#include "replays/store/pg_db.h"
#include "server/agones.h"
#include "server/directory_agent.h"
#include "server/http_metrics.h"
#include "server/metrics.h"
#include "server/records_agent.h"
#include "server/server.h"
#include "server/server_config.h"
#include "server/web/web_config.h"
#include "server/web/web_server.h"

namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_signal(int) { g_stop.store(true); }

}  // namespace

int main(int argc, char** argv) {
  sr::server::ServerConfig config;
  CLI::App app{"stackrace-server: hosts lobbies and rooms, referees every race, stores every replay"};
  sr::server::add_server_options(app, config);
  CLI11_PARSE(app, argc, argv);

  if (const auto listed = sr::server::check_public(config); !listed) {
    std::fprintf(stderr, "stackrace-server: %s\n", listed.error().c_str());
    return 2;
  }

  if (config.check_config) {
    std::printf("stackrace-server: the options are valid\n");
    return 0;
  }
  // The metrics on the web port are served on the web pages' address.
  if (config.metrics.port != 0 && config.metrics.port == config.web_port) config.metrics.bind = config.web_bind;
  if (config.health_check) {
    if (const auto healthy = sr::server::probe_health(config.metrics); !healthy) {
      std::fprintf(stderr, "stackrace-server: %s\n", healthy.error().c_str());
      return 1;
    }
    return 0;
  }
  sr::server::AgonesOptions agones_options;
  if (const auto from_env = sr::server::agones_options(config, agones_options); !from_env && config.agones) {
    std::fprintf(stderr, "stackrace-server: %s\n", from_env.error().c_str());
    return 2;
  }

  spdlog::set_level(spdlog::level::from_str(config.log_level));
  sr::server::ServerOptions options = sr::server::server_options(config);
  // One link per directory: the loop hands it challenge tokens and the info JSON, its agent registers.
  const std::vector<std::string> directories = sr::server::directory_urls(config);
  std::vector<std::unique_ptr<sr::server::DirectoryLink>> directory_links;
  for (std::size_t i = 0; i < directories.size(); ++i) {
    directory_links.push_back(std::make_unique<sr::server::DirectoryLink>());
    options.directories.push_back(directory_links.back().get());
  }
  sr::server::LiveTap live;
  if (config.web_port != 0) options.live = &live;
  sr::server::Server server(options);
  if (const auto started = server.start(); !started) {
    std::fprintf(stderr, "stackrace-server: %s\n", started.error().c_str());
    return 1;
  }
  sr::server::MetricsBoard board;
  sr::server::MetricsHttpServer metrics(board);
  // --metrics-port equal to --web-port: the web server answers /metrics and /healthz too.
  const bool metrics_on_web = config.metrics.port != 0 && config.metrics.port == config.web_port;
  if (config.metrics.port != 0 && !metrics_on_web) {
    if (const auto started = metrics.start(config.metrics); !started) {
      std::fprintf(stderr, "stackrace-server: %s\n", started.error().c_str());
      return 1;
    }
  }
  std::optional<sr::server::web::WebServer> web;
  if (config.web_port != 0) {
    web.emplace(sr::server::web::web_options(config, options, metrics_on_web ? &board : nullptr), live);
    if (const auto started = web->start(); !started) {
      std::fprintf(stderr, "stackrace-server: %s\n", started.error().c_str());
      return 1;
    }
    if (!web->has_engine()) {
      spdlog::warn(
          "the web site has no WebAssembly engine (wasm/stackrace_engine.js): replays and live races cannot "
          "be shown; build with STACKRACE_WASM=ON");
    }
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::printf("stackrace-server '%s' listening on %s:%u (protocol %u), replays in %s\n",
              options.lobby.server_name.c_str(), options.bind.c_str(), server.port(), sr::protocol::kProtocolVersion,
              options.database.empty() ? options.data_dir.string().c_str()
                                       : sr::replay::pg::redact_locator(options.database).c_str());
  if (const int buffer = server.receive_buffer_bytes(); buffer > 0 && buffer < (4 << 20)) {
    spdlog::warn(
        "the UDP receive buffer is {} KiB; a busy server will drop packets when descheduled for a moment "
        "(raise it: sysctl -w net.core.rmem_max=8388608)",
        buffer / 1024);
  }
  if (server.lan_port() != 0) std::printf("LAN discovery on UDP port %u\n", server.lan_port());
  if (config.metrics.port != 0 && !metrics_on_web) {
    std::printf("metrics on http://%s:%u/metrics\n", config.metrics.bind.c_str(), metrics.port());
  }
  if (web) {
    std::printf("web pages on http://%s:%u/%s\n", config.web_bind.c_str(), web->port(),
                metrics_on_web ? " (and metrics on /metrics)" : "");
  }
  std::fflush(stdout);

  // The port is bound: under Agones, the agent can say ready.
  std::optional<sr::server::AgonesAgent> agones;
  if (config.agones) {
    agones.emplace(agones_options, board, [] { g_stop.store(true); });
    agones->start();
  }
  std::vector<std::unique_ptr<sr::server::DirectoryAgent>> directory_agents;
  for (std::size_t i = 0; i < directories.size(); ++i) {
    sr::server::DirectoryAgentOptions directory;
    directory.url = directories[i];
    directory.game_port = server.port();
    directory_agents.push_back(std::make_unique<sr::server::DirectoryAgent>(directory, *directory_links[i]));
    directory_agents.back()->start();
    std::printf("registering with the directory %s\n", directory.url.c_str());
  }
  std::optional<sr::server::RecordsAgent> records;
  if (sr::server::RecordsQueue* queue = server.records_queue()) {
    sr::server::RecordsAgentOptions records_options;
    records_options.url = config.records;
    records.emplace(records_options, *queue);
    records->start();
    std::printf("submitting records to %s as server key %s (queue in %s)\n", config.records.c_str(),
                server.server_key_id().c_str(), queue->dir().string().c_str());
  }
  std::fflush(stdout);
  sr::server::run_and_publish(server, g_stop, board);
  // After the server: its last races' submissions are queued by then (sent at the next start if not now).
  if (records) records->stop();
  for (auto& agent : directory_agents) agent->stop();
  if (agones) agones->stop();
  if (web) web->stop();
  metrics.stop();

  const auto stats = server.stats();
  std::printf("stackrace-server stopped: %llu races finished, %llu replays written\n",
              static_cast<unsigned long long>(stats.rooms_total.races_finished),
              static_cast<unsigned long long>(stats.replays_written));
  return 0;
}
