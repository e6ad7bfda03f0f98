// A stand-in for the Agones SDK sidecar's REST interface: answers /ready, /health, /shutdown (POST) and
// /metadata/label (PUT) with 200 "{}", and records every call in order.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}

namespace sr::test {

class FakeSidecar {
 public:
  struct Call {
    std::string method;
    std::string path;
    std::string body;
    std::chrono::steady_clock::time_point at;
  };

  FakeSidecar();
  ~FakeSidecar();
  FakeSidecar(const FakeSidecar&) = delete;
  FakeSidecar& operator=(const FakeSidecar&) = delete;

  // Listens on 127.0.0.1:port (0: any free port). False if the port cannot be bound.
  bool start(std::uint16_t port = 0);
  void stop();
  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] std::vector<Call> calls() const;
  // The calls as "METHOD path" lines, with the body after a space for labels: "PUT /metadata/label {...}".
  [[nodiscard]] std::string transcript() const;

 private:
  std::unique_ptr<httplib::Server> http_;
  std::thread thread_;
  std::uint16_t port_ = 0;
  mutable std::mutex mutex_;
  std::vector<Call> calls_;
};

}  // namespace sr::test
