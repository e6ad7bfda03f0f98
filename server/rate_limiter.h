// A token bucket: `burst` actions at once, refilled at `per_second`. Time is passed in (microseconds, any origin,
// non-decreasing), so it is testable and reads no clock.
#pragma once

#include <algorithm>
#include <cstdint>

namespace sr::server {

class RateLimiter {
 public:
  RateLimiter(std::int64_t burst, std::int64_t per_second) : burst_(burst), per_second_(per_second) {}

  // Takes `cost` tokens if there are that many. Tokens are kept in millionths so refills are exact integers.
  [[nodiscard]] bool allow(std::int64_t now_us, std::int64_t cost = 1) {
    if (last_us_ < 0) {
      last_us_ = now_us;
      micro_tokens_ = burst_ * kScale;
    }
    if (now_us > last_us_) {
      // Past the time a full refill takes, more time adds nothing (and would overflow on a long idle spell).
      const std::int64_t refill_us = per_second_ > 0 ? burst_ * kScale / per_second_ + 1 : 0;
      micro_tokens_ = std::min(burst_ * kScale, micro_tokens_ + std::min(now_us - last_us_, refill_us) * per_second_);
      last_us_ = now_us;
    }
    if (micro_tokens_ < cost * kScale) return false;
    micro_tokens_ -= cost * kScale;
    return true;
  }

 private:
  static constexpr std::int64_t kScale = 1'000'000;
  std::int64_t burst_;
  std::int64_t per_second_;
  std::int64_t micro_tokens_ = 0;
  std::int64_t last_us_ = -1;
};

}  // namespace sr::server
