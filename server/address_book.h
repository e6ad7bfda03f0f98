// What one IP address may hold and do (docs/ARCHITECTURE.md, "Limits per address"): connections, connections that
// have not said Hello, rooms, room joins, requests to the replay store, bytes received and replay bytes queued. A
// player's own message limit (player.h) stops one connection; these stop one address with many connections, so a
// hostile address, or a handful, cannot take the server from everybody else.
//
// Pure bookkeeping: time is passed in (microseconds, non-decreasing), nothing is sent. The lobby asks, refuses in
// words, and counts every refusal by Limit for the metrics.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "server/rate_limiter.h"

namespace sr::server {

using TimeUs = std::int64_t;

struct AddressLimits {
  std::size_t max_connections = 64;  // players connected from one address (a household behind one router)
  std::size_t max_pending = 16;      // of them, connected without a Hello yet
  TimeUs hello_timeout_us = 10'000'000;
  std::size_t max_rooms = 8;  // open rooms created from one address
  // Room joins and creations (each sends the room's member list to every member, and catch-up to the joiner).
  std::int64_t join_burst = 20;
  std::int64_t joins_per_second = 2;
  // Replay lists, replay downloads and room lists (each reads the store or walks the rooms on the main loop).
  std::int64_t request_burst = 20;
  std::int64_t requests_per_second = 10;
  // Of those, each address's fair share: the first request a second (2 at once) never waits on the server-wide
  // budget (LobbyOptions::requests_per_second), so busy addresses, many of them each under its own limit, cannot
  // starve one that asks now and then.
  std::int64_t share_burst = 2;
  std::int64_t share_per_second = 1;
  // Bytes of messages received (a racer sends about 2 KB a second).
  std::int64_t bytes_burst = 4 << 20;
  std::int64_t bytes_per_second = 1 << 20;
  // Replay bytes waiting to be sent to one address: a download starts only while the address has less than this
  // queued (or nothing: one replay larger than this is still sent alone).
  std::size_t max_queued_download_bytes = 2 << 20;
  // Replay bytes sent to one address: each download is read, split and queued on the main loop. A download may
  // start while the budget is above zero and is then charged in full (a replay larger than the burst still goes,
  // and the next waits longer).
  std::int64_t download_bytes_burst = 1 << 20;
  std::int64_t download_bytes_per_second = 256 << 10;
  // Addresses these limits do not apply to (counted all the same): a load test's bots all come from 127.0.0.1.
  std::vector<std::string> trusted;
};

// Why something was refused. Each has a metric label (limit_label) and a count in AddressBook::refused().
enum class Limit : std::uint8_t {
  kConnections = 0,     // max_connections
  kPending = 1,         // max_pending
  kHelloTimeout = 2,    // no Hello within hello_timeout_us
  kRooms = 3,           // max_rooms (per address)
  kJoinRate = 4,        // join_burst / joins_per_second
  kRequestRate = 5,     // request_burst / requests_per_second
  kServerBusy = 6,      // the server-wide request budget
  kDownloadQueue = 7,   // max_queued_download_bytes, or the player's own download still going
  kBytesRate = 8,       // bytes_burst / bytes_per_second
  kSendQueue = 9,       // a player not reading what the server sends (Lobby::kMaxQueuedBytes)
  kIdleRoom = 10,       // a room closed for having no race for a long time (not a refusal, but counted alike)
  kPlayersFull = 11,    // the server's max_players
  kServerRooms = 12,    // the server's max_rooms
  kDownloadRate = 13,   // download_bytes_burst / download_bytes_per_second
  kConnectRate = 14,    // connection attempts per address, dropped before ENet (connect_gate.h)
  kRefusals = 15,       // a player whose requests keep being refused (Player::refusals): dropped
  kIdleLobby = 16,      // a player in the lobby who asked nothing for LobbyOptions::lobby_idle_us: dropped
  kFairShare = 17,      // the server full: an idle lobby player of the address holding most places made room
  kRoomShare = 18,      // rooms scarce: an address holding its share of them may not open another (Lobby)
  kCatchUpQueued = 19,  // a race's catch-up waited for the server's catch-up budget (not refused: CatchUpQueue)
};
inline constexpr std::size_t kLimitCount = 20;
[[nodiscard]] const char* limit_label(Limit limit);

// The host part of "ip:port" (the whole text when it has no port).
[[nodiscard]] std::string host_of(const std::string& address);

class AddressBook {
 public:
  explicit AddressBook(AddressLimits limits);

  // A new connection from `host`: counted (as pending) and nullopt, or the limit that refuses it (then not counted).
  [[nodiscard]] std::optional<Limit> admit(const std::string& host, TimeUs now_us);
  // A pending connection said Hello (or resumed a seat).
  void welcome(const std::string& host);
  // A connection counted by admit() is gone.
  void release(const std::string& host, bool was_pending, TimeUs now_us);
  // A racer resumed from another address: their connection now counts there (as welcomed).
  void move(const std::string& from_host, const std::string& to_host, TimeUs now_us);

  [[nodiscard]] bool allow_join(const std::string& host, TimeUs now_us);
  [[nodiscard]] bool allow_request(const std::string& host, TimeUs now_us);
  // Is this request (already allowed by allow_request) within the address's fair share (share_burst,
  // share_per_second)? Such a request goes ahead whatever the server-wide budget says.
  [[nodiscard]] bool within_share(const std::string& host, TimeUs now_us);
  [[nodiscard]] bool allow_bytes(const std::string& host, std::size_t bytes, TimeUs now_us);
  // May a download start (the address's download budget is above zero)? charge_download() then takes its bytes.
  [[nodiscard]] bool may_download(const std::string& host, TimeUs now_us);
  void charge_download(const std::string& host, std::size_t bytes, TimeUs now_us);

  // Forgets addresses with no connection whose buckets have had time to refill (so an address cannot reset its
  // limits by reconnecting). Call now and then.
  void purge(TimeUs now_us);

  // Counts `times` refusals. Returns true when they should be logged: the first of an address in 10 s (a flood would
  // otherwise write a log line per packet); `suppressed` is then how many went unlogged since the last line.
  bool count_refusal(const std::string& host, Limit limit, TimeUs now_us, std::uint64_t& suppressed,
                     std::uint64_t times = 1);
  // Counts a refusal that is not one address's doing (the server is full, an idle room was closed).
  void count(Limit limit) { ++refused_[static_cast<std::size_t>(limit)]; }

  [[nodiscard]] std::size_t connections(const std::string& host) const;
  [[nodiscard]] std::size_t pending(const std::string& host) const;
  [[nodiscard]] std::size_t pending_total() const { return pending_total_; }
  [[nodiscard]] std::size_t address_count() const { return entries_.size(); }
  [[nodiscard]] const std::array<std::uint64_t, kLimitCount>& refused() const { return refused_; }
  [[nodiscard]] const AddressLimits& limits() const { return limits_; }
  [[nodiscard]] bool trusted(const std::string& host) const;

  static constexpr TimeUs kLogEveryUs = 10'000'000;

 private:
  struct Entry {
    std::size_t connections = 0;
    std::size_t pending = 0;
    RateLimiter joins;
    RateLimiter requests;
    RateLimiter bytes;
    RateLimiter share;
    std::int64_t download_budget = 0;  // bytes; may go below zero (a download larger than what was left)
    TimeUs download_refilled_us = 0;
    TimeUs last_seen_us = 0;
    TimeUs next_log_us = 0;
    std::uint64_t unlogged = 0;
  };
  Entry& entry(const std::string& host, TimeUs now_us);
  void refill_downloads(Entry& e, TimeUs now_us) const;

  AddressLimits limits_;
  std::map<std::string, Entry> entries_;
  std::size_t pending_total_ = 0;
  std::array<std::uint64_t, kLimitCount> refused_{};
};

}  // namespace sr::server
