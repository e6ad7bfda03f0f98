// The metrics endpoint (--metrics-port): a small HTTP server (cpp-httplib) on its own threads that answers
//   GET /metrics  the latest snapshot in the Prometheus text format;
//   GET /healthz  200 "ok" while the main loop publishes snapshots, 503 once it has stalled or stopped.
// It reads only the MetricsBoard, never the Server.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "common/result.h"
#include "server/metrics.h"

namespace httplib {
class Server;
}

namespace sr::server {

struct MetricsHttpOptions {
  std::uint16_t port = 0;  // 0: no endpoint (for start(): any free port)
  std::string bind = "127.0.0.1";
};

class MetricsHttpServer {
 public:
  explicit MetricsHttpServer(const MetricsBoard& board);
  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // Binds bind:port (port 0: any free port) and serves on a thread. Ok, or an error sentence if the port cannot be
  // bound.
  [[nodiscard]] sr::Status<std::string> start(const MetricsHttpOptions& options);
  [[nodiscard]] std::uint16_t port() const { return port_; }
  void stop();

 private:
  const MetricsBoard& board_;
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  std::atomic<bool> listen_ended_{false};  // the listen loop returned (or never ran)
  std::uint16_t port_ = 0;
};

// `stackrace-server --health-check`: GET /healthz from the server whose metrics endpoint `options` describe (a
// wildcard bind address is asked on loopback). Ok when it answers 200, else why not.
[[nodiscard]] sr::Status<std::string> probe_health(const MetricsHttpOptions& options);

}  // namespace sr::server
