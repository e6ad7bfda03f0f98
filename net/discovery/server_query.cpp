#include "net/discovery/server_query.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>
#include <set>

#include "common/protocol/server_query.h"

namespace sr::net {
namespace {

std::int64_t steady_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int open_socket(int family) { return ::socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }

}  // namespace

ServerQuery::ServerQuery(Clock clock) : clock_(clock ? std::move(clock) : Clock(&steady_us)) {
  std::random_device entropy;
  random_.seed((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
}

ServerQuery::~ServerQuery() {
  if (v4_ >= 0) ::close(v4_);
  if (v6_ >= 0) ::close(v6_);
}

sr::Status<std::string> ServerQuery::open() {
  if (v4_ < 0) {
    v4_ = open_socket(AF_INET);
    if (v4_ < 0) return std::string("cannot open a UDP socket: ") + std::strerror(errno);
    const int on = 1;
    (void)setsockopt(v4_, SOL_SOCKET, SO_BROADCAST, &on, sizeof on);
  }
  if (v6_ < 0) {
    v6_ = open_socket(AF_INET6);  // -1 without IPv6: it is used where there is one
    if (v6_ >= 0) {
      const int on = 1;
      (void)setsockopt(v6_, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on);
    }
  }
  return {};
}

std::uint64_t ServerQuery::new_nonce(bool lan) {
  const std::int64_t now = clock_();
  std::erase_if(sent_, [&](const auto& entry) { return now - entry.second.at_us > kForgetQueryAfterUs; });
  std::uint64_t nonce = random_();
  while (sent_.count(nonce) != 0) nonce = random_();
  sent_[nonce] = Sent{now, lan};
  return nonce;
}

bool ServerQuery::send_to(const sockaddr* to, socklen_t length, std::uint64_t nonce) {
  const int fd = to->sa_family == AF_INET6 ? v6_ : v4_;
  if (fd < 0) return false;
  const std::vector<std::uint8_t> query = protocol::encode_query(nonce);
  return ::sendto(fd, query.data(), query.size(), 0, to, length) == static_cast<ssize_t>(query.size());
}

sr::Status<std::string> ServerQuery::query(const std::string& host, std::uint16_t port) {
  if (auto opened = open(); !opened) return opened;
  addrinfo hints{};
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int error = getaddrinfo(host.c_str(), service.c_str(), &hints, &found); error != 0) {
    return "cannot find " + host + ": " + gai_strerror(error);
  }
  // One address: IPv4 first, as game servers listen on IPv4 (ENet), else the first IPv6 one.
  const addrinfo* chosen = nullptr;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    if (chosen == nullptr || (a->ai_family == AF_INET && chosen->ai_family != AF_INET)) chosen = a;
  }
  const std::uint64_t nonce = new_nonce(false);
  const bool sent = chosen != nullptr && send_to(chosen->ai_addr, chosen->ai_addrlen, nonce);
  freeaddrinfo(found);
  if (!sent) return "cannot send a query to " + host + ":" + service;
  return {};
}

int ServerQuery::probe_lan(std::uint16_t lan_port) {
  if (!open()) return 0;
  const std::uint64_t nonce = new_nonce(true);
  int sent = 0;
  sockaddr_in everyone{};
  everyone.sin_family = AF_INET;
  everyone.sin_port = htons(lan_port);
  everyone.sin_addr.s_addr = htonl(INADDR_BROADCAST);
  sent += send_to(reinterpret_cast<const sockaddr*>(&everyone), sizeof everyone, nonce) ? 1 : 0;
  ifaddrs* interfaces = nullptr;
  if (getifaddrs(&interfaces) != 0) return sent;
  std::set<std::uint32_t> v4_done;
  std::set<unsigned> v6_done;
  for (const ifaddrs* i = interfaces; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || (i->ifa_flags & IFF_UP) == 0) continue;
    if (i->ifa_addr->sa_family == AF_INET && (i->ifa_flags & IFF_BROADCAST) != 0 && i->ifa_broadaddr != nullptr) {
      sockaddr_in to = *reinterpret_cast<const sockaddr_in*>(i->ifa_broadaddr);
      if (to.sin_addr.s_addr == htonl(INADDR_BROADCAST) || !v4_done.insert(to.sin_addr.s_addr).second) continue;
      to.sin_port = htons(lan_port);
      sent += send_to(reinterpret_cast<const sockaddr*>(&to), sizeof to, nonce) ? 1 : 0;
    } else if (i->ifa_addr->sa_family == AF_INET6 && (i->ifa_flags & IFF_MULTICAST) != 0 && v6_ >= 0) {
      const unsigned index = if_nametoindex(i->ifa_name);
      if (index == 0 || !v6_done.insert(index).second) continue;
      sockaddr_in6 to{};
      to.sin6_family = AF_INET6;
      to.sin6_port = htons(lan_port);
      to.sin6_scope_id = index;
      (void)inet_pton(AF_INET6, "ff02::1", &to.sin6_addr);
      // The group is reached through this interface: the scope id picks it for a link-local group.
      (void)setsockopt(v6_, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof index);
      sent += send_to(reinterpret_cast<const sockaddr*>(&to), sizeof to, nonce) ? 1 : 0;
    }
  }
  freeifaddrs(interfaces);
  return sent;
}

std::size_t ServerQuery::poll() {
  std::size_t taken = 0;
  std::array<std::uint8_t, protocol::kMaxInfoDatagramBytes + 1> buffer;
  for (int fd : {v4_, v6_}) {
    if (fd < 0) continue;
    for (;;) {
      sockaddr_storage from{};
      socklen_t length = sizeof from;
      const ssize_t got = ::recvfrom(fd, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &length);
      if (got < 0) break;
      if (take(buffer.data(), static_cast<std::size_t>(got), from)) ++taken;
    }
  }
  return taken;
}

bool ServerQuery::take(const std::uint8_t* bytes, std::size_t size, const sockaddr_storage& from) {
  const std::int64_t now = clock_();
  const auto datagram = protocol::decode_info(std::span<const std::uint8_t>(bytes, size));
  const auto query = datagram ? sent_.find(datagram->nonce) : sent_.end();
  if (query == sent_.end()) {
    ++ignored_;
    return false;
  }
  auto info = parse_server_info(datagram->json);
  if (!info) {
    ++ignored_;
    return false;
  }
  FoundServer found;
  char text[INET6_ADDRSTRLEN + IF_NAMESIZE + 1] = {};
  if (from.ss_family == AF_INET) {
    (void)inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&from)->sin_addr, text, sizeof text);
  } else {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&from);
    (void)inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    found.ipv6 = true;
    char name[IF_NAMESIZE] = {};
    if (v6->sin6_scope_id != 0 && if_indextoname(v6->sin6_scope_id, name) != nullptr) {
      std::strncat(text, "%", sizeof text - std::strlen(text) - 1);
      std::strncat(text, name, sizeof text - std::strlen(text) - 1);
    }
  }
  found.address = text;
  found.port = info.value().port;
  found.from_lan = query->second.lan;
  found.ping_us = now - query->second.at_us;
  found.seen_us = now;
  found.info = std::move(info.value());
  // A unicast query has one answer; a LAN probe's nonce stays for the other servers' answers.
  if (!query->second.lan) sent_.erase(query);
  for (FoundServer& s : servers_) {
    if (s.address == found.address && s.port == found.port) {
      s = std::move(found);
      return true;
    }
  }
  servers_.push_back(std::move(found));
  return true;
}

}  // namespace sr::net
