// Connection attempts per IP address, judged before ENet does any work for them (docs/ARCHITECTURE.md, "Limits per
// address"). Every accepted CONNECT costs ENet a handshake and a peer slot, and the lobby a Reject and a disconnect
// when the address is over its limits; a client refused that way can reconnect at once, and a few addresses doing so
// in a loop (thousands of attempts a second) slowed every race's relays. Beyond a burst, an address's attempts are
// dropped here without a word: its clients wait and retry at ENet's backoff, which costs us one datagram read each.
//
// Pure bookkeeping: time is passed in (microseconds, non-decreasing). Addresses are IPv4 in network byte order, as
// ENet gives them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "server/rate_limiter.h"

namespace sr::server {

struct ConnectGateLimits {
  // A whole household (the lobby's max_per_address) may reconnect at once after its router restarted.
  std::int64_t burst = 64;
  std::int64_t per_second = 8;
  // Addresses the gate lets through untouched (--trust-addresses: a load test's bots on the server's machine).
  std::vector<std::uint32_t> trusted;
  // Addresses tracked at most; beyond it (a flood of spoofed sources) new addresses pass untracked to ENet's and the
  // lobby's own limits rather than growing this table.
  std::size_t max_tracked = 65'536;
};

class ConnectGate {
 public:
  explicit ConnectGate(ConnectGateLimits limits);

  // A connection attempt from `address` at `now_us`: true to let ENet handle it, false to drop it (then counted).
  [[nodiscard]] bool allow(std::uint32_t address, std::int64_t now_us);

  // Drops every attempt from `address` until `until_us` (a trusted one excepted). The server holds an address it has
  // just told "the server is full": its clients would otherwise retry at once, each retry a handshake, a Hello, a
  // Reject and a disconnect, and a few hundred a second of those slowed every race's relays (tests/abuse, idle x18).
  void hold(std::uint32_t address, std::int64_t until_us);

  // The attempts dropped since the last call, by address, and forgets them; also forgets addresses whose bucket has
  // refilled. Call it now and then (the server does once a second).
  [[nodiscard]] std::vector<std::pair<std::uint32_t, std::uint64_t>> take_dropped(std::int64_t now_us);

  [[nodiscard]] std::size_t tracked() const { return buckets_.size(); }

 private:
  struct Entry {
    RateLimiter bucket;
    std::int64_t last_us = 0;
    std::uint64_t dropped = 0;
    std::int64_t held_until_us = 0;  // hold(): attempts before this are dropped
  };
  ConnectGateLimits limits_;
  std::unordered_set<std::uint32_t> trusted_;
  std::unordered_map<std::uint32_t, Entry> buckets_;
};

}  // namespace sr::server
