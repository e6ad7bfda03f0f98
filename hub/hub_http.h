// The hub's HTTP server (cpp-httplib): the directory's `POST /api/register`, `GET /api/servers`, `GET /`,
// `GET /metrics` and `GET /healthz` (common/protocol/DIRECTORY.md section 3) over one Registry behind a mutex, and the
// records hub's routes (common/protocol/RECORDS.md sections 3 and 5, hub/records/records_routes.h) with the site's
// replay page (hub_site.h), on a bounded pool of threads. Challenges are sent from the ChallengeSender it owns.
//
// # Request bodies
// A submission may be net::kMaxSubmissionBytes (1 MiB); every other route keeps its own limit (a registration
// kMaxBodyBytes, 8 KiB): a body over it is refused with 413 as before, after being read. So a request thread may hold
// up to 1 MiB of body: --threads of them at most.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/result.h"
#include "hub/hub_challenge.h"
#include "hub/hub_pages.h"
#include "hub/hub_site.h"
#include "hub/records/records_hub.h"
#include "hub/records/records_routes.h"
#include "hub/registry.h"

namespace httplib {
class Server;
}

namespace sr::hub {

struct HubHttpOptions {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 8470;       // 0: any free port (HubHttpServer::port() says which)
  std::size_t threads = 16;        // 1..256 request threads: each holds one connection at a time
  std::size_t queue = 64;          // accepted connections waiting for a thread; past this the accept loop waits
  int timeout_s = 5;               // read, write and keep-alive timeout of a connection
  std::filesystem::path site_dir;  // the web site (hub_site.h) to serve the replay page from; empty: none
};

class HubHttpServer {
 public:
  // Monotonic milliseconds; steady_ms() unless a test gives its own.
  using Clock = std::function<std::int64_t()>;

  // `records`: the records hub the records routes answer from (it must outlive this), or null: the hub keeps no
  // records and those routes say so (503).
  HubHttpServer(HubLimits limits, Registry::TokenSource tokens, Clock clock, records::RecordsHub* records = nullptr);
  ~HubHttpServer();
  HubHttpServer(const HubHttpServer&) = delete;
  HubHttpServer& operator=(const HubHttpServer&) = delete;

  // Loads the site (when options.site_dir is set; a site that does not load is logged and left out), binds and serves
  // on a thread of its own.
  // # Errors
  // "cannot listen on ADDR:PORT (...)".
  [[nodiscard]] sr::Status<std::string> start(const HubHttpOptions& options);
  // The port listened on (after start()).
  [[nodiscard]] std::uint16_t port() const { return port_; }
  // Stops serving and joins the thread; also done by the destructor.
  void stop();

  // The registry's state and the counters, for tests and logs: calls `f(registry, requests)` under the mutex.
  void inspect(const std::function<void(const Registry&, const RequestCounts&)>& f) const;

 private:
  void routes();

  mutable std::mutex mutex_;  // guards registry_, requests_ and off_counts_
  Registry registry_;
  RequestCounts requests_;
  records::SubmitCounts off_counts_;  // submissions refused while records are off
  records::RecordsHub* records_;
  HubSite site_;
  std::unique_ptr<records::RecordsHttp> records_http_;
  Clock clock_;
  ChallengeSender sender_;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  std::atomic<bool> listen_ended_{false};  // the listen loop returned (or never ran)
  std::uint16_t port_ = 0;
};

// Milliseconds of std::chrono::steady_clock.
[[nodiscard]] std::int64_t steady_ms();
// Milliseconds since 1970 of std::chrono::system_clock.
[[nodiscard]] std::int64_t unix_ms();

}  // namespace sr::hub
