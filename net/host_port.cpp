#include "net/host_port.h"

#include <algorithm>
#include <charconv>

namespace sr::net {

std::optional<HostPort> split_host_port(std::string_view text, std::uint16_t default_port) {
  std::string_view host = text;
  std::string_view port;
  bool has_port = false;
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = text.substr(1, close - 1);
    const auto rest = text.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') return std::nullopt;
      port = rest.substr(1);
      has_port = true;
    }
  } else if (std::count(text.begin(), text.end(), ':') == 1) {
    const auto colon = text.find(':');
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
    has_port = true;
  }  // else a name, an IPv4 address or a bare IPv6 address: no port
  if (host.empty()) return std::nullopt;
  HostPort out{std::string(host), default_port};
  if (has_port) {
    unsigned value = 0;
    const char* end = port.data() + port.size();
    const auto [stop, ec] = std::from_chars(port.data(), end, value);
    if (port.empty() || ec != std::errc() || stop != end || value == 0 || value > 65535) return std::nullopt;
    out.port = static_cast<std::uint16_t>(value);
  }
  return out;
}

}  // namespace sr::net
