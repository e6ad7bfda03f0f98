#include "hub/hub_http.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <vector>

#include "hub/records/records_metrics.h"
#include "net/identity/submission.h"
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

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

HubHttpServer::HubHttpServer(HubLimits limits, Registry::TokenSource tokens, Clock clock, records::RecordsHub* records)
    : registry_(limits, std::move(tokens)), records_(records), clock_(std::move(clock)) {}

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
      // The server reads bodies up to a submission's size; a registration keeps its own limit.
      if (req.body.size() > kMaxBodyBytes) {
        res.status = 413;
        res.set_content(records::error_json("the body is larger than 8 KiB"), kJson);
        return;
      }
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
    std::string text;
    records::SubmitCounts submissions;
    {
      std::lock_guard lock(mutex_);
      ++requests_.metrics;
      registry_.expire(clock_());
      text = metrics_text(registry_, requests_);
      submissions = off_counts_;
    }
    if (records_) {
      const records::SubmitCounts c = records_->counts();
      for (std::size_t i = 0; i < c.submissions.size(); ++i) submissions.submissions[i] += c.submissions[i];
      for (std::size_t i = 0; i < c.runs.size(); ++i) submissions.runs[i] += c.runs[i];
    }
    text +=
        records::records_metrics_text(submissions, records_ != nullptr, records_ ? records_->verify_gate().in_use() : 0,
                                      records_ ? records_->verify_gate().slots() : 0);
    res.set_content(text, kPrometheusContentType);
  });
  http_->Get("/healthz", [this](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(mutex_);
    ++requests_.healthz;
    res.set_content("ok\n", "text/plain");
  });
  records::RecordsRouteContext context;
  context.hub = records_;
  context.site = &site_;
  context.count = [this](records::RecordsRoute route) {
    std::lock_guard lock(mutex_);
    switch (route) {
      case records::RecordsRoute::kSubmit: ++requests_.submit; break;
      case records::RecordsRoute::kApi: ++requests_.records_api; break;
      case records::RecordsRoute::kPage: ++requests_.records_pages; break;
      case records::RecordsRoute::kGame: ++requests_.games; break;
      case records::RecordsRoute::kSite: ++requests_.site; break;
    }
  };
  context.count_off = [this](records::SubmitResult result) {
    std::lock_guard lock(mutex_);
    ++off_counts_.submissions[static_cast<std::size_t>(result)];
  };
  records_http_ = std::make_unique<records::RecordsHttp>(std::move(context));
  records_http_->install(*http_);
  site_.mount(*http_);

  // Everything else (unknown paths, wrong methods, bodies over the limit): a JSON sentence with httplib's status.
  // httplib calls this for every status of 400 and more: the routes' own answers (which have a body) pass through.
  http_->set_error_handler(
      httplib::Server::HandlerWithResponse([this](const httplib::Request& req, httplib::Response& res) {
        if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
        const bool submission = req.path == "/api/records/submit";
        {
          std::lock_guard lock(mutex_);
          ++requests_.other;
          if (submission && res.status == 413 && !records_)
            ++off_counts_.submissions[static_cast<std::size_t>(records::SubmitResult::kTooLarge)];
        }
        if (submission && res.status == 413 && records_) records_->count(records::SubmitResult::kTooLarge);
        const std::string sentence =
            res.status == 413   ? (submission ? "the submission is larger than 1 MiB" : "the body is larger than 8 KiB")
            : res.status == 404 ? "no such page: see /api/servers, /, /records, /api/records, /metrics, /healthz"
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
  // An answer goes out in one piece at once: without it a client that sends its head and body in two writes (httplib's
  // does) waits for the delayed ACK, 40 ms a request on Linux.
  http_->set_tcp_nodelay(true);
  // The largest body of any route: a submission's. The others check their own (above).
  http_->set_payload_max_length(net::kMaxSubmissionBytes);
  if (!options.site_dir.empty()) {
    if (auto loaded = site_.load(options.site_dir); !loaded) {
      spdlog::warn("{}: the replay page and /verify are off", loaded.error());
    } else if (!site_.has_engine()) {
      spdlog::warn("the web site in {} has no engine (wasm/): the replay page cannot re-simulate",
                   options.site_dir.string());
    }
  }
  routes();
  int port = options.port;
  if (port == 0) {
    port = http_->bind_to_any_port(options.bind);
    if (port <= 0) return "cannot listen on " + options.bind + " (any port)";
  } else if (!http_->bind_to_port(options.bind, port)) {
    return "cannot listen on " + options.bind + ":" + std::to_string(port) + " (port in use or not permitted)";
  }
  port_ = static_cast<std::uint16_t>(port);
  listen_ended_.store(false);
  thread_ = std::thread([this] {
    if (!http_->listen_after_bind()) spdlog::error("the HTTP server stopped unexpectedly");
    listen_ended_.store(true);
  });
  // httplib's stop() does nothing until its listen loop runs, so a stop() right after start() (a SIGTERM during
  // start-up) would leave the loop running and the join waiting for ever: start() returns once the loop runs.
  while (!http_->is_running() && !listen_ended_.load()) std::this_thread::sleep_for(std::chrono::microseconds(100));
  return {};
}

void HubHttpServer::stop() {
  if (http_) http_->stop();
  if (thread_.joinable()) thread_.join();
  http_.reset();
}

}  // namespace sr::hub
