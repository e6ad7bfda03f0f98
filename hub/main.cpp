// stackrace-hub: the server directory (common/protocol/DIRECTORY.md section 3) and, with a data directory, the records
// hub (common/protocol/RECORDS.md). Game servers started with `--public --directory URL` register here; the directory
// proves each one answers at its address with a UDP challenge, lists it while it renews, and serves the list as JSON
// and as a page. Servers started with `--records URL` submit their races here; the hub re-simulates each one and keeps
// the boards. deploy/README.md, "Server directory (stackrace-hub)", says how to run it.
//
// Threads: the HTTP server's pool answers requests (hub_http.h); this thread waits for SIGINT or SIGTERM.
#include <sodium.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>

#include "hub/hub_config.h"
#include "hub/hub_http.h"
#include "hub/records/records_hub.h"
#include "hub/records/trust.h"

namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_signal(int) { g_stop.store(true); }

}  // namespace

int main(int argc, char** argv) {
  sr::hub::HubConfig config;
  CLI::App app{"stackrace-hub: the directory of public stackrace servers (HTTP API, page, metrics)"};
  sr::hub::add_hub_options(app, config);
  CLI11_PARSE(app, argc, argv);
  // The trust list is part of the options: a bad key or file is a start-up error, --check-config included.
  auto trust = sr::hub::records::load_trust(config.trust_keys, config.trust_files);
  if (!trust) {
    std::fprintf(stderr, "stackrace-hub: %s\n", trust.error().c_str());
    return 1;
  }
  if (config.check_config) {
    std::printf("stackrace-hub: the options are valid\n");
    return 0;
  }
  if (config.health_check) {
    auto healthy = sr::hub::probe_health(config.http);
    if (!healthy) std::fprintf(stderr, "stackrace-hub: %s\n", healthy.error().c_str());
    return healthy ? 0 : 1;
  }
  spdlog::set_level(spdlog::level::from_str(config.log_level));

  if (sodium_init() < 0) {
    spdlog::critical("libsodium did not initialise: no random tokens");
    return 1;
  }
  std::unique_ptr<sr::hub::records::RecordsHub> records;
  if (config.data_dir.empty() && config.database.empty()) {
    spdlog::info("no --data-dir or --database: this hub keeps no records (submissions are answered 503)");
  } else {
    sr::hub::records::RecordsOptions options = sr::hub::records_options(config);
    options.trust = std::move(trust).value();
    auto opened = sr::hub::records::RecordsHub::open(std::move(options), sr::hub::steady_ms, sr::hub::unix_ms);
    if (!opened) {
      spdlog::critical("{}", opened.error());
      return 1;
    }
    records = std::move(opened).value();
  }

  const sr::hub::HubLimits limits = sr::hub::hub_limits(config);
  sr::hub::HubHttpServer server(limits, sr::hub::random_token, sr::hub::steady_ms, records.get());
  config.http.site_dir = config.web_dir.empty() ? sr::hub::default_site_dir() : std::filesystem::path(config.web_dir);
  if (auto started = server.start(config.http); !started) {
    spdlog::critical("{}", started.error());
    return 1;
  }
  spdlog::info("stackrace-hub listening on {}:{} (servers expire after {} s, challenges after {} s)", config.http.bind,
               server.port(), config.expire_seconds, config.challenge_seconds);

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  // The signal handler only sets the flag: polled here, a fifth of a second is soon enough to notice it.
  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  spdlog::info("stopping");
  server.stop();
  records.reset();
  return 0;
}
