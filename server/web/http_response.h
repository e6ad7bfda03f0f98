// What the web pages' server answers: a status, headers, and a body that is a shared string (the site's files, live
// frames, built JSON) or an open file (replay downloads, sent with sendfile). Every response carries the same
// security headers (security_headers()): a Content-Security-Policy that allows no inline script, no framing, no
// sniffing of types.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sr::server::web {

// The Content-Security-Policy of every response: scripts, styles, images and connections from this server only, no
// inline script or style, no plugins, no framing; WebAssembly may be compiled ('wasm-unsafe-eval': the engine).
inline constexpr const char* kContentSecurityPolicy =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

struct HttpResponse {
  int status = 200;
  std::string content_type;
  std::shared_ptr<const std::string> body;                   // null: no body (or the file below)
  std::vector<std::pair<std::string, std::string>> headers;  // beside the ones every response gets
  int file_fd = -1;              // a file sent as the body instead (owned: closed once sent)
  std::uint64_t file_bytes = 0;  // its size
  bool close = false;            // close the connection once sent
  bool stream = false;           // an event stream: no Content-Length, the connection stays for it

  HttpResponse() = default;
  HttpResponse(const HttpResponse&) = delete;
  HttpResponse& operator=(const HttpResponse&) = delete;
  HttpResponse(HttpResponse&& other) noexcept;
  HttpResponse& operator=(HttpResponse&& other) noexcept;
  ~HttpResponse();

  [[nodiscard]] std::uint64_t body_bytes() const { return file_fd >= 0 ? file_bytes : body ? body->size() : 0; }
};

// "OK", "Not Found", ...
[[nodiscard]] const char* status_reason(int status);

// The head of `response` ("HTTP/1.1 200 OK\r\n...\r\n\r\n"), with Content-Length (unless a stream), Connection and
// the security headers.
[[nodiscard]] std::string response_head(const HttpResponse& response, bool keep_alive);

[[nodiscard]] HttpResponse text_response(int status, std::string text);
[[nodiscard]] HttpResponse json_response(std::string json, int status = 200);
// {"error": message} with that status: how the API refuses.
[[nodiscard]] HttpResponse json_error(int status, const std::string& message);

}  // namespace sr::server::web
