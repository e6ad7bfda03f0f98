// The body of `POST /api/register` (common/protocol/DIRECTORY.md, "3. The directory's HTTP API (`stackrace-hub`)"),
// parsed with RapidJSON and checked: port, an optional token and secret, and the info.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"
#include "hub/server_info.h"

namespace sr::hub {

inline constexpr std::size_t kMaxBodyBytes = 8 * 1024;  // a request body, DIRECTORY.md section 3
inline constexpr std::size_t kTokenHexDigits = 32;      // tokens and secrets: 128 bits as lower-case hex

struct Registration {
  std::uint16_t port = 0;  // 1..65535: the game port, at the request's source address
  std::string token;       // empty, or kTokenHexDigits lower-case hex digits (the hub challenge's)
  std::string secret;      // empty, or kTokenHexDigits lower-case hex digits (from an earlier 200 answer)
  ServerInfo info;
  bool operator==(const Registration&) const = default;
};

// True for exactly kTokenHexDigits characters of 0-9a-f.
[[nodiscard]] bool is_token(std::string_view text);

// Parses and checks a registration body (UTF-8 JSON of at most kMaxBodyBytes).
// # Errors
// A sentence for the 400 answer naming what is wrong: "the body is not JSON (...) at byte 12", "port must be
// 1..65535", "token must be 32 lower-case hex digits", or parse_info's sentence.
[[nodiscard]] sr::Result<Registration, std::string> parse_registration(std::string_view body);

}  // namespace sr::hub
