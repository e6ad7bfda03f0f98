#include "server/connect_gate.h"

#include <algorithm>

namespace sr::server {

ConnectGate::ConnectGate(ConnectGateLimits limits)
    : limits_(std::move(limits)), trusted_(limits_.trusted.begin(), limits_.trusted.end()) {}

bool ConnectGate::allow(std::uint32_t address, std::int64_t now_us) {
  if (trusted_.contains(address)) return true;
  auto it = buckets_.find(address);
  if (it == buckets_.end()) {
    if (buckets_.size() >= limits_.max_tracked) return true;
    it = buckets_.emplace(address, Entry{RateLimiter(limits_.burst, limits_.per_second), now_us, 0}).first;
  }
  Entry& e = it->second;
  e.last_us = now_us;
  if (now_us >= e.held_until_us && e.bucket.allow(now_us)) return true;
  ++e.dropped;
  return false;
}

void ConnectGate::hold(std::uint32_t address, std::int64_t until_us) {
  if (trusted_.contains(address)) return;
  auto it = buckets_.find(address);
  if (it == buckets_.end()) {
    if (buckets_.size() >= limits_.max_tracked) return;
    it = buckets_.emplace(address, Entry{RateLimiter(limits_.burst, limits_.per_second), until_us, 0}).first;
  }
  it->second.held_until_us = std::max(it->second.held_until_us, until_us);
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> ConnectGate::take_dropped(std::int64_t now_us) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> out;
  // A bucket left alone this long is full again: forgetting it changes nothing.
  const std::int64_t refill_us =
      limits_.per_second > 0 ? limits_.burst * 1'000'000 / limits_.per_second + 1 : INT64_MAX / 2;
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    Entry& e = it->second;
    if (e.dropped > 0) {
      out.emplace_back(it->first, e.dropped);
      e.dropped = 0;
    }
    if (now_us - e.last_us > refill_us && now_us >= e.held_until_us) {
      it = buckets_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

}  // namespace sr::server
