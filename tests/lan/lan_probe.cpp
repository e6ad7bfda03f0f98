// stackrace-lan-probe: finds servers on the local network as the game's browser does (net/discovery's
// ServerQuery::probe_lan), for the LAN test (tests/lan/lan_test.sh). Probes every 250 ms until an IPv4 server
// answers or the time is up, then listens a little longer for IPv6 answers, and prints one line a server:
//   found v4|v6 ADDRESS PORT after_ms=N ping_us=N name=NAME
// Exit status 0 when an IPv4 server was found (one that ENet can join), 1 otherwise.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "common/protocol/server_query.h"
#include "net/discovery/server_query.h"

int main(int argc, char** argv) {
  std::uint16_t lan_port = sr::protocol::kDiscoveryPort;
  int timeout_ms = 1000;
  int listen_more_ms = 300;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--lan-port") == 0) lan_port = static_cast<std::uint16_t>(std::atoi(argv[i + 1]));
    if (std::strcmp(argv[i], "--timeout-ms") == 0) timeout_ms = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--listen-more-ms") == 0) listen_more_ms = std::atoi(argv[i + 1]);
  }
  using Clock = std::chrono::steady_clock;
  sr::net::ServerQuery query;
  if (auto opened = query.open(); !opened) {
    std::fprintf(stderr, "stackrace-lan-probe: %s\n", opened.error().c_str());
    return 2;
  }
  const auto start = Clock::now();
  const auto since_ms = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
  };
  const auto has_v4 = [&] {
    for (const auto& s : query.servers()) {
      if (!s.ipv6) return true;
    }
    return false;
  };
  std::size_t printed = 0;
  const auto print_new = [&] {
    for (; printed < query.servers().size(); ++printed) {
      const auto& s = query.servers()[printed];
      std::printf("found %s %s %u after_ms=%lld ping_us=%lld name=%s\n", s.ipv6 ? "v6" : "v4", s.address.c_str(),
                  s.port, static_cast<long long>(since_ms()), static_cast<long long>(s.ping_us), s.info.name.c_str());
      std::fflush(stdout);
    }
  };
  auto next_probe = start;
  std::int64_t found_at_ms = -1;
  while (since_ms() <= timeout_ms || (found_at_ms >= 0 && since_ms() <= found_at_ms + listen_more_ms)) {
    if (found_at_ms < 0 && Clock::now() >= next_probe) {
      std::fprintf(stderr, "stackrace-lan-probe: %d probe datagrams sent\n", query.probe_lan(lan_port));
      next_probe += std::chrono::milliseconds(250);
    }
    query.poll();
    print_new();
    if (found_at_ms < 0 && has_v4()) found_at_ms = since_ms();
    if (found_at_ms >= 0 && since_ms() > found_at_ms + listen_more_ms) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  print_new();
  return has_v4() ? 0 : 1;
}
