#include "client/lobby/server_browser.h"

#include <algorithm>
#include <tuple>

namespace sr::client {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

bool contains(std::string_view hay, const std::string& needle_lower) {
  return lower(hay).find(needle_lower) != std::string::npos;
}

bool matches(const BrowserEntry& e, const std::string& needle) {
  if (needle.empty()) return true;
  if (contains(e.shown_name(), needle) || contains(e.address(), needle)) return true;
  if (!e.facts) return false;
  if (contains(e.modes(), needle)) return true;
  return std::any_of(e.facts->rooms.begin(), e.facts->rooms.end(),
                     [&](const net::InfoRoom& r) { return contains(r.name, needle); });
}

// The row's key for a column: (unknown, value) so that unknown values sort last both ways.
struct SortKey {
  bool unknown = false;
  double number = 0;
  std::string text;
};

SortKey key_of(const BrowserEntry& e, BrowserColumn c) {
  const bool known = e.facts.has_value();
  switch (c) {
    case BrowserColumn::kName: return {false, 0, lower(e.shown_name())};
    case BrowserColumn::kPlayers: return {!known, known ? static_cast<double>(e.facts->players) : 0.0, {}};
    case BrowserColumn::kRooms: return {!known, known ? static_cast<double>(e.facts->rooms.size()) : 0.0, {}};
    case BrowserColumn::kModes: return {!known, 0, known ? e.modes() : std::string()};
    case BrowserColumn::kPing: return {!e.ping_ms, e.ping_ms.value_or(0), {}};
    case BrowserColumn::kVersion:
      return {!known, known ? static_cast<double>(e.facts->protocol) : 0.0, known ? e.facts->version : ""};
    case BrowserColumn::kAddress: return {false, 0, e.address()};
  }
  return {};
}

}  // namespace

std::string BrowserEntry::address() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string BrowserEntry::shown_name() const {
  if (facts && !facts->name.empty()) return facts->name;
  if (!saved_name.empty()) return saved_name;
  return address();
}

std::string BrowserEntry::modes() const {
  std::vector<std::string> seen;
  if (facts) {
    for (const auto& r : facts->rooms) {
      if (std::find(seen.begin(), seen.end(), r.mode) == seen.end()) seen.push_back(r.mode);
    }
  }
  std::string out;
  for (const auto& m : seen) out += (out.empty() ? "" : ", ") + m;
  return out;
}

std::string BrowserEntry::cannot_join(std::uint32_t our_protocol) const {
  if (!facts || facts->protocol == our_protocol) return "";
  return "version " + std::to_string(facts->protocol) + "; this game speaks " + std::to_string(our_protocol);
}

BrowserEntry& ServerBrowser::at(const std::string& host, std::uint16_t port) {
  for (auto& e : entries_) {
    if (e.port == port && lower(e.host) == lower(host)) return e;
  }
  BrowserEntry& e = entries_.emplace_back();
  e.host = host;
  e.port = port;
  return e;
}

void ServerBrowser::listed(const std::string& host, std::uint16_t port, const net::ServerInfo& facts) {
  BrowserEntry& e = at(host, port);
  e.listed = true;
  if (!e.ping_ms) e.facts = facts;  // an answer (it has a ping) is fresher than any listing
}

void ServerBrowser::answered(const std::string& host, std::uint16_t port, const net::ServerInfo& facts, double ping_ms,
                             bool on_lan) {
  BrowserEntry& e = at(host, port);
  e.facts = facts;
  e.ping_ms = e.ping_ms ? std::min(*e.ping_ms, ping_ms) : ping_ms;
  e.on_lan = e.on_lan || on_lan;
}

void ServerBrowser::mark_saved(const std::vector<std::pair<std::string, std::string>>& saved_name_and_address,
                               const std::vector<std::string>& recent, std::uint16_t default_port) {
  for (auto& e : entries_) {
    e.favourite = false;
    e.recent = false;
    e.saved_name.clear();
  }
  for (const auto& [name, address] : saved_name_and_address) {
    if (auto hp = net::split_host_port(address, default_port)) {
      BrowserEntry& e = at(hp->host, hp->port);
      e.favourite = true;
      e.saved_name = name;
    }
  }
  for (const auto& address : recent) {
    if (auto hp = net::split_host_port(address, default_port)) at(hp->host, hp->port).recent = true;
  }
}

void ServerBrowser::clear_answers() {
  std::erase_if(entries_, [](const BrowserEntry& e) { return !e.favourite && !e.recent; });
  for (auto& e : entries_) {
    e.facts.reset();
    e.ping_ms.reset();
    e.listed = false;
    e.on_lan = false;
  }
}

std::vector<const BrowserEntry*> ServerBrowser::rows(const BrowserView& view) const {
  const std::string needle = lower(view.filter);
  std::vector<const BrowserEntry*> out;
  for (const auto& e : entries_) {
    if (view.has_players && (!e.facts || e.facts->players == 0)) continue;
    if (view.saved_only && !e.favourite && !e.recent) continue;
    if (!matches(e, needle)) continue;
    out.push_back(&e);
  }
  std::stable_sort(out.begin(), out.end(), [&](const BrowserEntry* a, const BrowserEntry* b) {
    const SortKey ka = key_of(*a, view.sort);
    const SortKey kb = key_of(*b, view.sort);
    if (ka.unknown != kb.unknown) return kb.unknown;
    if (view.descending) return std::tie(kb.number, kb.text) < std::tie(ka.number, ka.text);
    return std::tie(ka.number, ka.text) < std::tie(kb.number, kb.text);
  });
  return out;
}

}  // namespace sr::client
