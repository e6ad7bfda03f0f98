// stackrace-hub's options (deploy/README.md, "Server directory (stackrace-hub)"), shared by main.cpp and the tests
// that check the deployment files name only options that exist.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hub/hub_http.h"
#include "hub/records/records_hub.h"
#include "hub/registry.h"

namespace sr::hub {

struct HubConfig {
  HubHttpOptions http;                   // --bind, --port, --threads, --queue, --timeout-seconds
  std::string data_dir;                  // created if given; the records hub keeps its records there (none without it)
  std::string database;                  // --database: a postgresql:// locator for the records instead of data_dir
  std::string web_dir;                   // the web site for the replay page (hub_site.h); empty: default_site_dir()
  std::vector<std::string> trust_keys;   // --trust: server keys (64 hex) the operator trusts
  std::vector<std::string> trust_files;  // --trust-file: files of them (records::TrustList::add_file)
  std::int64_t submissions_per_second = 10;  // per source address and per server key ...
  std::int64_t submission_burst = 20;        // ... after a burst of this many
  std::string log_level = "info";
  std::int64_t expire_seconds = 30;     // HubLimits::expire_ms
  std::int64_t challenge_seconds = 10;  // HubLimits::challenge_ms
  HubLimits limits;                     // the rest of the limits, bound directly
  bool check_config = false;            // parse the options, then exit 0
  bool health_check = false;            // ask a running hub's /healthz (at --bind/--port) and exit 0 if it answers
};

// Declares every option on `app`, bound to `config`.
void add_hub_options(CLI::App& app, HubConfig& config);

// The limits to run with once `app` has parsed into `config` (the seconds options turned into milliseconds, the
// renewal interval every_s a third of the expiry, at least 1 s).
[[nodiscard]] HubLimits hub_limits(const HubConfig& config);

// The records hub's options (everything but the trust list, which load_trust() reads): the data directory, the
// flood limits, and half the request threads (at least 1) for re-simulation.
[[nodiscard]] records::RecordsOptions records_options(const HubConfig& config);

// --health-check: GET /healthz of the hub these options describe, on loopback when it binds every interface.
// # Errors
// "no answer from http://127.0.0.1:8470/healthz: ..." or "unhealthy (HTTP 503): ...".
[[nodiscard]] sr::Status<std::string> probe_health(const HubHttpOptions& options);

}  // namespace sr::hub
