// The real stackrace-server as a child process for stackrace-abuse: started on 127.0.0.1 with its default limits, a
// data directory and a metrics port; its memory sampled from /proc while it runs; its /metrics scraped.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"

namespace sr::abuse {

class ServerProcess {
 public:
  ServerProcess() = default;
  ~ServerProcess();  // stops a server still running
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  // Starts `binary` with --port 0 (it picks a free port) on 127.0.0.1, the data directory, the metrics port and
  // nothing else: every limit is the server's default. Its output goes to `log`. Returns once it says which port it
  // listens on (within 20 s), or why it did not start.
  // `extra` arguments follow (stackrace-webload: the web pages' options).
  [[nodiscard]] sr::Status<std::string> start(const std::filesystem::path& binary,
                                              const std::filesystem::path& data_dir, const std::filesystem::path& log,
                                              std::uint16_t metrics_port, const std::vector<std::string>& extra = {});
  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] pid_t pid() const { return pid_; }

  // Samples VmRSS and VmHWM every 50 ms on a thread of its own until stop().
  void start_sampling();
  // The most resident memory seen (kB): the largest VmRSS sample and the last VmHWM.
  [[nodiscard]] std::int64_t peak_kb() const { return peak_kb_.load(); }
  // Whether the process has ended (crashed, killed for memory) while it should have run.
  [[nodiscard]] bool exited();

  // GET /metrics (bounded by `timeout`); nullopt if it did not answer.
  [[nodiscard]] std::optional<std::string> scrape(std::chrono::milliseconds timeout) const;

  // SIGTERM, up to 15 s for a clean exit (running races end, replays are written), then SIGKILL.
  void stop();

 private:
  pid_t pid_ = -1;
  bool reaped_ = false;
  std::uint16_t port_ = 0;
  std::uint16_t metrics_port_ = 0;
  std::atomic<bool> sampling_{false};
  std::atomic<std::int64_t> peak_kb_{0};
  std::thread sampler_;
};

}  // namespace sr::abuse
