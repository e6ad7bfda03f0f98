#include "client/web/http_get.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>

#include "common/ascii.h"

namespace sr::client {
namespace {

using Clock = std::chrono::steady_clock;

std::string host_port(const protocol::WebUrl& url) {
  const bool v6 = url.host.find(':') != std::string::npos;
  return (v6 ? "[" + url.host + "]" : url.host) + ":" + std::to_string(url.port);
}

std::string size_text(std::size_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

HttpError error(HttpErrorKind kind, std::string message) { return HttpError{kind, 0, std::move(message)}; }

class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(Socket&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  Socket& operator=(Socket&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  [[nodiscard]] int fd() const { return fd_; }

 private:
  int fd_ = -1;
};

// Milliseconds left before `deadline` (0 when passed), for poll().
int left_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 60'000));
}

// The exchange over one connection: reads bytes as the parser asks for them, never past the deadline.
class Exchange {
 public:
  Exchange(int fd, Clock::time_point deadline, std::string where)
      : fd_(fd), deadline_(deadline), where_(std::move(where)) {}

  // Waits for `events` on the socket. False (with error_) on the deadline or a poll failure.
  bool wait(short events) {
    for (;;) {
      pollfd p{fd_, events, 0};
      const int ready = ::poll(&p, 1, left_ms(deadline_));
      if (ready > 0) return true;
      if (ready == 0) {
        error_ = error(HttpErrorKind::kTimeout, where_ + " did not answer in time");
        return false;
      }
      if (errno != EINTR) {
        error_ = error(HttpErrorKind::kUnreachable, where_ + ": " + std::strerror(errno));
        return false;
      }
    }
  }

  bool send_all(std::string_view data) {
    while (!data.empty()) {
      if (!wait(POLLOUT)) return false;
      const ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
        error_ = error(HttpErrorKind::kUnreachable, "cannot send to " + where_ + ": " + std::strerror(errno));
        return false;
      }
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // Reads what arrives into buffer_ (appending). 0 at the end of the stream, -1 on an error (error_ set).
  long read_more() {
    char chunk[16384];
    for (;;) {
      if (!wait(POLLIN)) return -1;
      const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
        error_ = error(HttpErrorKind::kBadResponse, "reading from " + where_ + ": " + std::strerror(errno));
        return -1;
      }
      buffer_.append(chunk, static_cast<std::size_t>(n));
      return static_cast<long>(n);
    }
  }

  std::string buffer_;
  HttpError error_;

 private:
  int fd_;
  Clock::time_point deadline_;
  std::string where_;
};

// A non-blocking connection to one of `host`'s addresses, before the deadline.
sr::Result<Socket, HttpError> connect_to(const protocol::WebUrl& url, Clock::time_point deadline) {
  const std::string where = host_port(url);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(url.port);
  if (const int rc = ::getaddrinfo(url.host.c_str(), port.c_str(), &hints, &found); rc != 0) {
    return error(HttpErrorKind::kUnreachable, "cannot find the host " + url.host + ": " + ::gai_strerror(rc));
  }
  std::string last_problem = "no address";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    Socket s(::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol));
    if (s.fd() < 0) {
      last_problem = std::strerror(errno);
      continue;
    }
    if (::connect(s.fd(), a->ai_addr, a->ai_addrlen) == 0) {
      ::freeaddrinfo(found);
      return s;
    }
    if (errno != EINPROGRESS) {
      last_problem = std::strerror(errno);
      continue;
    }
    pollfd p{s.fd(), POLLOUT, 0};
    const int ready = ::poll(&p, 1, left_ms(deadline));
    if (ready == 0) {
      ::freeaddrinfo(found);
      return error(HttpErrorKind::kTimeout, where + " did not accept the connection in time");
    }
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (ready < 0 || ::getsockopt(s.fd(), SOL_SOCKET, SO_ERROR, &so_error, &len) != 0) so_error = errno;
    if (so_error == 0) {
      ::freeaddrinfo(found);
      return s;
    }
    last_problem = std::strerror(so_error);
  }
  ::freeaddrinfo(found);
  return error(HttpErrorKind::kUnreachable, "cannot connect to " + where + ": " + last_problem);
}

// A decimal number of at most 18 digits, or a hex one of at most 15 (chunk sizes): nullopt otherwise.
std::optional<std::uint64_t> parse_number(std::string_view s, int base) {
  if (s.empty() || s.size() > (base == 10 ? 18u : 15u)) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0) return std::nullopt;
    v = v * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
  }
  return v;
}

struct Head {
  int status = 0;
  std::string reason;
  std::optional<std::uint64_t> content_length;
  bool chunked = false;
};

sr::Result<Head, std::string> parse_head(std::string_view head) {
  Head h;
  const std::size_t line_end = head.find("\r\n");
  const std::string_view status_line = head.substr(0, line_end);
  // "HTTP/1.1 200 OK"
  if (status_line.size() < 12 || (status_line.substr(0, 9) != "HTTP/1.1 " && status_line.substr(0, 9) != "HTTP/1.0 ")) {
    return std::string("the answer is not HTTP/1.x");
  }
  const auto code = parse_number(status_line.substr(9, 3), 10);
  if (!code || *code < 100 || *code > 599 || (status_line.size() > 12 && status_line[12] != ' ')) {
    return std::string("the answer's status line is malformed");
  }
  h.status = static_cast<int>(*code);
  h.reason = std::string(trim_blanks(status_line.substr(std::min<std::size_t>(13, status_line.size()))).substr(0, 60));
  for (char& c : h.reason) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
  }
  std::size_t at = line_end + 2;
  while (at < head.size()) {
    std::size_t end = head.find("\r\n", at);
    if (end == std::string_view::npos) end = head.size();
    const std::string_view line = head.substr(at, end - at);
    at = end + 2;
    if (line.empty()) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return std::string("the answer has a malformed header line");
    const std::string name = ascii_lower(line.substr(0, colon));
    const std::string_view value = trim_blanks(line.substr(colon + 1));
    if (name == "content-length") {
      const auto n = parse_number(value, 10);
      if (!n || (h.content_length && *h.content_length != *n))
        return std::string("the answer's Content-Length is malformed");
      h.content_length = n;
    } else if (name == "transfer-encoding") {
      const std::string v = ascii_lower(value);
      if (v == "chunked") {
        h.chunked = true;
      } else if (v != "identity") {
        return "the answer uses a transfer coding this client does not read (" + std::string(value.substr(0, 40)) + ")";
      }
    }
  }
  return h;
}

}  // namespace

sr::Result<std::vector<std::uint8_t>, HttpError> http_get(const protocol::WebUrl& url, const HttpGetLimits& limits) {
  if (url.https) return error(HttpErrorKind::kUnreachable, "https is not supported, use http://");
  const Clock::time_point deadline = Clock::now() + limits.timeout;
  const std::string where = host_port(url);
  auto connected = connect_to(url, deadline);
  if (!connected) return connected.error();
  Socket socket;
  socket = std::move(connected.value());
  Exchange x(socket.fd(), deadline, where);

  const std::string host_header =
      url.port == 80 ? (url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host) : where;
  const std::string request = "GET " + (url.path.empty() ? std::string("/") : url.path) +
                              " HTTP/1.1\r\nHost: " + host_header +
                              "\r\nUser-Agent: stackrace\r\nAccept: */*\r\nAccept-Encoding: identity\r\nConnection: "
                              "close\r\n\r\n";
  if (!x.send_all(request)) return x.error_;

  // The head.
  std::size_t head_end = std::string::npos;
  while ((head_end = x.buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (x.buffer_.size() > HttpGetLimits::kMaxHeadBytes) {
      return error(HttpErrorKind::kBadResponse,
                   where + " sent a head of over " + size_text(HttpGetLimits::kMaxHeadBytes));
    }
    const long n = x.read_more();
    if (n < 0) return x.error_;
    if (n == 0) {
      return error(HttpErrorKind::kBadResponse,
                   where + " closed the connection " +
                       (x.buffer_.empty() ? "without an answer" : "in the middle of its answer's head"));
    }
  }
  if (head_end > HttpGetLimits::kMaxHeadBytes) {
    return error(HttpErrorKind::kBadResponse,
                 where + " sent a head of over " + size_text(HttpGetLimits::kMaxHeadBytes));
  }
  auto head = parse_head(std::string_view(x.buffer_).substr(0, head_end + 2));
  if (!head) return error(HttpErrorKind::kBadResponse, where + ": " + head.error());
  const Head& h = head.value();
  if (h.status != 200) {
    HttpError e = error(HttpErrorKind::kStatus,
                        where + " answered " + std::to_string(h.status) + (h.reason.empty() ? "" : " " + h.reason));
    e.status = h.status;
    return e;
  }
  std::string rest = x.buffer_.substr(head_end + 4);
  x.buffer_.clear();
  const std::string too_large = "the answer is over " + size_text(limits.max_body_bytes);

  std::vector<std::uint8_t> body;
  if (h.chunked) {
    // chunk = size-in-hex [;ext] CRLF data CRLF ... then 0 CRLF [trailers] CRLF.
    x.buffer_ = std::move(rest);
    std::size_t at = 0;
    auto need = [&](std::size_t bytes) -> bool {  // at least `bytes` after `at`, reading as needed
      while (x.buffer_.size() - at < bytes) {
        const long n = x.read_more();
        if (n <= 0) return false;
      }
      return true;
    };
    auto line = [&](std::string& out) -> bool {  // a CRLF-ended line from `at`
      for (;;) {
        const std::size_t end = x.buffer_.find("\r\n", at);
        if (end != std::string::npos) {
          out = x.buffer_.substr(at, end - at);
          at = end + 2;
          return true;
        }
        if (x.buffer_.size() - at > 1024) return false;
        if (x.read_more() <= 0) return false;
      }
    };
    auto cut_or_error = [&](const char* what) {
      if (x.error_.message.empty()) {
        return error(HttpErrorKind::kBadResponse, where + " closed the connection in the middle of " + what);
      }
      return x.error_;
    };
    for (;;) {
      std::string size_line;
      if (!line(size_line)) {
        return x.error_.message.empty() && x.buffer_.size() - at > 1024
                   ? error(HttpErrorKind::kBadResponse, where + " sent a malformed chunk size")
                   : cut_or_error("a chunk size");
      }
      const auto size = parse_number(trim_blanks(std::string_view(size_line).substr(0, size_line.find(';'))), 16);
      if (!size) return error(HttpErrorKind::kBadResponse, where + " sent a malformed chunk size");
      if (*size == 0) break;
      if (*size > limits.max_body_bytes - body.size()) return error(HttpErrorKind::kTooLarge, too_large);
      if (!need(*size + 2)) return cut_or_error("a chunk");
      body.insert(body.end(), x.buffer_.begin() + static_cast<std::ptrdiff_t>(at),
                  x.buffer_.begin() + static_cast<std::ptrdiff_t>(at + *size));
      at += *size;
      if (x.buffer_.compare(at, 2, "\r\n") != 0) {
        return error(HttpErrorKind::kBadResponse, where + " sent a chunk longer than its size says");
      }
      at += 2;
      if (at > 65536) {  // keep the buffer small
        x.buffer_.erase(0, at);
        at = 0;
      }
    }
    return body;  // trailers, if any, are not needed
  }
  if (h.content_length) {
    if (*h.content_length > limits.max_body_bytes) {
      return error(HttpErrorKind::kTooLarge, too_large + " (Content-Length " + std::to_string(*h.content_length) + ")");
    }
    const std::size_t want = static_cast<std::size_t>(*h.content_length);
    x.buffer_ = std::move(rest);
    while (x.buffer_.size() < want) {
      const long n = x.read_more();
      if (n < 0) return x.error_;
      if (n == 0) {
        return error(HttpErrorKind::kBadResponse, where + " closed the connection after " +
                                                      std::to_string(x.buffer_.size()) + " of " + std::to_string(want) +
                                                      " bytes");
      }
    }
    body.assign(x.buffer_.begin(), x.buffer_.begin() + static_cast<std::ptrdiff_t>(want));
    return body;
  }
  // No length: the body runs to the close.
  x.buffer_ = std::move(rest);
  for (;;) {
    if (x.buffer_.size() > limits.max_body_bytes) return error(HttpErrorKind::kTooLarge, too_large);
    const long n = x.read_more();
    if (n < 0) return x.error_;
    if (n == 0) break;
  }
  body.assign(x.buffer_.begin(), x.buffer_.end());
  return body;
}

}  // namespace sr::client
