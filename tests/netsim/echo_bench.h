// The two ends of a proxy test, on the test's thread: client sockets that send through the proxy, and an echo server
// that sends every datagram back to where it came from and notes that source port. Waiting is poll() on the sockets
// with a deadline (docs/CONVENTIONS.md, "Tests"), never a sleep.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sr::test {

using Bytes = std::vector<std::uint8_t>;

// A non-blocking UDP socket bound to 127.0.0.1 on a free port.
class LoopbackSocket {
 public:
  LoopbackSocket() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) {
    if (fd_ < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
    sockaddr_in a = address(0);
    socklen_t length = sizeof a;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &length) < 0) {
      ::close(fd_);
      throw std::runtime_error(std::string("bind: ") + std::strerror(errno));
    }
    port_ = ntohs(a.sin_port);
  }
  ~LoopbackSocket() { ::close(fd_); }
  LoopbackSocket(const LoopbackSocket&) = delete;
  LoopbackSocket& operator=(const LoopbackSocket&) = delete;

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] std::uint16_t port() const { return port_; }

  // False when the kernel refused it (loopback does not, unless its buffer is full).
  bool send_to(std::uint16_t port, const Bytes& bytes) const {
    const sockaddr_in to = address(port);
    return ::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to) >= 0;
  }

  struct Datagram {
    Bytes bytes;
    std::uint16_t from_port = 0;
  };
  // One waiting datagram, or nullopt when none waits.
  [[nodiscard]] std::optional<Datagram> receive() const {
    Bytes buffer(65'536);
    sockaddr_in from{};
    socklen_t length = sizeof from;
    const ssize_t got = ::recvfrom(fd_, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &length);
    if (got < 0) return std::nullopt;
    buffer.resize(static_cast<std::size_t>(got));
    return Datagram{std::move(buffer), ntohs(from.sin_port)};
  }

  static sockaddr_in address(std::uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    return a;
  }

 private:
  int fd_;
  std::uint16_t port_ = 0;
};

// Clients and an echo server. The clients send to a port (the proxy's); the server echoes.
class EchoBench {
 public:
  explicit EchoBench(std::size_t client_count = 1) : clients_(client_count), received_(client_count) {}

  [[nodiscard]] std::uint16_t server_port() const { return server_.port(); }
  [[nodiscard]] const LoopbackSocket& client(std::size_t i = 0) const { return clients_[i]; }
  // What client i got back, in order of arrival.
  [[nodiscard]] const std::vector<Bytes>& received(std::size_t i = 0) const { return received_[i]; }
  // Every datagram the server got, with its source port, in order of arrival.
  [[nodiscard]] const std::vector<LoopbackSocket::Datagram>& server_got() const { return server_got_; }
  [[nodiscard]] std::vector<std::uint16_t> server_saw_ports() const {
    std::vector<std::uint16_t> ports;
    for (const auto& d : server_got_) ports.push_back(d.from_port);
    return ports;
  }

  // One round: waits at most wait_ms for a socket to be readable, then the server echoes all it has and the clients
  // keep all they have.
  void pump(int wait_ms) {
    std::vector<pollfd> fds{pollfd{server_.fd(), POLLIN, 0}};
    for (const auto& c : clients_) fds.push_back(pollfd{c.fd(), POLLIN, 0});
    (void)::poll(fds.data(), fds.size(), wait_ms);
    while (auto d = server_.receive()) {
      (void)server_.send_to(d->from_port, d->bytes);
      server_got_.push_back(std::move(*d));
    }
    for (std::size_t i = 0; i < clients_.size(); ++i) {
      while (auto d = clients_[i].receive()) received_[i].push_back(std::move(d->bytes));
    }
  }

  // Pumps until done() holds or the timeout passes; done()'s last answer.
  bool pump_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      pump(5);
    }
    return true;
  }

 private:
  LoopbackSocket server_;
  std::vector<LoopbackSocket> clients_;
  std::vector<std::vector<Bytes>> received_;
  std::vector<LoopbackSocket::Datagram> server_got_;
};

// A numbered datagram: the number in 4 little-endian bytes, then `extra` bytes that depend on it.
inline Bytes numbered(std::uint32_t n, std::size_t extra = 0) {
  Bytes b{static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n >> 16),
          static_cast<std::uint8_t>(n >> 24)};
  for (std::size_t i = 0; i < extra; ++i) b.push_back(static_cast<std::uint8_t>(n * 31 + i));
  return b;
}

inline std::uint32_t number_of(const Bytes& b) {
  if (b.size() < 4) return 0xffffffffU;
  return static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
         static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24;
}

}  // namespace sr::test
