#include "server/http_metrics.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <chrono>

namespace sr::server {
namespace {

constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

std::string loopback_for(const std::string& bind) {
  if (bind.empty() || bind == "0.0.0.0" || bind == "*") return "127.0.0.1";
  if (bind == "::") return "::1";
  return bind;
}

}  // namespace

MetricsHttpServer::MetricsHttpServer(const MetricsBoard& board) : board_(board) {}

MetricsHttpServer::~MetricsHttpServer() { stop(); }

sr::Status<std::string> MetricsHttpServer::start(const MetricsHttpOptions& options) {
  http_ = std::make_unique<httplib::Server>();
  // Scrapes are rare and small: two worker threads, short timeouts, no request bodies.
  http_->new_task_queue = [] { return new httplib::ThreadPool(2); };
  http_->set_read_timeout(5, 0);
  http_->set_write_timeout(5, 0);
  http_->set_payload_max_length(4096);
  http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    const std::optional<MetricsSnapshot> snapshot = board_.latest();
    if (!snapshot) {
      res.status = 503;
      res.set_content("the server has not started yet\n", "text/plain");
      return;
    }
    res.set_content(prometheus_text(*snapshot), kPrometheusContentType);
  });
  http_->Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
    const std::optional<MetricsSnapshot> snapshot = board_.latest();
    if (snapshot && is_fresh(*snapshot, std::chrono::steady_clock::now())) {
      res.set_content("ok\n", "text/plain");
    } else {
      res.status = 503;
      res.set_content(!snapshot            ? "starting\n"
                      : snapshot->stopping ? "stopping\n"
                                           : "main loop stalled\n",
                      "text/plain");
    }
  });
  http_->Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("stackrace-server: /metrics (Prometheus), /healthz\n", "text/plain");
  });

  int port = options.port;
  if (port == 0) {
    port = http_->bind_to_any_port(options.bind);
    if (port <= 0) return "cannot listen for metrics on " + options.bind + " (any port)";
  } else if (!http_->bind_to_port(options.bind, port)) {
    return "cannot listen for metrics on " + options.bind + ":" + std::to_string(port) +
           " (port in use or not permitted)";
  }
  port_ = static_cast<std::uint16_t>(port);
  listen_ended_.store(false);
  thread_ = std::thread([this] {
    if (!http_->listen_after_bind()) spdlog::error("metrics endpoint stopped unexpectedly");
    listen_ended_.store(true);
  });
  // httplib's stop() does nothing until its listen loop runs, so a stop() right after start() (a SIGTERM during
  // start-up) would leave the loop running and the join waiting for ever: start() returns once the loop runs.
  while (!http_->is_running() && !listen_ended_.load()) std::this_thread::sleep_for(std::chrono::microseconds(100));
  return {};
}

void MetricsHttpServer::stop() {
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
  http_.reset();
}

sr::Status<std::string> probe_health(const MetricsHttpOptions& options) {
  if (options.port == 0) return std::string("no metrics port: --health-check needs --metrics-port");
  const std::string host = loopback_for(options.bind);
  httplib::Client client(host, options.port);
  client.set_connection_timeout(2, 0);
  client.set_read_timeout(3, 0);
  const httplib::Result result = client.Get("/healthz");
  if (!result) {
    return "no answer from http://" + host + ":" + std::to_string(options.port) +
           "/healthz: " + httplib::to_string(result.error());
  }
  if (result->status != 200) return "unhealthy (HTTP " + std::to_string(result->status) + "): " + result->body;
  return {};
}

}  // namespace sr::server
