// Relays batched per period (Room::send_relays, kRelayEveryUs): what a racer's batches owe the room goes out once a
// period, one RacerInputs per racer with every change since the last, and one RaceInputAck to the racer; whatever
// else the room says about a racer on the race channel comes after their relays. No network: a recording outbox and
// a fake clock.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "tests/server/lobby_race_fixture.h"

namespace sr::server {
namespace {

using engine::button::kMoveLeft;
using engine::button::kMoveRight;
using lobby_test::kCountdownUs;
using lobby_test::kMs;
using lobby_test::RaceFixture;

// The relays `to` received about racer `about`, in order.
std::vector<protocol::RacerInputs> relays_of(const RaceFixture& f, PlayerId to, PlayerId about) {
  std::vector<protocol::RacerInputs> out;
  for (const auto& r : f.outbox.of<protocol::RacerInputs>(to)) {
    if (r.player_id == about) out.push_back(r);
  }
  return out;
}

void join_as_spectator(RaceFixture& f, PlayerId id) {
  ASSERT_TRUE(f.lobby->connect(id, protocol::kProtocolVersion, "10.0.0.50:6000", f.now));
  f.lobby->handle(id, f.outbox.hello(id, "watcher"), f.now);
  f.lobby->handle(id, protocol::JoinRoom{1, "", protocol::Role::kSpectator}, f.now);
  ASSERT_EQ(f.outbox.of<protocol::RoomJoined>(id).size(), 1u);
}

TEST(RelayBatches, EveryBatchOfAPeriodGoesOutAsOneRelayAndOneAck) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.send_input(1, 0, 400 * kMs, {{400 * kMs, kMoveLeft}});
  f.send_input(1, 1, 450 * kMs, {{450 * kMs, 0}});
  f.send_input(1, 2, 500 * kMs);  // the clock alone
  f.send_input(2, 0, 300 * kMs, {{300 * kMs, kMoveRight}});
  EXPECT_TRUE(f.outbox.of<protocol::RacerInputs>(1).empty());
  EXPECT_TRUE(f.outbox.of<protocol::RacerInputs>(2).empty());
  EXPECT_TRUE(f.outbox.of<protocol::RaceInputAck>(1).empty());

  f.relay();
  EXPECT_EQ(f.outbox.of<protocol::RacerInputs>(2),
            (std::vector<protocol::RacerInputs>{{1, 1, 0, 500 * kMs, {{400 * kMs, kMoveLeft}, {450 * kMs, 0}}}}));
  EXPECT_EQ(f.outbox.of<protocol::RacerInputs>(1),
            (std::vector<protocol::RacerInputs>{{1, 2, 0, 300 * kMs, {{300 * kMs, kMoveRight}}}}));
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1), (std::vector<protocol::RaceInputAck>{{1, 2}}));
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(2), (std::vector<protocol::RaceInputAck>{{1, 1}}));

  // Nothing new: nothing more, however many periods pass.
  for (int i = 0; i < 5; ++i) f.relay();
  EXPECT_EQ(f.outbox.of<protocol::RacerInputs>(2).size(), 1u);
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1).size(), 1u);

  // The next period's batch goes on from where the last relay ended.
  f.send_input(1, 2, 650 * kMs, {{640 * kMs, kMoveRight}});
  f.relay();
  EXPECT_EQ(relays_of(f, 2, 1).back(), (protocol::RacerInputs{1, 1, 2, 650 * kMs, {{640 * kMs, kMoveRight}}}));
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1).back(), (protocol::RaceInputAck{1, 3}));
}

TEST(RelayBatches, WithNoPeriodEachBatchIsRelayedAtOnce) {
  RaceFixture f([](RoomServices& s) { s.relay_every_us = 0; });
  f.run_until(kCountdownUs + 600 * kMs);
  f.send_input(1, 0, 400 * kMs, {{400 * kMs, kMoveLeft}});
  f.send_input(1, 1, 450 * kMs, {{450 * kMs, 0}});
  EXPECT_EQ(f.outbox.of<protocol::RacerInputs>(2),
            (std::vector<protocol::RacerInputs>{{1, 1, 0, 400 * kMs, {{400 * kMs, kMoveLeft}}},
                                                {1, 1, 1, 450 * kMs, {{450 * kMs, 0}}}}));
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1), (std::vector<protocol::RaceInputAck>{{1, 1}, {1, 2}}));
}

// ada's last batch and her leaving fall in one period: bob hears her inputs, then her ending.
TEST(RelayBatches, ARacersEndingComesAfterTheirLastInputs) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.send_input(1, 0, 500 * kMs, {{500 * kMs, kMoveLeft}});
  f.lobby->handle(1, protocol::LeaveRoom{}, f.now);
  std::vector<std::string> race_messages;
  for (const protocol::Message& m : f.outbox.sent[2]) {
    if (const auto* r = std::get_if<protocol::RacerInputs>(&m); r != nullptr && r->player_id == 1) {
      race_messages.push_back("inputs");
    }
    if (const auto* e = std::get_if<protocol::RacerEnded>(&m); e != nullptr && e->player_id == 1) {
      race_messages.push_back("ended");
    }
  }
  EXPECT_EQ(race_messages, (std::vector<std::string>{"inputs", "ended"}));
}

// A spectator who joins while relays are owed gets every log whole in the catch-up, the others get what was owed,
// and the spectator's live relays start where the catch-up ended: no change twice, none missing.
TEST(RelayBatches, ACatchUpIsNeverFollowedByPartOfItAgain) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.send_input(1, 0, 500 * kMs, {{500 * kMs, kMoveLeft}});
  join_as_spectator(f, 10);
  ASSERT_EQ(f.outbox.of<protocol::CatchUpEnd>(10).size(), 1u);
  const auto caught_up = relays_of(f, 10, 1);  // the catch-up's chunk of ada's log
  ASSERT_EQ(caught_up.size(), 1u);
  EXPECT_EQ(caught_up[0], (protocol::RacerInputs{1, 1, 0, 500 * kMs, {{500 * kMs, kMoveLeft}}}));
  EXPECT_EQ(relays_of(f, 2, 1), caught_up);  // bob had it relayed before the catch-up went out

  f.relay();
  EXPECT_EQ(relays_of(f, 10, 1).size(), 1u);
  f.send_input(1, 1, 700 * kMs, {{650 * kMs, 0}});
  f.relay();
  const auto live = relays_of(f, 10, 1);
  ASSERT_EQ(live.size(), 2u);
  EXPECT_EQ(live[1], (protocol::RacerInputs{1, 1, 1, 700 * kMs, {{650 * kMs, 0}}}));
  EXPECT_EQ(relays_of(f, 2, 1), live);
}

// The race's end sends what is owed before the results.
TEST(RelayBatches, TheResultsComeAfterEveryRelay) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.send_input(2, 0, 550 * kMs, {{550 * kMs, kMoveRight}});
  f.lobby->shut_down(f.now);
  const auto& to_ada = f.outbox.sent[1];
  std::size_t relay_at = to_ada.size(), results_at = to_ada.size();
  for (std::size_t i = 0; i < to_ada.size(); ++i) {
    if (std::holds_alternative<protocol::RacerInputs>(to_ada[i]) && relay_at == to_ada.size()) relay_at = i;
    if (std::holds_alternative<protocol::RaceResults>(to_ada[i])) results_at = i;
  }
  ASSERT_LT(relay_at, to_ada.size());
  ASSERT_LT(results_at, to_ada.size());
  EXPECT_LT(relay_at, results_at);
  EXPECT_EQ(relays_of(f, 1, 2), (std::vector<protocol::RacerInputs>{{1, 2, 0, 550 * kMs, {{550 * kMs, kMoveRight}}}}));
}

// LiveStats that fall due wait for the next relay with news and go out in the same tick (so in the same datagram to
// each member), or go out alone once they have waited kLiveStatsHoldUs; either way they keep their 100 ms phase.
TEST(RelayBatches, LiveStatsGoOutWithTheNextRelayOfNewsOrAfterTheHold) {
  RaceFixture f;
  const auto stats = [&](PlayerId p) { return f.outbox.of<protocol::LiveStats>(p).size(); };
  const auto tick_1ms = [&] {
    f.now += kMs;
    f.lobby->tick(f.now);
  };
  // Nobody plays: the first stats go out at their due time plus the hold.
  while (stats(1) == 0) tick_1ms();
  const TimeUs alone_at = f.now;
  EXPECT_EQ(stats(2), 1u);
  const TimeUs due = alone_at - kLiveStatsHoldUs + 100 * kMs;  // the next ones fall due then
  while (f.now < due + 10 * kMs) tick_1ms();
  EXPECT_EQ(stats(1), 1u) << "stats owed since " << due << " went out without a relay before the hold";

  // ada's batch at due + 10 ms: the relay of it carries the owed stats to both racers.
  const auto relays_before = f.outbox.of<protocol::RacerInputs>(2).size();
  const TimeUs race_us = f.now - kCountdownUs;
  f.send_input(1, 0, race_us, {{race_us, kMoveLeft}});
  while (f.outbox.of<protocol::RacerInputs>(2).size() == relays_before) {
    ASSERT_LT(f.now, due + 10 * kMs + 2 * kRelayEveryUs);
    EXPECT_EQ(stats(2), 1u);
    tick_1ms();
  }
  EXPECT_EQ(stats(1), 2u);
  EXPECT_EQ(stats(2), 2u);
  // The last LiveStats to bob came right after the relay, in the same tick.
  const auto& to_bob = f.outbox.sent[2];
  ASSERT_GE(to_bob.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<protocol::LiveStats>(to_bob.back()));
  EXPECT_TRUE(std::holds_alternative<protocol::RacerInputs>(to_bob[to_bob.size() - 2]));

  // Quiet again: the next ones wait out the hold from their own due time, 100 ms after the last.
  while (stats(1) == 2) tick_1ms();
  EXPECT_EQ(f.now, due + 100 * kMs + kLiveStatsHoldUs);
}

// Without relay periods (relays at once) the stats go out when due, every 100 ms.
TEST(RelayBatches, WithNoPeriodLiveStatsGoOutWhenDue) {
  RaceFixture f([](RoomServices& s) { s.relay_every_us = 0; });
  std::vector<TimeUs> at;
  while (at.size() < 3) {
    f.now += kMs;
    const auto before = f.outbox.of<protocol::LiveStats>(1).size();
    f.lobby->tick(f.now);
    if (f.outbox.of<protocol::LiveStats>(1).size() > before) at.push_back(f.now);
  }
  EXPECT_EQ(at[1] - at[0], 100 * kMs);
  EXPECT_EQ(at[2] - at[1], 100 * kMs);
  EXPECT_LT(at[0], kCountdownUs + 100 * kMs);  // within the first period of the race
}

}  // namespace
}  // namespace sr::server
