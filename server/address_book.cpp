#include "server/address_book.h"

#include <algorithm>

namespace sr::server {
namespace {

// An address with no connection is forgotten this long after it was last seen: longer than any bucket takes to
// refill, so reconnecting never hands back a fuller bucket than waiting would.
constexpr TimeUs kForgetAfterUs = 60'000'000;

}  // namespace

const char* limit_label(Limit limit) {
  switch (limit) {
    case Limit::kConnections: return "connections_per_address";
    case Limit::kPending: return "pending_per_address";
    case Limit::kHelloTimeout: return "hello_timeout";
    case Limit::kRooms: return "rooms_per_address";
    case Limit::kJoinRate: return "join_rate";
    case Limit::kRequestRate: return "request_rate";
    case Limit::kServerBusy: return "server_request_rate";
    case Limit::kDownloadQueue: return "download_queue";
    case Limit::kBytesRate: return "bytes_rate";
    case Limit::kSendQueue: return "send_queue";
    case Limit::kIdleRoom: return "idle_room_closed";
    case Limit::kPlayersFull: return "max_players";
    case Limit::kServerRooms: return "max_rooms";
    case Limit::kDownloadRate: return "download_bytes_rate";
    case Limit::kConnectRate: return "connect_rate";
    case Limit::kRefusals: return "refused_requests";
    case Limit::kIdleLobby: return "idle_lobby";
    case Limit::kFairShare: return "fair_share";
    case Limit::kRoomShare: return "room_share";
    case Limit::kCatchUpQueued: return "catch_up_queued";
  }
  return "unknown";
}

std::string host_of(const std::string& address) {
  const auto colon = address.rfind(':');
  return colon == std::string::npos ? address : address.substr(0, colon);
}

AddressBook::AddressBook(AddressLimits limits) : limits_(limits) {}

AddressBook::Entry& AddressBook::entry(const std::string& host, TimeUs now_us) {
  auto it = entries_.find(host);
  if (it == entries_.end()) {
    it = entries_
             .emplace(host, Entry{0, 0, RateLimiter(limits_.join_burst, limits_.joins_per_second),
                                  RateLimiter(limits_.request_burst, limits_.requests_per_second),
                                  RateLimiter(limits_.bytes_burst, limits_.bytes_per_second),
                                  RateLimiter(limits_.share_burst, limits_.share_per_second),
                                  limits_.download_bytes_burst, now_us, now_us, 0, 0})
             .first;
  }
  it->second.last_seen_us = now_us;
  return it->second;
}

bool AddressBook::trusted(const std::string& host) const {
  return std::find(limits_.trusted.begin(), limits_.trusted.end(), host) != limits_.trusted.end();
}

std::optional<Limit> AddressBook::admit(const std::string& host, TimeUs now_us) {
  Entry& e = entry(host, now_us);
  if (!trusted(host)) {
    if (e.connections >= limits_.max_connections) return Limit::kConnections;
    if (e.pending >= limits_.max_pending) return Limit::kPending;
  }
  ++e.connections;
  ++e.pending;
  ++pending_total_;
  return std::nullopt;
}

void AddressBook::welcome(const std::string& host) {
  const auto it = entries_.find(host);
  if (it == entries_.end() || it->second.pending == 0) return;
  --it->second.pending;
  --pending_total_;
}

void AddressBook::release(const std::string& host, bool was_pending, TimeUs now_us) {
  const auto it = entries_.find(host);
  if (it == entries_.end()) return;
  Entry& e = it->second;
  if (e.connections > 0) --e.connections;
  if (was_pending && e.pending > 0) {
    --e.pending;
    --pending_total_;
  }
  e.last_seen_us = now_us;
}

void AddressBook::move(const std::string& from_host, const std::string& to_host, TimeUs now_us) {
  if (from_host == to_host) return;
  release(from_host, false, now_us);
  ++entry(to_host, now_us).connections;
}

bool AddressBook::allow_join(const std::string& host, TimeUs now_us) {
  return entry(host, now_us).joins.allow(now_us) || trusted(host);
}

bool AddressBook::allow_request(const std::string& host, TimeUs now_us) {
  return entry(host, now_us).requests.allow(now_us) || trusted(host);
}

bool AddressBook::within_share(const std::string& host, TimeUs now_us) {
  return entry(host, now_us).share.allow(now_us);
}

bool AddressBook::allow_bytes(const std::string& host, std::size_t bytes, TimeUs now_us) {
  return entry(host, now_us).bytes.allow(now_us, static_cast<std::int64_t>(bytes)) || trusted(host);
}

void AddressBook::refill_downloads(Entry& e, TimeUs now_us) const {
  if (now_us <= e.download_refilled_us) return;
  // (Past a full refill more time adds nothing; capping the interval keeps the product in range.)
  const TimeUs elapsed = std::min<TimeUs>(now_us - e.download_refilled_us, 1'000'000'000);
  e.download_budget = std::min(limits_.download_bytes_burst,
                               e.download_budget + elapsed * limits_.download_bytes_per_second / 1'000'000);
  e.download_refilled_us = now_us;
}

bool AddressBook::may_download(const std::string& host, TimeUs now_us) {
  Entry& e = entry(host, now_us);
  refill_downloads(e, now_us);
  return e.download_budget > 0 || trusted(host);
}

void AddressBook::charge_download(const std::string& host, std::size_t bytes, TimeUs now_us) {
  Entry& e = entry(host, now_us);
  refill_downloads(e, now_us);
  e.download_budget -= static_cast<std::int64_t>(bytes);
}

void AddressBook::purge(TimeUs now_us) {
  for (auto it = entries_.begin(); it != entries_.end();) {
    const Entry& e = it->second;
    if (e.connections == 0 && now_us - e.last_seen_us > kForgetAfterUs) {
      it = entries_.erase(it);
    } else {
      ++it;
    }
  }
}

bool AddressBook::count_refusal(const std::string& host, Limit limit, TimeUs now_us, std::uint64_t& suppressed,
                                std::uint64_t times) {
  refused_[static_cast<std::size_t>(limit)] += times;
  Entry& e = entry(host, now_us);
  if (now_us < e.next_log_us) {
    e.unlogged += times;
    return false;
  }
  suppressed = e.unlogged + times - 1;
  e.unlogged = 0;
  e.next_log_us = now_us + kLogEveryUs;
  return true;
}

std::size_t AddressBook::connections(const std::string& host) const {
  const auto it = entries_.find(host);
  return it == entries_.end() ? 0 : it->second.connections;
}

std::size_t AddressBook::pending(const std::string& host) const {
  const auto it = entries_.find(host);
  return it == entries_.end() ? 0 : it->second.pending;
}

}  // namespace sr::server
