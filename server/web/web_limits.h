// The web pages' limits (deploy/README.md, "Web pages"): how many connections and live streams the server keeps
// open, in all and per address, and how many requests an address may make. Pure: time is passed in (microseconds of
// a monotonic clock), so tests/web_server/web_limits_test.cpp drives it with a fake one.
//
// An address is the peer's IP address, or, for a request that came through a trusted reverse proxy, the address the
// proxy names (X-Forwarded-For); trusted addresses themselves are never limited per address.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "server/rate_limiter.h"

namespace sr::server::web {

struct WebLimits {
  std::size_t max_connections = 2048;  // open connections, every address together (others are closed at once)
  std::size_t max_connections_per_address = 64;
  std::size_t max_streams = 2000;  // live streams (a live page each), every address together
  std::size_t max_streams_per_address = 16;
  std::int64_t requests_per_second = 20;  // per address, with bursts of `request_burst`
  std::int64_t request_burst = 100;
  std::size_t max_pending_jobs = 256;           // requests waiting for a worker (the store): beyond it, 503
  std::int64_t head_timeout_us = 10'000'000;    // a request head must arrive within this
  std::int64_t idle_timeout_us = 30'000'000;    // a kept-alive connection with no request is closed after this
  std::int64_t stall_timeout_us = 30'000'000;   // a response or stream that cannot be written for this long
  std::int64_t stream_ping_us = 15'000'000;     // a live stream with nothing to say sends a comment this often
  std::size_t max_race_feed_bytes = 16u << 20;  // one race's live feed (its watchers then see it end)
  std::size_t max_feed_bytes = 256u << 20;      // every live feed together
  std::size_t max_response_bytes_in_flight = 256u << 20;  // built responses (JSON exports) not yet sent
  std::vector<std::string> trusted;  // addresses never limited per address (reverse proxies); X-Forwarded-For from
                                     // them names the client
};

enum class WebRefusal : std::uint8_t {
  kNone,
  kConnections,
  kConnectionsFromAddress,
  kStreams,
  kStreamsFromAddress,
  kRequestRate
};

// "too many connections from your address", ...: what a refused client is told.
[[nodiscard]] const char* refusal_text(WebRefusal refusal);

class AddressLimits {
 public:
  explicit AddressLimits(WebLimits limits);

  [[nodiscard]] bool trusted(const std::string& address) const { return trusted_.count(address) != 0; }
  // A new connection from `address`: kNone (counted; close_connection() later) or why it is refused.
  [[nodiscard]] WebRefusal open_connection(const std::string& address);
  void close_connection(const std::string& address);
  // A live stream for a request from `address`: kNone (counted; close_stream() later) or why not.
  [[nodiscard]] WebRefusal open_stream(const std::string& address);
  void close_stream(const std::string& address);
  // A request from `address` at now_us: kNone, or kRequestRate when its budget is spent.
  [[nodiscard]] WebRefusal allow_request(const std::string& address, std::int64_t now_us);
  // Forgets addresses with nothing open whose budget has refilled (call now and then).
  void forget_idle(std::int64_t now_us);

  [[nodiscard]] std::size_t connections() const { return connections_; }
  [[nodiscard]] std::size_t streams() const { return streams_; }
  [[nodiscard]] std::size_t addresses() const { return by_address_.size(); }
  // Refusals so far, by WebRefusal (index = its value).
  [[nodiscard]] const std::vector<std::uint64_t>& refused() const { return refused_; }

 private:
  struct Address {
    std::size_t connections = 0;
    std::size_t streams = 0;
    RateLimiter requests;
    std::int64_t last_request_us = -1;
  };
  Address& at(const std::string& address);
  WebRefusal refuse(WebRefusal why);

  WebLimits limits_;
  std::set<std::string> trusted_;
  std::map<std::string, Address> by_address_;
  std::size_t connections_ = 0;
  std::size_t streams_ = 0;
  std::vector<std::uint64_t> refused_;
};

}  // namespace sr::server::web
