// What the server's main loop tells the threads that watch it (the metrics endpoint, the Agones agent): a snapshot of
// its counters, published every 100 ms. The watchers never touch the Server; they read the latest snapshot, so a slow
// scrape or a hung sidecar can never delay the game loop, and a stalled loop shows as a stale snapshot.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "server/server.h"

namespace sr::server {

struct MetricsSnapshot {
  ServerStats stats;
  double main_loop_cpu_seconds = 0;  // CPU time of the thread running the loop (network, lobby, referees)
  std::chrono::steady_clock::time_point taken{};
  bool stopping = false;  // the loop has ended (shutdown)
};

// The latest snapshot, behind a mutex held only for a copy.
class MetricsBoard {
 public:
  void publish(const MetricsSnapshot& snapshot);
  [[nodiscard]] std::optional<MetricsSnapshot> latest() const;

 private:
  mutable std::mutex mutex_;
  std::optional<MetricsSnapshot> latest_;
};

// A snapshot is fresh while the loop that publishes it is alive (publishing every 100 ms).
inline constexpr std::chrono::milliseconds kSnapshotStaleAfter{5000};
[[nodiscard]] bool is_fresh(const MetricsSnapshot& snapshot, std::chrono::steady_clock::time_point now);

// The snapshot in the Prometheus text exposition format (version 0.0.4). Counters end in _total; rates (inputs and
// bytes per second) are Prometheus' rate() over them.
[[nodiscard]] std::string prometheus_text(const MetricsSnapshot& snapshot);

// CPU seconds used so far by the calling thread.
[[nodiscard]] double thread_cpu_seconds();

// The server's main loop, as Server::run, also publishing a snapshot to `board` every `every` (and a last one,
// marked stopping, after the shutdown).
void run_and_publish(Server& server, const std::atomic<bool>& stop, MetricsBoard& board,
                     std::chrono::milliseconds every = std::chrono::milliseconds(100));

}  // namespace sr::server
