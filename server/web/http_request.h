// One HTTP/1.x request head, parsed from bytes a browser (or anyone) sent: the web pages' server reads nothing else
// (it takes no request bodies). Pure: no sockets, no clock; tests/web_server/http_request_test.cpp feeds it hostile
// bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sr::server::web {

inline constexpr std::size_t kMaxHeadBytes = 8192;  // request line and headers together
inline constexpr std::size_t kMaxHeaders = 64;

struct HttpRequest {
  std::string method;     // as sent ("GET"); methods are case-sensitive
  std::string target;     // the request target as sent ("/games?mode=sprint")
  std::string path;       // the target's path, percent-decoded ("/games"); never holds "..", NUL or a backslash
  std::string query;      // the raw query after '?' (not decoded), "" when none
  int version_minor = 1;  // HTTP/1.0 or HTTP/1.1
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed
  bool keep_alive = true;                                    // HTTP/1.1 without "Connection: close"; HTTP/1.0 never

  // The first header of that (lower-case) name, or nullopt.
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
};

enum class ParseStatus : std::uint8_t {
  kIncomplete,  // no blank line yet: read more (the head is not over kMaxHeadBytes yet)
  kDone,        // a request; `consumed` bytes were its head
  kBad,         // not HTTP, or a head this server does not take (error says why; answer 400 and close)
  kTooLarge,    // the head is over kMaxHeadBytes, or has more than kMaxHeaders headers (431 and close)
  kHasBody,     // a request with a body (Content-Length > 0 or Transfer-Encoding): 413 and close
};

struct ParseResult {
  ParseStatus status = ParseStatus::kIncomplete;
  std::size_t consumed = 0;
  std::string error;
};

// Parses the request head at the start of `bytes`.
[[nodiscard]] ParseResult parse_request(std::string_view bytes, HttpRequest& out);

// Percent-decodes `text` ('+' stays '+'; with `plus_is_space`, as in a query, it becomes a space). nullopt for a bad
// escape ("%zz", a '%' at the end) or a decoded NUL.
[[nodiscard]] std::optional<std::string> percent_decode(std::string_view text, bool plus_is_space = false);

// The query's parameters, decoded, in order ("a=1&b=x%20y" -> {a, 1}, {b, x y}); a parameter without '=' has an
// empty value. nullopt when an escape is bad.
[[nodiscard]] std::optional<std::vector<std::pair<std::string, std::string>>> parse_query(std::string_view query);

}  // namespace sr::server::web
