// stackrace-server: the dedicated lobby server. Options come from the command line and, with --config, a TOML file
// using the same keys (command-line values win).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <atomic>
#include <csignal>
#include <cstdio>

#include "common/protocol/messages.h"
#include "server/server.h"

namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_signal(int) { g_stop.store(true); }

}  // namespace

int main(int argc, char** argv) {
  sr::server::ServerOptions options;
  std::string data_dir = options.data_dir.string();
  std::string log_level = "info";
  int port = options.port;

  CLI::App app{"stackrace-server: hosts lobbies and rooms, referees every race, stores every replay"};
  app.set_config("--config", "", "read options from a TOML file (same keys as the long options)");
  app.add_option("--port", port, "UDP port to listen on")->capture_default_str()->check(CLI::Range(0, 65535));
  app.add_option("--bind", options.bind, "address to listen on (0.0.0.0 = every interface)")->capture_default_str();
  app.add_option("--data-dir", data_dir, "replay store directory (created if missing)")->capture_default_str();
  app.add_option("--max-players", options.lobby.max_players, "most players connected at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 4000));
  app.add_option("--max-rooms", options.lobby.max_rooms, "most rooms at once")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  app.add_option("--name", options.lobby.server_name, "server name shown to players")
      ->capture_default_str()
      ->check([](const std::string& s) {
        return s.empty() || s.size() > sr::protocol::kMaxServerNameBytes ? std::string("1 to 32 characters") : "";
      });
  app.add_option("--motd", options.lobby.motd, "message of the day shown on joining")->check([](const std::string& s) {
    return s.size() > sr::protocol::kMaxMotdBytes ? std::string("at most 1024 bytes") : "";
  });
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
      ->capture_default_str()
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
  CLI11_PARSE(app, argc, argv);

  spdlog::set_level(spdlog::level::from_str(log_level));
  options.port = static_cast<std::uint16_t>(port);
  options.data_dir = data_dir;
  options.net.max_peers = options.lobby.max_players + 64;  // room for refusals beyond the player limit

  sr::server::Server server(options);
  if (const auto error = server.start()) {
    std::fprintf(stderr, "stackrace-server: %s\n", error->c_str());
    return 1;
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::printf("stackrace-server '%s' listening on %s:%u (protocol %u), replays in %s\n",
              options.lobby.server_name.c_str(), options.bind.c_str(), server.port(), sr::protocol::kProtocolVersion,
              options.data_dir.string().c_str());
  std::fflush(stdout);
  server.run(g_stop);
  const auto stats = server.stats();
  std::printf("stackrace-server stopped: %llu races finished, %llu replays written\n",
              static_cast<unsigned long long>(stats.rooms_total.races_finished),
              static_cast<unsigned long long>(stats.replays_written));
  return 0;
}
