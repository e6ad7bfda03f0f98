#include "hub/hub_challenge.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstring>

#include "common/protocol/server_query.h"
#include "hub/registration.h"

namespace sr::hub {

std::vector<std::uint8_t> challenge_datagram(std::string_view token) {
  assert(is_token(token));
  static_assert(kChallengeVersion == protocol::kQueryVersion);
  return protocol::encode_challenge(token);  // common/protocol/server_query.h: the one writer of these bytes
}

ChallengeSender::ChallengeSender() {
  v4_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  v6_ = ::socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (v6_ >= 0) {
    const int only = 1;  // IPv4 goes through v4_
    (void)::setsockopt(v6_, IPPROTO_IPV6, IPV6_V6ONLY, &only, sizeof only);
  }
}

ChallengeSender::~ChallengeSender() {
  if (v4_ >= 0) ::close(v4_);
  if (v6_ >= 0) ::close(v6_);
}

sr::Status<std::string> ChallengeSender::send(const std::string& address, std::uint16_t port, std::string_view token) {
  const std::vector<std::uint8_t> d = challenge_datagram(token);
  sockaddr_in v4{};
  sockaddr_in6 v6{};
  int fd = -1;
  const sockaddr* to = nullptr;
  socklen_t to_len = 0;
  if (inet_pton(AF_INET, address.c_str(), &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(port);
    fd = v4_;
    to = reinterpret_cast<const sockaddr*>(&v4);
    to_len = sizeof v4;
  } else if (inet_pton(AF_INET6, address.c_str(), &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(port);
    fd = v6_;
    to = reinterpret_cast<const sockaddr*>(&v6);
    to_len = sizeof v6;
  } else {
    return "'" + address + "' is not an IP address";
  }
  if (fd < 0) return "no UDP socket for " + address + "'s address family";
  if (::sendto(fd, d.data(), d.size(), MSG_DONTWAIT, to, to_len) != static_cast<ssize_t>(d.size())) {
    return "cannot send the challenge to " + address + ":" + std::to_string(port) + ": " + std::strerror(errno);
  }
  return {};
}

}  // namespace sr::hub
