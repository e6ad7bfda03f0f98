#include "tests/deploy/fake_sidecar.h"

#include <httplib.h>

namespace sr::test {

FakeSidecar::FakeSidecar() = default;

FakeSidecar::~FakeSidecar() { stop(); }

bool FakeSidecar::start(std::uint16_t port) {
  http_ = std::make_unique<httplib::Server>();
  const auto record = [this](const httplib::Request& req, httplib::Response& res) {
    {
      std::lock_guard lock(mutex_);
      calls_.push_back({req.method, req.path, req.body, std::chrono::steady_clock::now()});
    }
    res.set_content("{}", "application/json");
  };
  for (const char* path : {"/ready", "/health", "/shutdown", "/allocate"}) http_->Post(path, record);
  http_->Put("/metadata/label", record);
  http_->Put("/metadata/annotation", record);
  int bound = port;
  if (port == 0) {
    bound = http_->bind_to_any_port("127.0.0.1");
  } else if (!http_->bind_to_port("127.0.0.1", port)) {
    bound = -1;
  }
  if (bound <= 0) return false;
  port_ = static_cast<std::uint16_t>(bound);
  thread_ = std::thread([this] { http_->listen_after_bind(); });
  return true;
}

void FakeSidecar::stop() {
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
}

std::vector<FakeSidecar::Call> FakeSidecar::calls() const {
  std::lock_guard lock(mutex_);
  return calls_;
}

std::string FakeSidecar::transcript() const {
  std::string out;
  for (const Call& c : calls()) {
    out += c.method + " " + c.path;
    if (c.method == "PUT") out += " " + c.body;
    out += "\n";
  }
  return out;
}

}  // namespace sr::test
