#include "hub/hub_http.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <vector>

#include "web/wasm/json_writer.h"

namespace sr::hub {
namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";
constexpr std::size_t kKeepAliveRequests = 16;  // requests one connection may make before it is closed

// httplib's ThreadPool (0.11) queues without limit: a flood of connections would each hold a socket and memory. This
// one holds at most `max_queued` waiting connections; past that, enqueue() (the accept loop) waits for room, so the
// kernel's listen backlog holds the rest and then refuses them.
class BoundedPool : public httplib::TaskQueue {
 public:
  BoundedPool(std::size_t threads, std::size_t max_queued) : max_queued_(max_queued) {
    for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
  }
  ~BoundedPool() override = default;

  void enqueue(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [this] { return jobs_.size() < max_queued_ || shutdown_; });
    jobs_.push_back(std::move(fn));
    ready_.notify_one();
  }

  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      shutdown_ = true;
    }
    ready_.notify_all();
    room_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return !jobs_.empty() || shutdown_; });
        if (jobs_.empty()) return;  // shutting down with nothing left
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      room_.notify_one();
      job();
    }
  }

  std::size_t max_queued_;
  std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable room_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  bool shutdown_ = false;
};

}  // namespace

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

HubHttpServer::HubHttpServer(HubLimits limits, Registry::TokenSource tokens, Clock clock)
    : registry_(limits, std::move(tokens)), clock_(std::move(clock)) {}

HubHttpServer::~HubHttpServer() { stop(); }

void HubHttpServer::inspect(const std::function<void(const Registry&, const RequestCounts&)>& f) const {
  std::lock_guard lock(mutex_);
  f(registry_, requests_);
}

void HubHttpServer::routes() {
  http_->Post("/api/register", [this](const httplib::Request& req, httplib::Response& res) {
    RegisterAnswer a;
    {
      std::lock_guard lock(mutex_);
      ++requests_.register_requests;
      a = registry_.register_server(req.remote_addr, req.body, clock_());
    }
    if (!a.challenge_token.empty()) {
      if (auto sent = sender_.send(a.address, a.port, a.challenge_token); !sent) {
        spdlog::warn("challenge to {}:{} not sent: {}", a.address, a.port, sent.error());
        std::lock_guard lock(mutex_);
        ++requests_.challenge_send_failures;
      }
    }
    if (a.outcome == Outcome::kListed) {
      spdlog::info("listed {}:{}", a.address, a.port);
    } else if (is_refusal(a.outcome)) {
      spdlog::debug("registration from {} refused ({}): {}", a.address, outcome_name(a.outcome), a.body);
    }
    res.status = a.http_status;
    res.set_content(a.body, kJson);
  });
  http_->Get("/api/servers", [this](const httplib::Request&, httplib::Response& res) {
    std::vector<ListedServer> servers;
    {
      std::lock_guard lock(mutex_);
      ++requests_.servers;
      servers = registry_.listed(clock_());
    }
    res.set_header("Cache-Control", "no-cache");
    res.set_header("Access-Control-Allow-Origin", "*");
    res.set_content(servers_json(servers), kJson);
  });
  http_->Get("/", [this](const httplib::Request&, httplib::Response& res) {
    std::vector<ListedServer> servers;
    {
      std::lock_guard lock(mutex_);
      ++requests_.page;
      servers = registry_.listed(clock_());
    }
    res.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    res.set_content(servers_html(servers), "text/html; charset=utf-8");
  });
  http_->Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    ++requests_.metrics;
    registry_.expire(clock_());
    res.set_content(metrics_text(registry_, requests_), kPrometheusContentType);
  });
  http_->Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    ++requests_.healthz;
    res.set_content("ok\n", "text/plain");
  });
  // Everything else (unknown paths, wrong methods, bodies over the limit): a JSON sentence with httplib's status.
  // httplib calls this for every status of 400 and more: the routes' own answers (which have a body) pass through.
  http_->set_error_handler(
      httplib::Server::HandlerWithResponse([this](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        {
          std::lock_guard lock(mutex_);
          ++requests_.other;
        }
        const std::string sentence = res.status == 413 ? "the body is larger than 8 KiB"
                                     : res.status == 404
                                         ? "no such page: see /api/servers, /, /metrics, /healthz"
                                         : "the request was refused (HTTP " + std::to_string(res.status) + ")";
        web::JsonWriter w(true);
        w.begin_object().key("error").value(sentence).end_object();
        res.set_content(w.text(), kJson);
        return httplib::Server::HandlerResponse::Handled;
      }));
}

sr::Status<std::string> HubHttpServer::start(const HubHttpOptions& options) {
  http_ = std::make_unique<httplib::Server>();
  const std::size_t threads = options.threads;
  const std::size_t queue = options.queue;
  http_->new_task_queue = [threads, queue] { return new BoundedPool(threads, queue); };
  http_->set_read_timeout(options.timeout_s, 0);
  http_->set_write_timeout(options.timeout_s, 0);
  http_->set_keep_alive_timeout(options.timeout_s);
  http_->set_keep_alive_max_count(kKeepAliveRequests);
  http_->set_payload_max_length(kMaxBodyBytes);
  routes();
  int port = options.port;
  if (port == 0) {
    port = http_->bind_to_any_port(options.bind);
    if (port <= 0) return "cannot listen on " + options.bind + " (any port)";
  } else if (!http_->bind_to_port(options.bind, port)) {
    return "cannot listen on " + options.bind + ":" + std::to_string(port) + " (port in use or not permitted)";
  }
  port_ = static_cast<std::uint16_t>(port);
  thread_ = std::thread([this] {
    if (!http_->listen_after_bind()) spdlog::error("the HTTP server stopped unexpectedly");
  });
  return {};
}

void HubHttpServer::stop() {
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
  http_.reset();
}

}  // namespace sr::hub
