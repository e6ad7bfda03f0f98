// A small HTTP/1.1 client of our own, enough to fetch a replay from a server's web pages (`stackrace LINK`): one GET
// over a plain TCP socket, no TLS, no redirects, no keep-alive. Every answer is hostile input: the whole exchange has
// one deadline, the head and the body are bounded, and anything that is not a well-formed answer is an error that
// says what was wrong. Blocking: call it where waiting up to the timeout is fine (before a window shows, or off the
// frame loop).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/protocol/web_url.h"
#include "common/result.h"

namespace sr::client {

struct HttpGetLimits {
  // The whole exchange: resolving the name, connecting, sending, and reading the answer to its end. (Resolving a
  // name uses the C library's getaddrinfo, which has timeouts of its own.)
  std::chrono::milliseconds timeout{10'000};
  std::size_t max_body_bytes = 4u << 20;  // replays are kilobytes; a larger answer is refused
  static constexpr std::size_t kMaxHeadBytes = 16u << 10;
};

enum class HttpErrorKind : std::uint8_t {
  kUnreachable,  // the name does not resolve, or no address accepts the connection
  kTimeout,      // the deadline passed
  kStatus,       // an answer other than 200 (status says which)
  kTooLarge,     // the body is (or says it is) over max_body_bytes
  kBadResponse,  // not HTTP/1.x, a malformed head or chunk, or the connection closed before the body's end
};

struct HttpError {
  HttpErrorKind kind = HttpErrorKind::kBadResponse;
  int status = 0;       // kStatus: the status code
  std::string message;  // a sentence: "127.0.0.1:8080 answered 404 Not Found"
};

// GETs `url` (https is refused as kUnreachable: not supported). The body of a 200 answer (Content-Length,
// chunked, or up to the close), or the error.
[[nodiscard]] sr::Result<std::vector<std::uint8_t>, HttpError> http_get(const protocol::WebUrl& url,
                                                                        const HttpGetLimits& limits = {});

}  // namespace sr::client
