// The directory's HTTP server (cpp-httplib): `POST /api/register`, `GET /api/servers`, `GET /`, `GET /metrics` and
// `GET /healthz` (common/protocol/DIRECTORY.md section 3) on a bounded pool of threads, over one Registry behind a
// mutex. Challenges are sent from the ChallengeSender it owns.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "common/result.h"
#include "hub/hub_challenge.h"
#include "hub/hub_pages.h"
#include "hub/registry.h"

namespace httplib {
class Server;
}

namespace sr::hub {

struct HubHttpOptions {
  std::string bind = "0.0.0.0";
  std::uint16_t port = 8470;  // 0: any free port (HubHttpServer::port() says which)
  std::size_t threads = 16;   // 1..256 request threads: each holds one connection at a time
  std::size_t queue = 64;     // accepted connections waiting for a thread; past this the accept loop waits
  int timeout_s = 5;          // read, write and keep-alive timeout of a connection
};

class HubHttpServer {
 public:
  // Monotonic milliseconds; steady_ms() unless a test gives its own.
  using Clock = std::function<std::int64_t()>;

  HubHttpServer(HubLimits limits, Registry::TokenSource tokens, Clock clock);
  ~HubHttpServer();
  HubHttpServer(const HubHttpServer&) = delete;
  HubHttpServer& operator=(const HubHttpServer&) = delete;

  // Binds and serves on a thread of its own.
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

  mutable std::mutex mutex_;  // guards registry_ and requests_
  Registry registry_;
  RequestCounts requests_;
  Clock clock_;
  ChallengeSender sender_;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  std::uint16_t port_ = 0;
};

// Milliseconds of std::chrono::steady_clock.
[[nodiscard]] std::int64_t steady_ms();

}  // namespace sr::hub
