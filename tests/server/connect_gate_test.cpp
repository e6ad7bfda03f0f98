// The connect gate: connection attempts per address beyond a burst and a rate are dropped before ENet handles them
// (server/connect_gate.h); and through a real NetHost on loopback, those attempts never become connections.
#include "server/connect_gate.h"

#include <arpa/inet.h>
#include <enet/enet.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <vector>

#include "server/net_host.h"

namespace sr::server {
namespace {

constexpr std::int64_t kSecondUs = 1'000'000;
constexpr std::uint32_t kA = 0x0100000a;  // 10.0.0.1 in network byte order (on either endianness it is one value)
constexpr std::uint32_t kB = 0x0200000a;

ConnectGateLimits limits(std::int64_t burst, std::int64_t per_second) {
  ConnectGateLimits l;
  l.burst = burst;
  l.per_second = per_second;
  return l;
}

TEST(ConnectGate, ABurstPassesThenTheRate) {
  ConnectGate gate(limits(4, 2));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(gate.allow(kA, 0)) << i;
  EXPECT_FALSE(gate.allow(kA, 0));
  EXPECT_FALSE(gate.allow(kA, kSecondUs / 2 - 1));  // 2 a second: the next token comes after 0.5 s
  EXPECT_TRUE(gate.allow(kA, kSecondUs / 2));
  EXPECT_FALSE(gate.allow(kA, kSecondUs / 2));
  EXPECT_TRUE(gate.allow(kB, kSecondUs / 2));  // every address has its own bucket
}

TEST(ConnectGate, DroppedAttemptsAreReportedOnceByAddress) {
  ConnectGate gate(limits(1, 1));
  EXPECT_TRUE(gate.allow(kA, 0));
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(gate.allow(kA, 0));
  EXPECT_TRUE(gate.allow(kB, 0));
  EXPECT_FALSE(gate.allow(kB, 0));
  auto dropped = gate.take_dropped(0);
  std::sort(dropped.begin(), dropped.end());
  ASSERT_EQ(dropped.size(), 2u);
  EXPECT_EQ(dropped[0], std::make_pair(kA, std::uint64_t{5}));
  EXPECT_EQ(dropped[1], std::make_pair(kB, std::uint64_t{1}));
  EXPECT_TRUE(gate.take_dropped(0).empty());
}

TEST(ConnectGate, TrustedAddressesAreNeverDropped) {
  ConnectGateLimits l = limits(1, 1);
  l.trusted = {kA};
  ConnectGate gate(l);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(gate.allow(kA, 0));
  EXPECT_EQ(gate.tracked(), 0u);
}

TEST(ConnectGate, AnAddressIsForgottenOnlyOnceItsBucketIsFullAgain) {
  ConnectGate gate(limits(4, 2));  // empty to full: 2 s
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(gate.allow(kA, 0));
  (void)gate.take_dropped(kSecondUs);
  EXPECT_EQ(gate.tracked(), 1u);  // forgetting it now would hand it a full bucket early
  EXPECT_FALSE(gate.allow(kA, kSecondUs / 4));
  (void)gate.take_dropped(3 * kSecondUs);
  EXPECT_EQ(gate.tracked(), 0u);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(gate.allow(kA, 3 * kSecondUs)) << i;
}

// hold(): an address told the server is full is dropped until the hold ends, whatever its bucket holds, and is
// remembered meanwhile; a trusted address is never held.
TEST(ConnectGate, AHeldAddressIsDroppedUntilItsHoldEnds) {
  ConnectGateLimits l = limits(64, 8);
  l.trusted = {kB};
  ConnectGate gate(l);
  gate.hold(kA, 2 * kSecondUs);
  gate.hold(kA, kSecondUs);  // a shorter hold does not shorten it
  EXPECT_FALSE(gate.allow(kA, 0));
  EXPECT_FALSE(gate.allow(kA, 2 * kSecondUs - 1));
  (void)gate.take_dropped(kSecondUs);
  EXPECT_EQ(gate.tracked(), 1u);
  EXPECT_TRUE(gate.allow(kA, 2 * kSecondUs));
  gate.hold(kB, 2 * kSecondUs);
  EXPECT_TRUE(gate.allow(kB, 0));
  auto dropped = gate.take_dropped(2 * kSecondUs);
  EXPECT_TRUE(dropped.empty());  // reported at the first take
}

TEST(ConnectGate, BeyondItsTableNewAddressesPassUntracked) {
  ConnectGateLimits l = limits(1, 1);
  l.max_tracked = 2;
  ConnectGate gate(l);
  EXPECT_TRUE(gate.allow(1, 0));
  EXPECT_TRUE(gate.allow(2, 0));
  EXPECT_FALSE(gate.allow(1, 0));  // tracked ones keep their limit
  for (std::uint32_t a = 3; a < 100; ++a) EXPECT_TRUE(gate.allow(a, 0));
  EXPECT_EQ(gate.tracked(), 2u);
}

// Four ENet clients connect at once from 127.0.0.1 to a NetHost whose gate lets 2 through and never refills: two
// become connections, the others' CONNECTs are dropped (and counted) and never reach the server as connections.
struct GateRun {
  int connected = 0;
  std::uint64_t dropped = 0;
  std::string dropped_from;
};

GateRun run_four_clients(const ConnectGateLimits& gate) {
  GateRun run;
  NetHost server;
  NetLimits net;
  net.max_peers = 16;
  net.max_peers_per_ip = 16;
  net.connect_gate = gate;
  EXPECT_TRUE(server.open("127.0.0.1", 0, 1, net).ok());
  ENetHost* client = enet_host_create(nullptr, 4, 1, 0, 0);
  EXPECT_NE(client, nullptr);
  if (client == nullptr) return run;
  ENetAddress to{};
  enet_address_set_host_ip(&to, "127.0.0.1");
  to.port = server.port();
  for (int i = 0; i < 4; ++i) EXPECT_NE(enet_host_connect(client, &to, 1, 0), nullptr);
  std::vector<NetEvent> events;
  int client_connected = 0;
  // Until every attempt was either accepted or dropped at least once (ENet retries a dropped CONNECT after ~0.5 s).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    events.clear();
    server.poll(1, events);
    for (const NetEvent& e : events) run.connected += e.kind == NetEvent::Kind::kConnect ? 1 : 0;
    ENetEvent ce;
    while (enet_host_service(client, &ce, 0) > 0) client_connected += ce.type == ENET_EVENT_TYPE_CONNECT ? 1 : 0;
    for (const auto& [host, count] : server.take_refused_connects()) {
      run.dropped += count;
      run.dropped_from = host;
    }
    if (client_connected + static_cast<int>(std::min<std::uint64_t>(run.dropped, 4)) >= 4 &&
        run.connected == client_connected) {
      break;
    }
  }
  enet_host_destroy(client);
  return run;
}

TEST(ConnectGate, DroppedAttemptsNeverBecomeConnections) {
  const GateRun run = run_four_clients(limits(2, 0));
  EXPECT_EQ(run.connected, 2);
  EXPECT_GE(run.dropped, 2u);  // each refused client's CONNECT, and any of its retries
  EXPECT_EQ(run.dropped_from, "127.0.0.1");
}

TEST(ConnectGate, ATrustedAddressConnectsPastTheGate) {
  ConnectGateLimits l = limits(2, 0);
  in_addr local{};
  ASSERT_EQ(inet_pton(AF_INET, "127.0.0.1", &local), 1);
  l.trusted = {local.s_addr};
  const GateRun run = run_four_clients(l);
  EXPECT_EQ(run.connected, 4);
  EXPECT_EQ(run.dropped, 0u);
}

}  // namespace
}  // namespace sr::server

namespace sr::server {
namespace {

// The kernel's drops on a full receive queue (an overloaded loop) are counted: 1,000 datagrams of 500 bytes sent to
// a NetHost with a 4 KiB queue that nobody reads.
TEST(NetHostDrops, DatagramsDroppedOnAFullQueueAreCounted) {
  NetHost server;
  NetLimits net;
  net.socket_buffer_bytes = 4096;
  ASSERT_TRUE(server.open("127.0.0.1", 0, 1, net).ok());
  EXPECT_EQ(server.socket_drops(), 0u);
  const int s = socket(AF_INET, SOCK_DGRAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(server.port());
  ASSERT_EQ(inet_pton(AF_INET, "127.0.0.1", &to.sin_addr), 1);
  const std::vector<char> datagram(500, 'x');
  int sent = 0;
  for (int i = 0; i < 1000; ++i) {
    sent += sendto(s, datagram.data(), datagram.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to) ==
            static_cast<ssize_t>(datagram.size());
  }
  close(s);
  ASSERT_EQ(sent, 1000);
  // Loopback delivers as it sends: what did not fit was dropped by now. The queue holds a few at most.
  EXPECT_GT(server.socket_drops(), 900u);
  EXPECT_LE(server.socket_drops(), 1000u);
}

}  // namespace
}  // namespace sr::server
