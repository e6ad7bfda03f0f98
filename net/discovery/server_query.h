// Finding servers by asking them (common/protocol/DIRECTORY.md, sections 1 and 2): `ServerQuery` sends query
// datagrams to given addresses (a directory's list, a typed address) and to the local network (IPv4 broadcast and the
// IPv6 all-nodes group ff02::1, port 47777), and collects the servers' info datagrams, matched to the queries by
// nonce, with the round trip as their ping. Non-blocking throughout (except resolving a host name in query()): a
// browser screen calls poll() every frame.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/result.h"
#include "net/discovery/server_info.h"

namespace sr::net {

struct FoundServer {
  std::string address;     // the replying address as text ("192.0.2.7", "fe80::1%eth0")
  std::uint16_t port = 0;  // the game port to join (the info's `port`)
  bool ipv6 = false;
  bool from_lan = false;     // answered a LAN probe (broadcast or multicast)
  std::int64_t ping_us = 0;  // from the query to its answer, by the query's clock
  std::int64_t seen_us = 0;  // when the answer arrived, by the query's clock
  ServerInfo info;
};

class ServerQuery {
 public:
  // Steady-clock microseconds; tests pass a fake one.
  using Clock = std::function<std::int64_t()>;
  // Queries unanswered this long are forgotten (a later answer is ignored).
  static constexpr std::int64_t kForgetQueryAfterUs = 5'000'000;

  explicit ServerQuery(Clock clock = {});
  ~ServerQuery();
  ServerQuery(const ServerQuery&) = delete;
  ServerQuery& operator=(const ServerQuery&) = delete;

  // Opens the sockets (IPv4 with SO_BROADCAST; IPv6 where available). Ok, or an error sentence when not even the IPv4
  // one opens.
  [[nodiscard]] sr::Status<std::string> open();

  // Sends a query to `host:port` (a numeric address, or a name, which is resolved here and may block; of its
  // addresses the first IPv4 one, else the first). Ok, or why not ("cannot find NAME: ...").
  [[nodiscard]] sr::Status<std::string> query(const std::string& host, std::uint16_t port);
  // Sends a query to 255.255.255.255:`lan_port`, to the broadcast address of each IPv4 interface, and to
  // ff02::1:`lan_port` on each IPv6 interface with multicast. Returns the datagrams sent.
  int probe_lan(std::uint16_t lan_port = 47777);

  // Reads every answer that waits (never blocks). Returns how many servers were found or refreshed.
  std::size_t poll();

  // Every server found since the last clear(), in the order first found; one per address and game port (a later
  // answer replaces the earlier one).
  [[nodiscard]] const std::vector<FoundServer>& servers() const { return servers_; }
  // Answers that were not info datagrams of a query of ours, or whose JSON was refused.
  [[nodiscard]] std::uint64_t ignored() const { return ignored_; }
  void clear() { servers_.clear(); }

 private:
  struct Sent {
    std::int64_t at_us = 0;
    bool lan = false;
  };
  std::uint64_t new_nonce(bool lan);
  bool send_to(const sockaddr* to, socklen_t length, std::uint64_t nonce);
  // One answer; true if it found or refreshed a server.
  bool take(const std::uint8_t* bytes, std::size_t size, const sockaddr_storage& from);

  Clock clock_;
  int v4_ = -1;
  int v6_ = -1;
  std::mt19937_64 random_;
  std::map<std::uint64_t, Sent> sent_;
  std::vector<FoundServer> servers_;
  std::uint64_t ignored_ = 0;
};

}  // namespace sr::net
