// "host:port" as players and operators type it, for the game, the bots and the server browser.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sr::net {

struct HostPort {
  std::string host;  // a name or an address; an IPv6 address without its brackets
  std::uint16_t port = 0;
  bool operator==(const HostPort&) const = default;
};

// Splits "host:port", "[v6]:port", or "host" alone (then `default_port`); a bare IPv6 address ("fe80::1", two colons
// or more) has no port. Nullopt when the host is empty or the port is not a whole number in 1..65535.
[[nodiscard]] std::optional<HostPort> split_host_port(std::string_view text, std::uint16_t default_port);

}  // namespace sr::net
