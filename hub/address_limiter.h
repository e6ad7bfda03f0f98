// Per-address limits of the directory: which addresses count as one (an IPv4 address, an IPv6 /64), and a token
// bucket per address for registrations, in a table of bounded size.
#pragma once

#include <cstdint>
#include <list>
#include <string>
#include <unordered_map>

namespace sr::hub {

// The address a request's source address is written as and counted under:
// - "::ffff:a.b.c.d" (an IPv4 client of a dual-stack socket) is "a.b.c.d"; other text is returned as it is.
[[nodiscard]] std::string canonical_address(const std::string& address);

// The group the per-address limits count `address` (canonical) in: an IPv4 address is its own group, an IPv6
// address counts with its whole /64 ("2001:db8:1:2::/64"), since one host commonly holds a whole /64.
[[nodiscard]] std::string address_group(const std::string& address);

// A token bucket per key: `per_second` tokens a second up to `burst`; a new key starts full. At most `max_keys` keys
// are remembered: a new key past that forgets the least recently seen one (which starts full again if it returns,
// so the table bounds memory, not an attacker with more than max_keys addresses).
// Time is passed in (now_ms, any monotonic milliseconds): no clock is read.
class AddressRateLimiter {
 public:
  AddressRateLimiter(std::int64_t per_second, std::int64_t burst, std::size_t max_keys);

  // Takes one token of `key`'s bucket: true if there was one.
  [[nodiscard]] bool allow(const std::string& key, std::int64_t now_ms);

  [[nodiscard]] std::size_t size() const { return buckets_.size(); }

 private:
  struct Bucket {
    std::int64_t milli_tokens = 0;  // 0..burst * 1000
    std::int64_t updated_ms = 0;
    std::list<std::string>::iterator recent;  // its place in recent_
  };
  std::int64_t per_second_;
  std::int64_t burst_;
  std::size_t max_keys_;
  std::unordered_map<std::string, Bucket> buckets_;
  std::list<std::string> recent_;  // most recently seen first
};

}  // namespace sr::hub
