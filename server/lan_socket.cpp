#include "server/lan_socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <unistd.h>

#include <cstring>

namespace sr::server {
namespace {

int open_socket(int family) {
  const int fd = ::socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int on = 1;
  (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  return fd;
}

// The IPv6 socket: [::]:port, IPv6 only (the IPv4 socket has the same port), joined to ff02::1 on every interface
// that will have it. -1 where IPv6 is not available.
int open_ipv6(std::uint16_t port) {
  const int fd = open_socket(AF_INET6);
  if (fd < 0) return -1;
  const int on = 1;
  (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
  sockaddr_in6 address{};
  address.sin6_family = AF_INET6;
  address.sin6_addr = in6addr_any;
  address.sin6_port = htons(port);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return -1;
  }
  if (struct if_nameindex* interfaces = if_nameindex(); interfaces != nullptr) {
    for (const struct if_nameindex* i = interfaces; i->if_index != 0; ++i) {
      ipv6_mreq group{};
      (void)inet_pton(AF_INET6, "ff02::1", &group.ipv6mr_multiaddr);
      group.ipv6mr_interface = i->if_index;
      // Fails where the interface has no IPv6, or is already in the group: either way nothing to do.
      (void)setsockopt(fd, IPPROTO_IPV6, IPV6_JOIN_GROUP, &group, sizeof group);
    }
    if_freenameindex(interfaces);
  }
  return fd;
}

}  // namespace

LanSocket::~LanSocket() { close(); }

void LanSocket::close() {
  if (v4_ >= 0) ::close(v4_);
  if (v6_ >= 0) ::close(v6_);
  v4_ = v6_ = -1;
}

sr::Status<std::string> LanSocket::open(std::uint16_t port) {
  close();
  v4_ = open_socket(AF_INET);
  if (v4_ < 0) return std::string("cannot open a UDP socket: ") + std::strerror(errno);
  const int on = 1;
  (void)setsockopt(v4_, SOL_SOCKET, SO_BROADCAST, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = htons(port);
  if (::bind(v4_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    const std::string why = std::strerror(errno);
    close();
    return "cannot listen on the LAN discovery port " + std::to_string(port) + ": " + why;
  }
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  port_ = getsockname(v4_, reinterpret_cast<sockaddr*>(&bound), &length) == 0 ? ntohs(bound.sin_port) : port;
  v6_ = open_ipv6(port_);
  return {};
}

std::optional<LanSocket::Datagram> LanSocket::receive(std::span<std::uint8_t> buffer) {
  for (int fd : {v4_, v6_}) {
    if (fd < 0) continue;
    Datagram d;
    d.from_length = sizeof d.from;
    const ssize_t got =
        ::recvfrom(fd, buffer.data(), buffer.size(), MSG_TRUNC, reinterpret_cast<sockaddr*>(&d.from), &d.from_length);
    if (got < 0) continue;  // EAGAIN: nothing waits; anything else: nothing to read either
    // MSG_TRUNC: the datagram's real length, so a long one is not mistaken for one of the buffer's size.
    d.bytes = static_cast<std::size_t>(got);
    if (d.from.ss_family == AF_INET) {
      d.address = ipv4_address(reinterpret_cast<const sockaddr_in*>(&d.from)->sin_addr.s_addr);
    } else if (d.from.ss_family == AF_INET6) {
      std::memcpy(d.address.data(), &reinterpret_cast<const sockaddr_in6*>(&d.from)->sin6_addr, 16);
    }
    return d;
  }
  return std::nullopt;
}

void LanSocket::reply(const Datagram& to, std::span<const std::uint8_t> bytes) {
  const int fd = to.from.ss_family == AF_INET6 ? v6_ : v4_;
  if (fd < 0) return;
  (void)::sendto(fd, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&to.from), to.from_length);
}

}  // namespace sr::server
