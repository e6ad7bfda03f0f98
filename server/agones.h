// Running under Agones (Kubernetes game-server fleets): an agent thread that talks to the Agones SDK sidecar over its
// REST interface (http://localhost:$AGONES_SDK_HTTP_PORT, default 9358; agones.dev "REST Game Server Client API"):
//   POST /ready                    once, when the server has bound its port (retried with backoff until the sidecar
//                                  answers: the sidecar may start after us);
//   POST /health                   every health interval while the main loop is alive (a stalled loop stops the
//                                  pings, so Agones marks the GameServer Unhealthy);
//   PUT  /metadata/label           {"key":"players","value":"N"} when the player count changes (the GameServer gets
//                                  the label agones.dev/sdk-players);
//   POST /shutdown                 after the idle time with no rooms and no players; then the server stops itself.
// Every call runs on the agent's thread with short timeouts; the game loop only publishes snapshots (metrics.h).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/result.h"
#include "server/metrics.h"

namespace sr::server {

struct AgonesOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 9358;  // AGONES_SDK_HTTP_PORT
  std::chrono::milliseconds health_every{2000};
  std::chrono::milliseconds idle_shutdown{300'000};  // 0: never
  std::chrono::milliseconds retry_first{250};        // backoff while the sidecar does not answer: doubles up to
  std::chrono::milliseconds retry_max{5000};         // retry_max
};

class AgonesAgent {
 public:
  // `request_stop` is called (on the agent's thread) after the shutdown call, to stop the server.
  AgonesAgent(AgonesOptions options, const MetricsBoard& board, std::function<void()> request_stop);
  ~AgonesAgent();
  AgonesAgent(const AgonesAgent&) = delete;
  AgonesAgent& operator=(const AgonesAgent&) = delete;

  // Starts the agent's thread; call once the game port is bound.
  void start();
  // Stops the thread (waits for a call in flight, at most a few seconds). Tells the sidecar nothing.
  void stop();

 private:
  void run();
  // Waits until `deadline` or stop(); true if stopped.
  bool wait_until(std::chrono::steady_clock::time_point deadline);
  // One SDK call; ok, or an error sentence if the sidecar did not answer 2xx.
  [[nodiscard]] sr::Status<std::string> call(const char* method, const std::string& path, const std::string& body);
  void ping_health(const std::optional<MetricsSnapshot>& snapshot, std::chrono::steady_clock::time_point now);

  AgonesOptions options_;
  const MetricsBoard& board_;
  std::function<void()> request_stop_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  // Agent thread only.
  long long last_players_label_ = -1;
  bool health_failing_ = false;
};

}  // namespace sr::server
