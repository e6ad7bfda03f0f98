// Answers server queries and takes hub challenges (common/protocol/DIRECTORY.md, "1. Server queries (UDP, on the
// game port)"), for the game port (NetHost's intercept) and the LAN discovery port (LanSocket) alike. Runs on the
// game loop's thread; time is passed in (steady-clock microseconds, non-decreasing), so tests drive it with a fake
// clock.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/directory_link.h"
#include "server/rate_limiter.h"

namespace sr::server {

struct QueryLimits {
  std::int64_t per_address_per_second = 20;  // answered from one address (a burst of as many)
  std::int64_t total_per_second = 2000;      // answered from everyone together (a burst of as many)
};

class QueryResponder {
 public:
  // The info JSON is rebuilt (by the source) when a query finds it older than this.
  static constexpr std::int64_t kInfoMaxAgeUs = 200'000;

  explicit QueryResponder(QueryLimits limits = {});

  // Where the info JSON comes from: called on this thread when the cached one is stale. Must return at most
  // protocol::kMaxInfoJsonBytes bytes (server_info_json does).
  void set_info_source(std::function<std::string()> source) { source_ = std::move(source); }
  // The directories whose challenges are taken (not owned); none: every challenge is ignored (not public).
  void set_directories(std::vector<DirectoryLink*> links) { directories_ = std::move(links); }

  // One datagram that has the query prefix (protocol::has_query_prefix) from `from`. Returns the info datagram to
  // send back to the sender for a valid query within the rate limits; nullopt for everything else (a challenge is
  // handed to the directory link it came from). Over the limits, a query is dropped and counted.
  [[nodiscard]] std::optional<std::vector<std::uint8_t>> handle(std::span<const std::uint8_t> datagram,
                                                                const IpAddress& from, std::int64_t now_us);

  // The info JSON as of `now_us` (rebuilt if older than kInfoMaxAgeUs); empty without a source.
  [[nodiscard]] const std::string& info(std::int64_t now_us);

  [[nodiscard]] std::uint64_t answered() const { return answered_; }
  [[nodiscard]] std::uint64_t dropped() const { return dropped_; }
  [[nodiscard]] std::uint64_t challenges_kept() const { return challenges_kept_; }
  [[nodiscard]] std::size_t addresses_tracked() const { return per_address_.size(); }

 private:
  // Takes one token from the total bucket and `from`'s; false (and nothing taken) if either is empty.
  [[nodiscard]] bool allow(const IpAddress& from, std::int64_t now_us);

  struct AddressHash {
    std::size_t operator()(const IpAddress& a) const;
  };
  struct Bucket {
    RateLimiter limiter;
    std::int64_t last_us = 0;
  };

  QueryLimits limits_;
  RateLimiter total_;
  std::unordered_map<IpAddress, Bucket, AddressHash> per_address_;
  std::int64_t next_prune_us_ = 0;
  std::function<std::string()> source_;
  std::vector<DirectoryLink*> directories_;
  std::string info_;
  std::int64_t info_at_us_ = 0;
  bool has_info_ = false;
  std::uint64_t answered_ = 0;
  std::uint64_t dropped_ = 0;
  std::uint64_t challenges_kept_ = 0;
};

}  // namespace sr::server
