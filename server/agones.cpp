#include "server/agones.h"

#include <httplib.h>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace sr::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kShutdownAttempts = 5;

long long seconds_of(std::chrono::milliseconds ms) { return static_cast<long long>(ms.count() / 1000); }

}  // namespace

AgonesAgent::AgonesAgent(AgonesOptions options, const MetricsBoard& board, std::function<void()> request_stop)
    : options_(std::move(options)), board_(board), request_stop_(std::move(request_stop)) {}

AgonesAgent::~AgonesAgent() { stop(); }

void AgonesAgent::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void AgonesAgent::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool AgonesAgent::wait_until(Clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  return wake_.wait_until(lock, deadline, [this] { return stopping_; });
}

sr::Status<std::string> AgonesAgent::call(const char* method, const std::string& path, const std::string& body) {
  httplib::Client client(options_.host, options_.port);
  client.set_connection_timeout(1, 0);
  client.set_read_timeout(2, 0);
  client.set_write_timeout(2, 0);
  const std::string method_name(method);
  const httplib::Result result =
      method_name == "PUT" ? client.Put(path, body, "application/json") : client.Post(path, body, "application/json");
  if (!result) return method_name + " " + path + ": " + httplib::to_string(result.error());
  if (result->status < 200 || result->status > 299) {
    return method_name + " " + path + ": HTTP " + std::to_string(result->status) + " " + result->body;
  }
  return {};
}

void AgonesAgent::ping_health(const std::optional<MetricsSnapshot>& snapshot, Clock::time_point now) {
  if (!snapshot || !is_fresh(*snapshot, now)) {
    // No ping: Agones marks the GameServer Unhealthy after its failureThreshold, which is what a stuck loop deserves.
    if (!health_failing_) spdlog::warn("agones: the main loop has not reported for a while; no health ping");
    health_failing_ = true;
    return;
  }
  if (const auto pinged = call("POST", "/health", "{}"); !pinged) {
    if (!health_failing_) spdlog::warn("agones: health ping failed: {}", pinged.error());
    health_failing_ = true;
    return;
  }
  if (health_failing_) spdlog::info("agones: health pings are getting through again");
  health_failing_ = false;

  const auto players = static_cast<long long>(snapshot->stats.players);
  if (players != last_players_label_) {
    const std::string body = R"({"key":"players","value":")" + std::to_string(players) + R"("})";
    if (const auto labelled = call("PUT", "/metadata/label", body); !labelled) {
      spdlog::warn("agones: could not set the players label: {}", labelled.error());
    } else {
      last_players_label_ = players;
    }
  }
}

void AgonesAgent::run() {
  // Ready, retried until the sidecar answers (it may start after us).
  std::chrono::milliseconds backoff = options_.retry_first;
  for (int attempt = 1;; ++attempt) {
    const auto ready = call("POST", "/ready", "{}");
    if (ready) {
      spdlog::info("agones: ready (SDK sidecar at {}:{}, attempt {})", options_.host, options_.port, attempt);
      break;
    }
    spdlog::log(attempt == 1 ? spdlog::level::warn : spdlog::level::info,
                "agones: the SDK sidecar did not take ready ({}); attempt {}, retrying in {} ms", ready.error(),
                attempt, backoff.count());
    if (wait_until(Clock::now() + backoff)) return;
    backoff = std::min(backoff * 2, options_.retry_max);
  }

  Clock::time_point idle_since = Clock::now();
  Clock::time_point next_health = Clock::now();
  for (;;) {
    const Clock::time_point now = Clock::now();
    const std::optional<MetricsSnapshot> snapshot = board_.latest();
    if (snapshot && (snapshot->stats.rooms > 0 || snapshot->stats.players > 0)) idle_since = now;
    if (now >= next_health) {
      ping_health(snapshot, now);
      next_health = now + options_.health_every;
    }
    const bool idle_shutdown = options_.idle_shutdown.count() > 0;
    if (idle_shutdown && now - idle_since >= options_.idle_shutdown) break;
    // Wake at least every 100 ms to see new rooms and players (which restart the idle clock).
    Clock::time_point wake = std::min(next_health, now + std::chrono::milliseconds(100));
    if (idle_shutdown) wake = std::min(wake, idle_since + options_.idle_shutdown);
    if (wait_until(wake)) return;
  }

  spdlog::info("agones: no rooms and no players for {} s; asking Agones to shut this server down",
               seconds_of(options_.idle_shutdown));
  backoff = options_.retry_first;
  for (int attempt = 1; attempt <= kShutdownAttempts; ++attempt) {
    const auto taken = call("POST", "/shutdown", "{}");
    if (taken) break;
    spdlog::warn("agones: shutdown not taken ({}); attempt {} of {}", taken.error(), attempt, kShutdownAttempts);
    if (attempt == kShutdownAttempts || wait_until(Clock::now() + backoff)) break;
    backoff = std::min(backoff * 2, options_.retry_max);
  }
  if (request_stop_) request_stop_();
}

}  // namespace sr::server
