#include "hub/address_limiter.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cassert>

namespace sr::hub {

std::string canonical_address(const std::string& address) {
  constexpr std::string_view kMapped = "::ffff:";
  if (address.size() > kMapped.size() && address.compare(0, kMapped.size(), kMapped) == 0) {
    const std::string v4 = address.substr(kMapped.size());
    in_addr a{};
    if (inet_pton(AF_INET, v4.c_str(), &a) == 1) return v4;
  }
  return address;
}

std::string address_group(const std::string& address) {
  std::array<unsigned char, 16> a{};
  if (inet_pton(AF_INET6, address.c_str(), a.data()) != 1) return address;
  std::fill(a.begin() + 8, a.end(), 0);
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (!inet_ntop(AF_INET6, a.data(), text.data(), text.size())) return address;
  return std::string(text.data()) + "/64";
}

AddressRateLimiter::AddressRateLimiter(std::int64_t per_second, std::int64_t burst, std::size_t max_keys)
    : per_second_(per_second), burst_(burst), max_keys_(max_keys) {
  assert(per_second >= 1 && burst >= 1 && max_keys >= 1);
}

bool AddressRateLimiter::allow(const std::string& key, std::int64_t now_ms) {
  const std::int64_t full = burst_ * 1000;
  auto it = buckets_.find(key);
  if (it == buckets_.end()) {
    if (buckets_.size() >= max_keys_) {
      buckets_.erase(recent_.back());
      recent_.pop_back();
    }
    recent_.push_front(key);
    it = buckets_.emplace(key, Bucket{full, now_ms, recent_.begin()}).first;
  } else {
    recent_.splice(recent_.begin(), recent_, it->second.recent);
  }
  Bucket& b = it->second;
  // per_second tokens a second = per_second milli-tokens a millisecond. Elapsed time is capped so that the product
  // cannot overflow after a long silence; a clock going backwards adds nothing.
  const std::int64_t elapsed_ms = std::clamp<std::int64_t>(now_ms - b.updated_ms, 0, 86'400'000);
  b.milli_tokens = std::min(full, b.milli_tokens + elapsed_ms * per_second_);
  b.updated_ms = std::max(b.updated_ms, now_ms);
  if (b.milli_tokens < 1000) return false;
  b.milli_tokens -= 1000;
  return true;
}

}  // namespace sr::hub
