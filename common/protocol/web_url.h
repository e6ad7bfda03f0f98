// Web addresses of a server's pages: the form `Welcome.web_url` must have (PROTOCOL.md, "Text", rule kWebUrlText),
// and the parts a client needs to fetch from one. Pure string work, no sockets.
//
// A web URL is `http://` or `https://` (lower case), a host, an optional `:port`, and an optional path:
//   - host: a name or IPv4 address of letters, digits, '.' and '-' (1..253 bytes, not starting or ending with '.'
//     or '-'), or an IPv6 address in brackets (hex digits, ':' and '.');
//   - port: 1..65535 in decimal, at most 5 digits (default 80 for http, 443 for https);
//   - path: empty or starting with '/', of RFC 3986 path characters (letters, digits, `-._~!$&'()*+,;=:@/` and `%`
//     followed by two hex digits); no query (`?`), no fragment (`#`), no user info (`@` before the host).
// At most kMaxWebUrlBytes (200, messages.h) bytes. Anything else is refused with a sentence naming what is wrong.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/protocol/messages.h"
#include "common/result.h"

namespace sr::protocol {

struct WebUrl {
  bool https = false;
  std::string host;        // as written (an IPv6 address without its brackets)
  std::uint16_t port = 0;  // 1..65535: the explicit port or the scheme's default
  std::string path;        // "" or "/..." as written
  bool operator==(const WebUrl&) const = default;
};

// Parses `text` as above. The URL, or why it is not one ("it does not start with http:// or https://").
[[nodiscard]] sr::Result<WebUrl, std::string> parse_web_url(std::string_view text);

// "http://host:port/path" again: the port only when it is not the scheme's default, an IPv6 host in brackets.
[[nodiscard]] std::string to_string(const WebUrl& url);

}  // namespace sr::protocol
