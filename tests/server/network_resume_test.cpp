// Resuming a race over a real, impaired network: a racer behind the netsim proxy (tests/netsim) whose address
// changes mid-race, or whose link goes dark for longer than the connection timeout, comes back by itself and
// finishes, and the replay holds their whole game.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/netsim/udp_proxy.h"
#include "tests/server/net_fixture.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;

// A near-perfect link with one event `at_us` after the proxy is armed (at the countdown).
netsim::Profile link_with(std::optional<netsim::TimeUs> address_change_at_us, std::vector<netsim::Blackout> blackouts) {
  netsim::Profile p;
  p.name = "test";
  p.delay_us = 1'000;
  p.address_change_at_us = address_change_at_us;
  p.blackouts = std::move(blackouts);
  return p;
}

struct Outcome {
  protocol::RaceResults results;
  std::vector<ServerFixture::StoredReplay> stored;
};

// alice races through the proxy, bob directly; a 15-line sprint at 2.5 pieces a second lasts about 15 s.
void race_through(const netsim::Profile& profile, BotClient*& alice_out, Outcome& out, ServerFixture& server,
                  std::unique_ptr<BotClient>& alice, std::unique_ptr<BotClient>& bob) {
  auto proxy = netsim::UdpProxy::open({netsim::kLoopback, server.port(), 0, profile, 7});
  ASSERT_TRUE(proxy.ok()) << proxy.error();
  proxy.value()->start();
  alice = std::make_unique<BotClient>("alice", proxy.value()->listen_port(), ClientQuirks{}, 2500);
  bob = std::make_unique<BotClient>("bob", server.port(), ClientQuirks{}, 2500);
  alice_out = alice.get();
  ASSERT_TRUE(alice->connect());
  ASSERT_TRUE(bob->connect());
  protocol::RoomSettings s;
  s.name = "resume";
  s.config = engine::make_sprint(15);
  s.auto_start = true;
  ASSERT_TRUE(alice->session().create_room(s));
  ASSERT_TRUE(BotClient::pump_until(
      {alice.get()}, [&] { return alice->session().room().has_value(); }, 5s));
  ASSERT_TRUE(bob->session().join_room(alice->session().room()->room_id));
  ASSERT_TRUE(BotClient::pump_until(
      {bob.get()}, [&] { return bob->session().room().has_value(); }, 5s));
  alice->session().set_ready(true);
  bob->session().set_ready(true);
  ASSERT_TRUE(BotClient::pump_until(
      {alice.get(), bob.get()}, [&] { return alice->session().race() != nullptr; }, 5s));
  proxy.value()->arm();
  ASSERT_TRUE(BotClient::pump_until(
      {alice.get(), bob.get()},
      [&] {
        return alice->session().results() && bob->session().results() && alice->session().stored_replay() &&
               bob->session().stored_replay();
      },
      150s));
  out.results = *bob->session().results();
  out.stored = server.stored_replays();
}

// `reconnects`: how often alice must have resumed. An 8 s blackout may also be ridden out as a stall, when ENet's
// retransmission backoff (its timeout is only checked when a retransmission is due) skips past the blackout's end:
// then -1, "zero or one".
void expect_alice_came_back(const Outcome& out, BotClient& alice, int reconnects) {
  const int resumed = alice.session().reconnects();
  if (reconnects >= 0) {
    EXPECT_EQ(resumed, reconnects);
  } else {
    EXPECT_LE(resumed, 1);
  }
  ASSERT_EQ(alice.session().resume_times_us().size(), static_cast<std::size_t>(resumed));
  if (resumed > 0) {
    std::printf("alice resumed %.2f s after losing the connection\n",
                static_cast<double>(alice.session().resume_times_us()[0]) / 1e6);
  } else {
    std::printf("alice rode the blackout out as a stall\n");
  }
  engine::TimeUs alice_unverified = -1;
  for (const auto& r : out.results.racers) {
    EXPECT_EQ(r.status, protocol::RacerStatus::kFinished) << r.name;
    if (r.name == "alice") {
      alice_unverified = r.unverified_us;
      EXPECT_EQ(r.reconnects, static_cast<std::uint32_t>(resumed));
      EXPECT_GT(r.unverified_us, 0);  // the gap is marked
    } else {
      EXPECT_EQ(r.reconnects, 0u);
    }
  }
  EXPECT_EQ(alice.notice(protocol::NoticeCode::kDesync), nullptr);
  ASSERT_EQ(out.stored.size(), 1u);
  EXPECT_TRUE(out.stored[0].verified) << out.stored[0].message;
  const auto racer = std::find_if(out.stored[0].replay.racers.begin(), out.stored[0].replay.racers.end(),
                                  [](const auto& r) { return r.name == "alice"; });
  ASSERT_NE(racer, out.stored[0].replay.racers.end());
  EXPECT_EQ(racer->inputs, alice.sent_log()) << "the replay holds the whole game, also what was played while away";
  EXPECT_EQ(racer->result.stats, alice.session().race()->mine()->game().stats());
  EXPECT_EQ(racer->result.reconnects, static_cast<std::uint32_t>(resumed));
  EXPECT_EQ(racer->result.unverified_us, alice_unverified);
}

// 2 s into the race the proxy gives alice a new source port: the server hears nothing more from her old address,
// both ends time out (5 s), and her client resumes over a new connection.
TEST(ResumeOverTheNetwork, AnAddressChangeMidRaceEndsWithTheRacerFinishing) {
  ServerFixture server;
  std::unique_ptr<BotClient> alice, bob;
  BotClient* a = nullptr;
  Outcome out;
  race_through(link_with(5'000'000, {}), a, out, server, alice, bob);
  if (HasFatalFailure()) return;
  expect_alice_came_back(out, *a, 1);
}

// Her link goes dark for 8 s: longer than the timeout, so she (usually) resumes once it is back.
TEST(ResumeOverTheNetwork, AnEightSecondBlackoutEndsWithTheRacerFinishing) {
  ServerFixture server;
  std::unique_ptr<BotClient> alice, bob;
  BotClient* a = nullptr;
  Outcome out;
  race_through(link_with(std::nullopt, {{5'000'000, 8'000'000}}), a, out, server, alice, bob);
  if (HasFatalFailure()) return;
  expect_alice_came_back(out, *a, -1);
}

}  // namespace
}  // namespace sr::test
