// A token bucket: `burst` actions at once, refilled at `per_second`. Time is passed in (microseconds, any origin,
// non-decreasing), so it is testable and reads no clock.
#pragma once

#include <algorithm>
#include <cstdint>

namespace sr::server {

class RateLimiter {
 public:
  RateLimiter(std::int64_t burst, std::int64_t per_second) : burst_(burst), per_second_(per_second) {}

  // Takes one token if there is one. Tokens are kept in millionths so refills are exact integers.
  [[nodiscard]] bool allow(std::int64_t now_us) {
    if (last_us_ < 0) {
      last_us_ = now_us;
      micro_tokens_ = burst_ * kScale;
    }
    if (now_us > last_us_) {
      micro_tokens_ = std::min(burst_ * kScale, micro_tokens_ + (now_us - last_us_) * per_second_);
      last_us_ = now_us;
    }
    if (micro_tokens_ < kScale) return false;
    micro_tokens_ -= kScale;
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
