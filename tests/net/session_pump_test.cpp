#include "net/session_pump.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/net/fake_server.h"

namespace sr::net {
namespace {

using namespace std::chrono_literals;

// Members whose sessions are never opened (no socket): only their own due times make the pump service them.
TEST(SessionPump, AMemberIsServicedWhenItsOwnWorkIsDueAndIdleOnesWait) {
  std::vector<Session> sessions(2);
  std::vector<int> serviced(2, 0);
  SessionPump::Options options;
  options.idle_us = 60'000'000;  // an idle member would wait a minute
  SessionPump pump(
      2, [&](std::size_t i) -> const Session& { return sessions[i]; },
      [&](std::size_t i) -> std::optional<std::int64_t> {
        ++serviced[i];
        if (i == 0) return 0;  // always has work now
        return std::nullopt;   // none planned
      },
      options);
  pump.once();  // both are due at the start
  EXPECT_EQ(serviced, (std::vector<int>{1, 1}));
  pump.once();
  pump.once();
  EXPECT_EQ(serviced, (std::vector<int>{3, 1}));
}

// A member that plans nothing is serviced again once idle_us has passed (0 here: at every round), so that ENet's
// acknowledgements and the session's pings keep going.
TEST(SessionPump, AMemberWithNothingPlannedIsStillServicedEveryIdleSpan) {
  std::vector<Session> sessions(1);
  std::vector<int> serviced(1, 0);
  SessionPump::Options options;
  options.idle_us = 0;
  options.wake_on_traffic = false;
  SessionPump pump(
      1, [&](std::size_t i) -> const Session& { return sessions[i]; },
      [&](std::size_t i) -> std::optional<std::int64_t> {
        ++serviced[i];
        return std::nullopt;
      },
      options);
  for (int round = 0; round < 4; ++round) pump.once();
  EXPECT_EQ(serviced, (std::vector<int>{4}));
}

TEST(SessionPump, UntilStopsWhenDoneOrAtTheDeadline) {
  Session session;
  int serviced = 0;
  SessionPump pump(
      1, [&](std::size_t) -> const Session& { return session; },
      [&](std::size_t) -> std::optional<std::int64_t> {
        ++serviced;
        return 0;
      });
  EXPECT_TRUE(pump.until([&] { return serviced >= 3; }, SessionPump::Clock::now() + 60s));
  EXPECT_EQ(serviced, 3);
  EXPECT_FALSE(pump.until([] { return false; }, SessionPump::Clock::now() - 1s));
  EXPECT_EQ(serviced, 3) << "a passed deadline services nothing";
}

// With a minute between idle services, only the socket can wake the member: the server's Welcome must be read the
// moment it arrives.
TEST(SessionPump, TrafficWakesItsMemberBeforeItIsDue) {
  test::FakeServer server;
  Session session;
  SessionOptions options;
  options.port = server.port();
  options.name = "ada";
  ASSERT_TRUE(session.open(options).ok());
  int serviced = 0;
  SessionPump::Options pumping;
  pumping.idle_us = 60'000'000;
  SessionPump pump(
      1, [&](std::size_t) -> const Session& { return session; },
      [&](std::size_t) -> std::optional<std::int64_t> {
        ++serviced;
        (void)session.poll(0);
        return std::nullopt;
      },
      pumping);
  bool welcomed = false;
  ASSERT_TRUE(server.run_until(
      [&] {
        for (const auto& e : server.events()) {
          if (e.kind == server::NetEvent::Kind::kReceive && !welcomed) {  // our Hello
            server.send(protocol::Welcome{3, "fake", "", 0, ""}, protocol::kChannelControl);
            welcomed = true;
          }
        }
        pump.once();
      },
      [&] { return session.state() == Session::State::kLobby; }));
  // Serviced at the start, then for each wake-up of its socket (ENet's connect, the Welcome), never for idleness.
  EXPECT_GE(serviced, 3);
}

}  // namespace
}  // namespace sr::net
