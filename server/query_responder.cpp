#include "server/query_responder.h"

#include "common/protocol/server_query.h"

namespace sr::server {
namespace {

// A bucket idle this long is full again: forgetting it changes nothing. Pruned this often.
constexpr std::int64_t kForgetAfterUs = 1'000'000;

}  // namespace

std::size_t QueryResponder::AddressHash::operator()(const IpAddress& a) const {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (std::uint8_t b : a) h = (h ^ b) * 1099511628211ull;
  return static_cast<std::size_t>(h);
}

QueryResponder::QueryResponder(QueryLimits limits)
    : limits_(limits), total_(limits.total_per_second, limits.total_per_second) {}

bool QueryResponder::allow(const IpAddress& from, std::int64_t now_us) {
  if (now_us >= next_prune_us_) {
    next_prune_us_ = now_us + kForgetAfterUs;
    std::erase_if(per_address_, [&](const auto& entry) { return now_us - entry.second.last_us >= kForgetAfterUs; });
  }
  // The total first: only a datagram the total would answer creates an entry, so spoofed sources cannot grow the
  // table past what the total lets through in a second or two.
  if (!total_.allow(now_us)) return false;
  auto it = per_address_.find(from);
  if (it == per_address_.end()) {
    it = per_address_
             .emplace(from, Bucket{RateLimiter(limits_.per_address_per_second, limits_.per_address_per_second), 0})
             .first;
  }
  it->second.last_us = now_us;
  if (!it->second.limiter.allow(now_us)) {
    // Not answered: give the total its token back (a cost of -1 refunds it; taken at this same time, it fits).
    (void)total_.allow(now_us, -1);
    return false;
  }
  return true;
}

std::optional<std::vector<std::uint8_t>> QueryResponder::handle(std::span<const std::uint8_t> datagram,
                                                                const IpAddress& from, std::int64_t now_us) {
  if (const auto nonce = protocol::decode_query(datagram)) {
    if (!allow(from, now_us)) {
      ++dropped_;
      return std::nullopt;
    }
    ++answered_;
    return protocol::encode_info(*nonce, info(now_us));
  }
  if (const auto token = protocol::decode_challenge(datagram)) {
    // A challenge costs a lock per directory: it counts against the total like a query (but not against the
    // directory's own address).
    if (directories_.empty() || !total_.allow(now_us)) return std::nullopt;
    for (DirectoryLink* link : directories_) {
      if (link->offer_token(from, *token, now_us)) ++challenges_kept_;
    }
  }
  return std::nullopt;
}

const std::string& QueryResponder::info(std::int64_t now_us) {
  if (source_ && (!has_info_ || now_us - info_at_us_ >= kInfoMaxAgeUs)) {
    info_ = source_();
    info_at_us_ = now_us;
    has_info_ = true;
  }
  return info_;
}

}  // namespace sr::server
