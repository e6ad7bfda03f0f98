#include "hub/registry.h"

#include <sodium.h>

#include <array>
#include <cassert>
#include <limits>

#include "web/wasm/json_writer.h"

namespace sr::hub {
namespace {

// How often expire() runs from inside register_server(); lookups drop a stale entry of their own key at once.
constexpr std::int64_t kSweepEveryMs = 1000;

std::string error_body(const std::string& sentence) {
  web::JsonWriter w(true);
  w.begin_object().key("error").value(sentence).end_object();
  return w.text();
}

// Compares two tokens in time that does not depend on where they differ.
bool same_token(const std::string& a, const std::string& b) {
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

const char* outcome_name(Outcome outcome) {
  switch (outcome) {
    case Outcome::kListed: return "listed";
    case Outcome::kRenewed: return "renewed";
    case Outcome::kChallenged: return "challenged";
    case Outcome::kBadRequest: return "bad_request";
    case Outcome::kWrongToken: return "wrong_token";
    case Outcome::kWrongSecret: return "wrong_secret";
    case Outcome::kRateLimited: return "rate_limited";
    case Outcome::kAddressServers: return "address_servers";
    case Outcome::kAddressChallenges: return "address_challenges";
    case Outcome::kFull: return "full";
  }
  return "unknown";
}

bool is_refusal(Outcome outcome) { return static_cast<int>(outcome) >= static_cast<int>(Outcome::kBadRequest); }

std::string random_token() {
  std::array<unsigned char, kTokenHexDigits / 2> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  std::array<char, kTokenHexDigits + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), bytes.data(), bytes.size());
  return std::string(hex.data(), kTokenHexDigits);
}

Registry::Registry(HubLimits limits, TokenSource tokens)
    : limits_(limits),
      tokens_(std::move(tokens)),
      rate_(limits.registrations_per_second, limits.registration_burst, limits.rate_table_addresses),
      swept_ms_(std::numeric_limits<std::int64_t>::min()) {}

RegisterAnswer Registry::answer(RegisterAnswer& a, Outcome outcome, std::string body) {
  a.outcome = outcome;
  switch (outcome) {
    case Outcome::kListed:
    case Outcome::kRenewed: a.http_status = 200; break;
    case Outcome::kChallenged: a.http_status = 202; break;
    case Outcome::kBadRequest: a.http_status = 400; break;
    case Outcome::kWrongToken:
    case Outcome::kWrongSecret: a.http_status = 403; break;
    case Outcome::kRateLimited:
    case Outcome::kAddressServers:
    case Outcome::kAddressChallenges: a.http_status = 429; break;
    case Outcome::kFull: a.http_status = 503; break;
  }
  a.body = std::move(body);
  ++counts_[static_cast<int>(outcome)];
  return std::move(a);
}

RegisterAnswer Registry::refuse(RegisterAnswer& a, Outcome outcome, const std::string& sentence) {
  a.challenge_token.clear();
  return answer(a, outcome, error_body(sentence));
}

std::string Registry::listed_body(const std::string& secret) const {
  web::JsonWriter w(true);
  w.begin_object();
  w.key("status").value("listed");
  w.key("secret").value(secret);
  w.key("every_s").value(limits_.every_s);
  w.key("expires_s").value(limits_.expire_ms / 1000);
  w.end_object();
  return w.text();
}

void Registry::drop_server(std::map<Key, Server>::iterator it) {
  const auto g = groups_.find(address_group(it->first.address));
  assert(g != groups_.end() && g->second.servers > 0);
  --g->second.servers;
  if (g->second.servers == 0 && g->second.challenges == 0) groups_.erase(g);
  servers_.erase(it);
}

void Registry::drop_challenge(std::map<Key, Challenge>::iterator it) {
  const auto g = groups_.find(address_group(it->first.address));
  assert(g != groups_.end() && g->second.challenges > 0);
  --g->second.challenges;
  if (g->second.servers == 0 && g->second.challenges == 0) groups_.erase(g);
  challenges_.erase(it);
}

void Registry::drop_if_stale(const Key& key, std::int64_t now_ms) {
  if (const auto s = servers_.find(key); s != servers_.end() && now_ms - s->second.seen_ms >= limits_.expire_ms) {
    drop_server(s);
  }
  if (const auto c = challenges_.find(key);
      c != challenges_.end() && now_ms - c->second.created_ms >= limits_.challenge_ms) {
    drop_challenge(c);
  }
}

void Registry::expire(std::int64_t now_ms) {
  swept_ms_ = now_ms;
  for (auto it = servers_.begin(); it != servers_.end();) {
    const auto next = std::next(it);
    if (now_ms - it->second.seen_ms >= limits_.expire_ms) drop_server(it);
    it = next;
  }
  for (auto it = challenges_.begin(); it != challenges_.end();) {
    const auto next = std::next(it);
    if (now_ms - it->second.created_ms >= limits_.challenge_ms) drop_challenge(it);
    it = next;
  }
}

RegisterAnswer Registry::register_server(const std::string& remote_address, std::string_view body,
                                         std::int64_t now_ms) {
  RegisterAnswer a;
  a.address = canonical_address(remote_address);
  const std::string group = address_group(a.address);
  if (!rate_.allow(group, now_ms)) {
    return refuse(a, Outcome::kRateLimited,
                  "too many registrations from " + group + ": at most " +
                      std::to_string(limits_.registrations_per_second) + " a second");
  }
  auto parsed = parse_registration(body);
  if (!parsed) return refuse(a, Outcome::kBadRequest, parsed.error());
  Registration r = std::move(parsed).value();
  a.port = r.port;

  if (swept_ms_ == std::numeric_limits<std::int64_t>::min() || now_ms - swept_ms_ >= kSweepEveryMs) expire(now_ms);
  const Key key{a.address, r.port};
  drop_if_stale(key, now_ms);
  const auto server = servers_.find(key);
  const auto challenge = challenges_.find(key);

  // A renewal. A secret for an entry that is gone (expired) starts over with a challenge, as DIRECTORY.md says.
  if (!r.secret.empty() && server != servers_.end()) {
    if (!same_token(r.secret, server->second.secret)) {
      return refuse(a, Outcome::kWrongSecret,
                    "the secret does not match this server's listing; register without it to be challenged again");
    }
    server->second.info = std::move(r.info);
    server->second.seen_ms = now_ms;
    return answer(a, Outcome::kRenewed, listed_body(server->second.secret));
  }

  // The answer to a challenge. A token whose challenge has lapsed gets a new challenge below.
  if (!r.token.empty() && challenge != challenges_.end()) {
    if (!same_token(r.token, challenge->second.token)) {
      return refuse(a, Outcome::kWrongToken,
                    "the token is not the one the directory sent to " + a.address + ":" + std::to_string(r.port));
    }
    if (server == servers_.end()) {
      if (groups_[group].servers >= limits_.servers_per_address) {
        return refuse(a, Outcome::kAddressServers,
                      group + " has " + std::to_string(limits_.servers_per_address) + " servers listed, the most");
      }
      if (servers_.size() >= limits_.max_servers) {
        return refuse(a, Outcome::kFull, "the directory is full; try again later");
      }
    }
    drop_challenge(challenge);
    Server& s = servers_[key];
    if (s.secret.empty()) ++groups_[group].servers;  // a new entry (an old one keeps its count)
    s.info = std::move(r.info);
    s.secret = tokens_();
    s.seen_ms = now_ms;
    return answer(a, Outcome::kListed, listed_body(s.secret));
  }

  // A challenge: the open one again (the same token, sent again), or a new one if the caps allow.
  if (challenge == challenges_.end()) {
    GroupCounts& counts = groups_[group];
    const bool listed = server != servers_.end();
    std::string refusal;
    Outcome outcome = Outcome::kChallenged;
    if (!listed && counts.servers >= limits_.servers_per_address) {
      outcome = Outcome::kAddressServers;
      refusal = group + " has " + std::to_string(limits_.servers_per_address) + " servers listed, the most";
    } else if (counts.challenges >= limits_.challenges_per_address) {
      outcome = Outcome::kAddressChallenges;
      refusal = group + " has " + std::to_string(limits_.challenges_per_address) + " challenges open, the most";
    } else if ((!listed && servers_.size() >= limits_.max_servers) || challenges_.size() >= limits_.max_challenges) {
      outcome = Outcome::kFull;
      refusal = "the directory is full; try again later";
    }
    if (outcome != Outcome::kChallenged) {
      if (counts.servers == 0 && counts.challenges == 0) groups_.erase(group);
      return refuse(a, outcome, refusal);
    }
    ++counts.challenges;
    challenges_[key] = Challenge{tokens_(), now_ms};
  }
  a.challenge_token = challenges_[key].token;
  web::JsonWriter w(true);
  w.begin_object().key("status").value("challenge").key("retry_ms").value(500).end_object();
  return answer(a, Outcome::kChallenged, w.text());
}

std::vector<ListedServer> Registry::listed(std::int64_t now_ms) const {
  std::vector<ListedServer> out;
  out.reserve(servers_.size());
  for (const auto& [key, s] : servers_) {
    if (now_ms - s.seen_ms >= limits_.expire_ms) continue;
    out.push_back(ListedServer{key.address, key.port, s.info, std::max<std::int64_t>(0, now_ms - s.seen_ms) / 1000});
  }
  return out;
}

}  // namespace sr::hub
