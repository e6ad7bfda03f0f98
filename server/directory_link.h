// What the game loop and a registration agent (server/directory_agent.h) share about one directory
// (common/protocol/DIRECTORY.md, section 3, the directory's HTTP API): the addresses its host name resolves to, the
// latest hub challenge token it sent, and the server's info JSON to register with. Thread-safe; every call holds a
// mutex only for a copy. Times are steady-clock microseconds (NetHost::steady_now_us), passed in.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace sr::server {

// An IP address as 16 bytes: IPv6, or IPv4 mapped (::ffff:a.b.c.d), so both compare and key alike.
using IpAddress = std::array<std::uint8_t, 16>;
[[nodiscard]] IpAddress ipv4_address(std::uint32_t network_order);
// "a.b.c.d" for a mapped IPv4 address, else the IPv6 text.
[[nodiscard]] std::string ip_text(const IpAddress& address);

class DirectoryLink {
 public:
  // A token is kept this long after it arrived (DIRECTORY.md: the challenge lapses after 10 s anyway).
  static constexpr std::int64_t kTokenKeptUs = 60'000'000;

  // Agent: the addresses challenges may come from (the directory host's, resolved by the agent).
  void set_directory_addresses(std::vector<IpAddress> addresses);
  // Loop: a challenge token from `from`. Kept (replacing any earlier one) only if `from` is one of the directory's
  // addresses; true if kept.
  bool offer_token(const IpAddress& from, const std::string& token, std::int64_t now_us);
  // Agent: the latest token if it arrived within kTokenKeptUs of `now_us`, and forgets it (a token is used once).
  [[nodiscard]] std::optional<std::string> take_token(std::int64_t now_us);

  // Loop: the info JSON as of now. Agent: the latest one (empty before the first).
  void publish_info(std::string info_json);
  [[nodiscard]] std::string info() const;

 private:
  mutable std::mutex mutex_;
  std::vector<IpAddress> addresses_;
  std::optional<std::string> token_;
  std::int64_t token_at_us_ = 0;
  std::string info_;
};

}  // namespace sr::server
