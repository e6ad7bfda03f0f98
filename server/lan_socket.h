// The LAN discovery port (common/protocol/DIRECTORY.md, "2. LAN discovery (UDP broadcast and IPv6 multicast)"): UDP
// sockets on IPv4 (broadcasts) and, where IPv6 is up, IPv6 (the link-local all-nodes group ff02::1), both with
// SO_REUSEADDR so several servers on one machine hear a probe. Non-blocking: the game loop reads what waits on each
// pass (Server::step) and never waits here.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "common/result.h"
#include "server/directory_link.h"

namespace sr::server {

class LanSocket {
 public:
  LanSocket() = default;
  ~LanSocket();
  LanSocket(const LanSocket&) = delete;
  LanSocket& operator=(const LanSocket&) = delete;

  // Binds `port` on IPv4 (required) and IPv6 (best effort: failing to is not an error). Ok, or an error sentence.
  [[nodiscard]] sr::Status<std::string> open(std::uint16_t port);
  [[nodiscard]] bool is_open() const { return v4_ >= 0; }
  [[nodiscard]] bool has_ipv6() const { return v6_ >= 0; }
  [[nodiscard]] std::uint16_t port() const { return port_; }

  struct Datagram {
    std::size_t bytes = 0;  // received into the caller's buffer (truncated to its size)
    sockaddr_storage from{};
    socklen_t from_length = 0;
    IpAddress address{};  // `from`'s address as 16 bytes
  };
  // One datagram that waits on either socket, nullopt when none does. Never blocks. `bytes` is the datagram's real
  // length: more than the buffer holds when it was longer (and cut).
  [[nodiscard]] std::optional<Datagram> receive(std::span<std::uint8_t> buffer);
  // Sends `bytes` back to a datagram's sender, on the socket it came in on. Failures are ignored (UDP).
  void reply(const Datagram& to, std::span<const std::uint8_t> bytes);

  void close();

 private:
  int v4_ = -1;
  int v6_ = -1;
  std::uint16_t port_ = 0;
};

}  // namespace sr::server
