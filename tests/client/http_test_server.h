// A one-answer-per-connection HTTP server on 127.0.0.1 for the client's HTTP tests: it reads each request's head,
// keeps it, and writes the bytes it was given (any bytes: broken answers are the point), then closes the connection,
// or holds it open, saying nothing more, until the server is destroyed (for timeouts).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sr::test {

class HttpTestServer {
 public:
  // `answer`: the bytes sent back after the request's head; `hold_open`: keep the connection open after them.
  explicit HttpTestServer(std::string answer, bool hold_open = false)
      : answer_(std::move(answer)), hold_open_(hold_open) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0) return;
    socklen_t len = sizeof a;
    if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) return;
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~HttpTestServer() {
    ::shutdown(fd_, SHUT_RDWR);  // ends accept()
    {
      std::lock_guard lock(mutex_);
      for (int c : held_) ::shutdown(c, SHUT_RDWR);
    }
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
    for (int c : held_) ::close(c);
  }
  HttpTestServer(const HttpTestServer&) = delete;
  HttpTestServer& operator=(const HttpTestServer&) = delete;

  [[nodiscard]] std::uint16_t port() const { return port_; }
  // The request heads received so far.
  [[nodiscard]] std::vector<std::string> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  void serve() {
    for (;;) {
      const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) return;
      std::string head;
      char buf[4096];
      while (head.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0) break;
        head.append(buf, static_cast<std::size_t>(n));
      }
      {
        std::lock_guard lock(mutex_);
        requests_.push_back(head);
      }
      std::size_t sent = 0;
      while (sent < answer_.size()) {
        const ssize_t n = ::send(c, answer_.data() + sent, answer_.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<std::size_t>(n);
      }
      if (hold_open_) {
        std::lock_guard lock(mutex_);
        held_.push_back(c);
      } else {
        ::close(c);
      }
    }
  }

  std::string answer_;
  bool hold_open_ = false;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<std::string> requests_;
  std::vector<int> held_;
};

}  // namespace sr::test
