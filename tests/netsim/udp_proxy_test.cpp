// tests/netsim/udp_proxy.h over real loopback sockets. The checks hold on a loaded machine: every wait is a poll with
// a deadline of seconds, and the assertions are about what arrives, not about how fast.
#include "tests/netsim/udp_proxy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include "tests/netsim/echo_bench.h"

namespace sr::netsim {
namespace {

using namespace std::chrono_literals;
using sr::test::Bytes;
using sr::test::EchoBench;
using sr::test::number_of;
using sr::test::numbered;

constexpr auto kTimeout = 20s;

Profile lan() {
  auto p = profile_by_name("lan");
  EXPECT_TRUE(p.ok());
  return p.value();
}

std::unique_ptr<UdpProxy> open_proxy(std::uint16_t target_port, Profile profile, std::uint64_t seed = 1) {
  ProxyOptions options;
  options.target_port = target_port;
  options.profile = std::move(profile);
  options.seed = seed;
  auto proxy = UdpProxy::open(std::move(options));
  EXPECT_TRUE(proxy.ok()) << (proxy.ok() ? "" : proxy.error());
  return proxy.ok() ? std::move(proxy).value() : nullptr;
}

// Waits until the proxy's published counters satisfy `done`, pumping the bench meanwhile.
bool counters_reach(EchoBench& bench, const UdpProxy& proxy, const std::function<bool(const ProxyCounters&)>& done) {
  return bench.pump_until([&] { return done(proxy.counters()); }, kTimeout);
}

TEST(UdpProxy, LanEchoArrivesIntactAndInOrder) {
  EchoBench bench;
  auto proxy = open_proxy(bench.server_port(), lan());
  ASSERT_NE(proxy, nullptr);
  ASSERT_NE(proxy->listen_port(), 0);
  proxy->start();

  // A few at a time, so that no socket buffer overflows however slowly the proxy's thread runs.
  std::vector<Bytes> sent;
  for (std::uint32_t n = 0; n < 300; ++n) {
    sent.push_back(numbered(n, (n * 97) % 1'200));
    ASSERT_TRUE(bench.client().send_to(proxy->listen_port(), sent.back()));
    if (n % 10 == 9) {
      ASSERT_TRUE(bench.pump_until([&] { return bench.received().size() == n + 1; }, kTimeout)) << n;
    }
  }
  EXPECT_EQ(bench.received(), sent);
  // The server saw the client from one address, the proxy's upstream socket, not the client's own.
  const std::vector<std::uint16_t> saw = bench.server_saw_ports();
  const std::set<std::uint16_t> ports(saw.begin(), saw.end());
  EXPECT_EQ(ports.size(), 1U);
  EXPECT_EQ(ports.count(bench.client().port()), 0U);

  ASSERT_TRUE(counters_reach(bench, *proxy, [](const ProxyCounters& c) { return c.down.out == 300; }));
  const ProxyCounters c = proxy->counters();
  EXPECT_EQ(c.up.in, 300U);
  EXPECT_EQ(c.up.out, 300U);
  EXPECT_EQ(c.down.in, 300U);
  EXPECT_EQ(c.up.dropped() + c.down.dropped(), 0U);
  EXPECT_EQ(c.clients, 1U);
  EXPECT_EQ(c.address_changes, 0U);
  EXPECT_EQ(c.send_errors, 0U);
}

TEST(UdpProxy, EachClientGetsItsOwnUpstreamAddressAndItsOwnReplies) {
  EchoBench bench(2);
  auto proxy = open_proxy(bench.server_port(), lan());
  ASSERT_NE(proxy, nullptr);
  proxy->start();
  for (std::uint32_t n = 0; n < 20; ++n) {
    ASSERT_TRUE(bench.client(0).send_to(proxy->listen_port(), numbered(n)));
    ASSERT_TRUE(bench.client(1).send_to(proxy->listen_port(), numbered(1'000 + n)));
  }
  ASSERT_TRUE(
      bench.pump_until([&] { return bench.received(0).size() == 20 && bench.received(1).size() == 20; }, kTimeout));
  for (std::uint32_t n = 0; n < 20; ++n) {
    EXPECT_EQ(number_of(bench.received(0)[n]), n);
    EXPECT_EQ(number_of(bench.received(1)[n]), 1'000 + n);
  }
  const std::vector<std::uint16_t> saw = bench.server_saw_ports();
  const std::set<std::uint16_t> ports(saw.begin(), saw.end());
  EXPECT_EQ(ports.size(), 2U);
  ASSERT_TRUE(counters_reach(bench, *proxy, [](const ProxyCounters& c) { return c.down.out == 40; }));
  EXPECT_EQ(proxy->counters().clients, 2U);
}

TEST(UdpProxy, NothingGetsThroughABlackoutUntilItEnds) {
  EchoBench bench;
  Profile p = lan();
  p.name = "lan, blacked out for 500 ms";
  p.blackouts.push_back(Blackout{0, 500'000});
  auto proxy = open_proxy(bench.server_port(), p);
  ASSERT_NE(proxy, nullptr);
  const auto origin = std::chrono::steady_clock::now();
  proxy->arm(origin);
  proxy->start();

  // A packet every round of pumping until replies come back; each reply notes when it was seen.
  std::uint32_t sent = 0;
  std::vector<std::chrono::steady_clock::time_point> seen_at;
  const bool through = bench.pump_until(
      [&] {
        while (seen_at.size() < bench.received().size()) seen_at.push_back(std::chrono::steady_clock::now());
        if (bench.received().size() >= 20) return true;
        EXPECT_TRUE(bench.client().send_to(proxy->listen_port(), numbered(sent++)));
        return false;
      },
      kTimeout);
  ASSERT_TRUE(through);

  // Nothing came back before the blackout ended (the proxy got every reply's packet after that, so later still).
  for (const auto& t : seen_at) EXPECT_GE(t - origin, 500ms);
  // What got through is everything sent from some packet on: the blackout took the first ones, and only those.
  ASSERT_TRUE(counters_reach(bench, *proxy, [&](const ProxyCounters& c) { return c.up.in == sent; }));
  const ProxyCounters c = proxy->counters();
  EXPECT_GE(c.up.blacked_out, 1U);
  const std::uint32_t first = number_of(bench.received().front());
  EXPECT_EQ(first, c.up.blacked_out);
  for (std::size_t i = 0; i < bench.received().size(); ++i) EXPECT_EQ(number_of(bench.received()[i]), first + i);
  EXPECT_EQ(c.up.lost + c.down.dropped(), 0U);
}

TEST(UdpProxy, AnAddressChangeShowsTheServerANewPortAndRepliesStillArrive) {
  EchoBench bench;
  Profile p = lan();
  p.name = "lan, address change after 200 ms";
  p.address_change_at_us = 200'000;
  auto proxy = open_proxy(bench.server_port(), p);
  ASSERT_NE(proxy, nullptr);
  // No change before the test says so: the origin is far ahead until the client is known to the proxy.
  proxy->arm(std::chrono::steady_clock::now() + 24h);
  proxy->start();
  ASSERT_TRUE(bench.client().send_to(proxy->listen_port(), numbered(0)));
  ASSERT_TRUE(bench.pump_until([&] { return bench.received().size() == 1; }, kTimeout));
  const std::uint16_t first_port = bench.server_saw_ports().at(0);

  proxy->arm();
  // The numbers the server got from a port other than the first, and whether the client has each one's reply.
  const auto from_new_port = [&] {
    std::vector<std::uint32_t> numbers;
    for (const auto& d : bench.server_got()) {
      if (d.from_port != first_port) numbers.push_back(number_of(d.bytes));
    }
    return numbers;
  };
  const auto replied = [&](std::uint32_t n) {
    return std::any_of(bench.received().begin(), bench.received().end(),
                       [n](const Bytes& b) { return number_of(b) == n; });
  };
  // Packets keep going until the server has seen five from the new port; then until all arrived and those five's
  // replies came back.
  std::uint32_t sent = 1;
  ASSERT_TRUE(bench.pump_until(
      [&] {
        const std::vector<std::uint32_t> moved = from_new_port();
        if (moved.size() >= 5) {
          return bench.server_got().size() == sent && std::all_of(moved.begin(), moved.end(), replied);
        }
        EXPECT_TRUE(bench.client().send_to(proxy->listen_port(), numbered(sent++)));
        return false;
      },
      kTimeout));

  // One port, then another, never back.
  const std::vector<std::uint16_t> ports = bench.server_saw_ports();
  const auto change = std::find_if(ports.begin(), ports.end(), [&](std::uint16_t port) { return port != first_port; });
  ASSERT_NE(change, ports.end());
  EXPECT_TRUE(std::all_of(change, ports.end(), [&](std::uint16_t port) { return port == *change; }));
  EXPECT_NE(*change, bench.client().port());
  // Every packet reached the server, in order. The replies came back in order; only a reply on its way to the old
  // port when it closed may be missing.
  ASSERT_EQ(bench.server_got().size(), sent);
  for (std::uint32_t n = 0; n < sent; ++n) EXPECT_EQ(number_of(bench.server_got()[n].bytes), n);
  const std::uint32_t first_moved = from_new_port().front();
  std::uint32_t previous = 0;
  for (std::size_t i = 0; i < bench.received().size(); ++i) {
    const std::uint32_t n = number_of(bench.received()[i]);
    if (i > 0) {
      EXPECT_GT(n, previous);
    }
    previous = n;
  }
  for (std::uint32_t n = 0; n < sent; ++n) {
    if (!replied(n)) {
      EXPECT_LT(n, first_moved) << "the reply to " << n << " (sent from the new port) is missing";
    }
  }
  const ProxyCounters c = proxy->counters();
  EXPECT_EQ(c.address_changes, 1U);
  EXPECT_EQ(c.clients, 1U);
}

TEST(UdpProxy, RefusesATargetOtherThanLoopback) {
  for (const std::string host : {"10.0.0.1", "0.0.0.0", "localhost", "127.0.0.2", ""}) {
    ProxyOptions options;
    options.target_host = host;
    options.target_port = 7878;
    options.profile = lan();
    const auto proxy = UdpProxy::open(options);
    ASSERT_FALSE(proxy.ok()) << host;
    EXPECT_NE(proxy.error().find("127.0.0.1"), std::string::npos) << proxy.error();
    EXPECT_NE(proxy.error().find("'" + host + "'"), std::string::npos) << proxy.error();
  }
  ProxyOptions no_port;
  no_port.profile = lan();
  EXPECT_FALSE(UdpProxy::open(no_port).ok());
}

TEST(UdpProxy, RefusesAProfileOutOfRange) {
  ProxyOptions options;
  options.target_port = 7878;
  options.profile = lan();
  options.profile.loss_ppm = 2'000'000;
  const auto proxy = UdpProxy::open(options);
  ASSERT_FALSE(proxy.ok());
  EXPECT_NE(proxy.error().find("loss_ppm"), std::string::npos) << proxy.error();
}

TEST(UdpProxy, RefusesAListeningPortInUse) {
  EchoBench bench;
  ProxyOptions options;
  options.target_port = 7878;
  options.listen_port = bench.server_port();
  options.profile = lan();
  const auto proxy = UdpProxy::open(options);
  ASSERT_FALSE(proxy.ok());
  EXPECT_NE(proxy.error().find(std::to_string(bench.server_port())), std::string::npos) << proxy.error();
}

TEST(LoopbackEndpoint, ParsesOnlyLoopbackWithAValidPort) {
  const auto ok = parse_loopback_endpoint("127.0.0.1:7878");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok.value(), 7878);
  for (const std::string bad : {"127.0.0.1", "10.0.0.1:7878", "localhost:7878", "127.0.0.1:0", "127.0.0.1:65536",
                                "127.0.0.1:78x", "127.0.0.1:", "127.0.0.1:-1", ":7878"}) {
    EXPECT_FALSE(parse_loopback_endpoint(bad).ok()) << bad;
  }
  EXPECT_NE(parse_loopback_endpoint("10.0.0.1:7878").error().find("loopback"), std::string::npos);
  EXPECT_NE(parse_loopback_endpoint("127.0.0.1:99999").error().find("1 to 65535"), std::string::npos);
}

}  // namespace
}  // namespace sr::netsim
