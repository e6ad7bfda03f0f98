// The directory's registry: which game servers are listed, which are being challenged, and the answer to each
// registration, as common/protocol/DIRECTORY.md section 3 ("The directory's HTTP API (`stackrace-hub`)") describes.
//
// # Flow
// A server at (address, port) that is not listed gets a challenge: a random 128-bit token that the caller sends in a
// hub challenge datagram to address:port (hub_challenge.h), answer 202. The same request with that token lists it
// with a fresh random secret, answer 200; the server renews with the secret. An entry not renewed within
// `expire_ms` is dropped; a challenge lapses after `challenge_ms`.
//
// # Bounds
// Everything the registry holds is capped (HubLimits): listed servers and open challenges per address group
// (address_limiter.h) and in all, and the rate limiter's table. A request over a cap is refused (429 or 503) before
// anything is stored.
//
// # Time
// Every call takes `now_ms` (monotonic milliseconds); the registry reads no clock, so tests drive it with fake time.
// Not thread-safe: the HTTP server calls it under one mutex.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hub/address_limiter.h"
#include "hub/registration.h"
#include "hub/server_info.h"

namespace sr::hub {

struct HubLimits {
  std::size_t servers_per_address = 8;        // listed servers per address group
  std::size_t challenges_per_address = 16;    // open challenges per address group
  std::size_t max_servers = 10'000;           // listed servers in all
  std::size_t max_challenges = 10'000;        // open challenges in all
  std::int64_t registrations_per_second = 5;  // per address group (token bucket) ...
  std::int64_t registration_burst = 10;       // ... of this many
  std::size_t rate_table_addresses = 65'536;  // address groups the rate limiter remembers
  std::int64_t expire_ms = 30'000;            // a listed server not renewed for this long is dropped
  std::int64_t challenge_ms = 10'000;         // an open challenge lapses after this long
  std::int64_t every_s = 10;                  // told to servers: renew every this many seconds
};

// What happened to one registration. Values name metrics (outcome_name): never rename one.
enum class Outcome {
  kListed,             // 200: the token proved the address; listed with a new secret
  kRenewed,            // 200: the secret matched; the info is updated
  kChallenged,         // 202: a challenge datagram is to be sent (RegisterAnswer::challenge_token)
  kBadRequest,         // 400: the body is not a registration
  kWrongToken,         // 403
  kWrongSecret,        // 403
  kRateLimited,        // 429: registrations per second of the address group
  kAddressServers,     // 429: the address group has servers_per_address servers listed
  kAddressChallenges,  // 429: the address group has challenges_per_address challenges open
  kFull,               // 503: max_servers or max_challenges reached
};
inline constexpr int kOutcomeCount = 10;

// "listed", "renewed", "challenged", "bad_request", "wrong_token", "wrong_secret", "rate_limited",
// "address_servers", "address_challenges", "full".
[[nodiscard]] const char* outcome_name(Outcome outcome);
// True for the refusals (kBadRequest and after).
[[nodiscard]] bool is_refusal(Outcome outcome);

struct RegisterAnswer {
  Outcome outcome = Outcome::kBadRequest;
  int http_status = 400;
  std::string body;             // the JSON answer
  std::string address;          // canonical_address() of the request's source
  std::uint16_t port = 0;       // the registration's port (0 if the body did not parse)
  std::string challenge_token;  // kChallenged: the token to send to address:port
};

struct ListedServer {
  std::string address;  // canonical, IPv6 without brackets
  std::uint16_t port = 0;
  ServerInfo info;
  std::int64_t seen_s = 0;  // seconds since its latest registration, rounded down
};

class Registry {
 public:
  // Makes tokens and secrets: 32 lower-case hex digits (random_token(), or a fake in tests).
  using TokenSource = std::function<std::string()>;

  explicit Registry(HubLimits limits, TokenSource tokens);

  // Answers one `POST /api/register` from `address` (httplib's remote_addr) with `body`.
  [[nodiscard]] RegisterAnswer register_server(const std::string& address, std::string_view body, std::int64_t now_ms);

  // Every listed server not yet expired, ordered by address (as text) then port.
  [[nodiscard]] std::vector<ListedServer> listed(std::int64_t now_ms) const;

  // Drops expired entries and lapsed challenges.
  void expire(std::int64_t now_ms);

  [[nodiscard]] std::size_t listed_count() const { return servers_.size(); }
  [[nodiscard]] std::size_t open_challenges() const { return challenges_.size(); }
  // Registrations answered, by outcome (indexed by the enum's value).
  [[nodiscard]] std::uint64_t count(Outcome outcome) const { return counts_[static_cast<int>(outcome)]; }
  [[nodiscard]] const HubLimits& limits() const { return limits_; }

 private:
  struct Key {
    std::string address;
    std::uint16_t port = 0;
    auto operator<=>(const Key&) const = default;
  };
  struct Server {
    ServerInfo info;
    std::string secret;
    std::int64_t seen_ms = 0;
  };
  struct Challenge {
    std::string token;
    std::int64_t created_ms = 0;
  };
  struct GroupCounts {
    std::size_t servers = 0;
    std::size_t challenges = 0;
  };

  // Both fill in `a` and return it (taken by reference, so that arguments may still read it).
  RegisterAnswer answer(RegisterAnswer& a, Outcome outcome, std::string body);
  RegisterAnswer refuse(RegisterAnswer& a, Outcome outcome, const std::string& sentence);
  void drop_server(std::map<Key, Server>::iterator it);
  void drop_challenge(std::map<Key, Challenge>::iterator it);
  void drop_if_stale(const Key& key, std::int64_t now_ms);
  [[nodiscard]] std::string listed_body(const std::string& secret) const;

  HubLimits limits_;
  TokenSource tokens_;
  AddressRateLimiter rate_;
  std::map<Key, Server> servers_;
  std::map<Key, Challenge> challenges_;
  std::map<std::string, GroupCounts> groups_;  // address group -> counts; entries with both 0 are erased
  std::int64_t swept_ms_ = INT64_MIN;
  std::uint64_t counts_[kOutcomeCount] = {};
};

// 128 random bits from libsodium as 32 lower-case hex digits. Precondition: sodium_init() succeeded.
[[nodiscard]] std::string random_token();

}  // namespace sr::hub
