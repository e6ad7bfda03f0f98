// Resuming a race (PROTOCOL.md "Resuming a race") at the lobby: a racer whose connection dropped keeps their seat,
// takes it back with the RaceSeat token over a new connection, and gets what they missed. No network: a recording
// outbox and a fake clock.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "server/lobby.h"
#include "tests/server/lobby_race_fixture.h"

namespace sr::server {
namespace {

using lobby_test::kCountdownUs;
using lobby_test::kMs;
using lobby_test::RaceFixture;

TEST(Resume, EachRacerGetsTheirOwnSecretSeat) {
  RaceFixture f;
  const protocol::RaceSeat ada = f.seat_of(1), bob = f.seat_of(2);
  EXPECT_EQ(ada.race_id, 1u);
  EXPECT_NE(std::make_pair(ada.token_hi, ada.token_lo), std::make_pair(bob.token_hi, bob.token_lo));
  EXPECT_NE(ada.token_hi | ada.token_lo, 0u);
}

// ada's connection times out at 2 s into the race; bob plays on; ada comes back over a new connection (id 3) at
// 20 s: she gets her player id back (Welcome{1}), where her stream stands, and bob's inputs after what she had.
TEST(Resume, ADroppedRacerTakesTheirSeatBackAndGetsWhatTheyMissed) {
  RaceFixture f;
  const protocol::RaceSeat seat = f.seat_of(1);
  f.run_until(kCountdownUs + 1000 * kMs);
  f.send_input(1, 0, 1000 * kMs, {{900 * kMs, engine::button::kMoveLeft}});
  f.send_input(2, 0, 1000 * kMs, {{500 * kMs, engine::button::kMoveRight}});
  f.run_until(kCountdownUs + 2000 * kMs);
  f.lobby->disconnect(1, f.now, /*may_resume=*/true);
  EXPECT_EQ(f.lobby->player_count(), 2u);  // the seat (and the name) are kept
  for (TimeUs t = 2100; t <= 20'000; t += 100) {
    f.run_until(kCountdownUs + t * kMs);
    if (t == 10'000) {
      f.send_input(2, 1, t * kMs, {{t * kMs, 0}});
    } else {
      f.send_input(2, t < 10'000 ? 1 : 2, t * kMs);
    }
  }
  EXPECT_TRUE(f.endings(2, 1).empty()) << "ada is still racing";

  f.outbox.sent.clear();
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.9:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {{2, 1}}}),
                  f.now);
  EXPECT_EQ(f.outbox.rebinds, (std::vector<std::pair<PlayerId, PlayerId>>{{1, 3}}));
  EXPECT_EQ(f.lobby->player_count(), 2u);
  const auto welcome = f.outbox.of<protocol::Welcome>(1);
  ASSERT_EQ(welcome.size(), 1u);
  EXPECT_EQ(welcome[0].player_id, 1u);
  const auto resumed = f.outbox.of<protocol::RaceResumed>(1);
  ASSERT_EQ(resumed.size(), 1u);
  EXPECT_EQ(resumed[0], (protocol::RaceResumed{1, 1, 1000 * kMs}));
  const auto relays = f.outbox.of<protocol::RacerInputs>(1);
  ASSERT_EQ(relays.size(), 1u);
  EXPECT_EQ(relays[0], (protocol::RacerInputs{1, 2, 1, 20'000 * kMs, {{10'000 * kMs, 0}}}));

  // Her backlog arrives; she is racing, with the time away unverified (but no stall) and one reconnect.
  for (TimeUs t = 1050; t <= 20'000; t += 50) f.send_input(1, 1, t * kMs);
  f.lobby->shut_down(f.now);
  const auto results = f.outbox.of<protocol::RaceResults>(1);
  ASSERT_EQ(results.size(), 1u);
  for (const protocol::RacerResult& r : results[0].racers) {
    if (r.player_id != 1) continue;
    EXPECT_EQ(r.reconnects, 1u);
    // 1 s .. 19.25 s came more than 750 ms late (and 0 .. 250 ms with her first batch, sent at 1 s).
    EXPECT_EQ(r.unverified_us, 250 * kMs + 20'000 * kMs - 750 * kMs - 1000 * kMs);
    EXPECT_EQ(r.time_us, 20'000 * kMs);
  }
}

TEST(Resume, AWrongTokenOrRaceIsRefusedInWords) {
  RaceFixture f;
  const protocol::RaceSeat seat = f.seat_of(1);
  f.lobby->disconnect(1, f.now, true);
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.9:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo + 1, "test", {}}),
                  f.now);
  const auto reject = f.outbox.of<protocol::Reject>(3);
  ASSERT_EQ(reject.size(), 1u);
  EXPECT_EQ(reject[0].reason, protocol::RejectReason::kCannotResume);
  EXPECT_EQ(f.outbox.dropped.at(3), "no race to resume: it is over, or the seat is unknown");
  ASSERT_TRUE(f.lobby->connect(4, protocol::kProtocolVersion, "10.0.0.9:6001", f.now));
  f.lobby->handle(4, f.outbox.resume(4, "ada", protocol::Resume{2, seat.token_hi, seat.token_lo, "test", {}}), f.now);
  EXPECT_EQ(f.outbox.of<protocol::Reject>(4).size(), 1u);
  EXPECT_TRUE(f.outbox.rebinds.empty());
}

// The client may notice a dead connection before the server does: its Resume (with the secret token) from the same
// address takes the seat over at once, and the old connection is told why it closes before it is closed.
TEST(Resume, TheSeatIsTakenOverBeforeTheServerNoticedTheDrop) {
  RaceFixture f;
  const protocol::RaceSeat seat = f.seat_of(1);
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.1:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {}}), f.now);
  EXPECT_TRUE(f.outbox.of<protocol::Reject>(3).empty());
  EXPECT_EQ(f.outbox.rebinds, (std::vector<std::pair<PlayerId, PlayerId>>{{1, 3}}));
  const auto told = f.outbox.of<protocol::Disconnecting>(1);
  ASSERT_EQ(told.size(), 1u);
  EXPECT_EQ(told[0].text, "your race was resumed over another connection from 10.0.0.1:6000");
  EXPECT_EQ(f.outbox.of<protocol::RaceResumed>(1).size(), 1u);
  EXPECT_EQ(f.lobby->player_count(), 2u);
}

// A token seen once (on the network, in a log) does not open a live seat from another address: that connection is
// closed without a word (a client that really moved tries again in 2 s), the racer's connection untouched.
TEST(Resume, ALiveSeatCannotBeTakenFromAnotherAddress) {
  RaceFixture f;
  const protocol::RaceSeat seat = f.seat_of(1);
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.9:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {}}), f.now);
  EXPECT_EQ(f.outbox.closed, std::vector<PlayerId>{3});
  ASSERT_EQ(f.outbox.sent[3].size(), 1u);  // its KeyChallenge, and not a word after it
  EXPECT_TRUE(std::holds_alternative<protocol::KeyChallenge>(f.outbox.sent[3][0]));
  EXPECT_TRUE(f.outbox.rebinds.empty());
  EXPECT_TRUE(f.outbox.of<protocol::Disconnecting>(1).empty());
  EXPECT_EQ(f.outbox.dropped.count(1), 0u);
  // Once the server has seen the connection drop, the seat may be resumed from anywhere.
  f.lobby->disconnect(1, f.now, /*may_resume=*/true);
  ASSERT_TRUE(f.lobby->connect(4, protocol::kProtocolVersion, "10.0.0.9:6001", f.now));
  f.lobby->handle(4, f.outbox.resume(4, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {}}), f.now);
  EXPECT_EQ(f.outbox.rebinds, (std::vector<std::pair<PlayerId, PlayerId>>{{1, 4}}));
}

// Every resume gives the seat a new token, sent to the new connection alone: the old one opens nothing any more.
TEST(Resume, TheTokenChangesAtEveryResume) {
  RaceFixture f;
  const protocol::RaceSeat first = f.seat_of(1);
  f.lobby->disconnect(1, f.now, true);
  f.outbox.sent.clear();
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.1:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "ada", protocol::Resume{1, first.token_hi, first.token_lo, "test", {}}), f.now);
  const auto seats = f.outbox.of<protocol::RaceSeat>(1);
  ASSERT_EQ(seats.size(), 1u);
  const protocol::RaceSeat second = seats[0];
  EXPECT_EQ(second.race_id, 1u);
  EXPECT_NE(std::make_pair(second.token_hi, second.token_lo), std::make_pair(first.token_hi, first.token_lo));
  EXPECT_TRUE(f.outbox.of<protocol::RaceSeat>(2).empty());  // bob is not told

  f.lobby->disconnect(1, f.now, true);
  ASSERT_TRUE(f.lobby->connect(4, protocol::kProtocolVersion, "10.0.0.1:6001", f.now));
  f.lobby->handle(4, f.outbox.resume(4, "ada", protocol::Resume{1, first.token_hi, first.token_lo, "test", {}}), f.now);
  ASSERT_EQ(f.outbox.of<protocol::Reject>(4).size(), 1u);
  EXPECT_EQ(f.outbox.dropped.at(4), "no race to resume: it is over, or the seat is unknown");
  ASSERT_TRUE(f.lobby->connect(5, protocol::kProtocolVersion, "10.0.0.1:6002", f.now));
  f.lobby->handle(5, f.outbox.resume(5, "ada", protocol::Resume{1, second.token_hi, second.token_lo, "test", {}}),
                  f.now);
  EXPECT_TRUE(f.outbox.of<protocol::Reject>(5).empty());
  EXPECT_EQ(f.outbox.rebinds.back(), (std::pair<PlayerId, PlayerId>{1, 5}));
}

// One who closed the connection on purpose has no seat kept.
TEST(Resume, LeavingOnPurposeKeepsNoSeat) {
  RaceFixture f;
  const protocol::RaceSeat seat = f.seat_of(1);
  f.lobby->disconnect(1, f.now, /*may_resume=*/false);
  EXPECT_EQ(f.lobby->player_count(), 1u);
  const auto ended = f.endings(2, 1);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].status, protocol::RacerStatus::kDisconnected);
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.9:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {}}), f.now);
  EXPECT_EQ(f.outbox.of<protocol::Reject>(3).size(), 1u);
}

// Nobody came back within 60 s: the seat is given up, the racer ends as did-not-finish with what arrived, and the
// name is free again.
TEST(Resume, ASeatIsGivenUpAfterSixtySeconds) {
  RaceFixture f;
  f.run_until(kCountdownUs + 500 * kMs);
  f.send_input(1, 0, 500 * kMs);
  f.lobby->disconnect(1, f.now, true);
  const TimeUs dropped_at = f.now;
  f.run_until(dropped_at + 60'000'000);
  EXPECT_EQ(f.lobby->player_count(), 2u);
  EXPECT_TRUE(f.endings(2, 1).empty());
  f.run_until(dropped_at + 60'000'000 + 10 * kMs);
  EXPECT_EQ(f.lobby->player_count(), 1u);
  const auto ended = f.endings(2, 1);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].player_id, 1u);
  EXPECT_EQ(ended[0].status, protocol::RacerStatus::kDisconnected);
  EXPECT_EQ(ended[0].time_us, 500 * kMs);
}

// The window is for all drops of one race together: 40 s away, back, then dropped again, the seat is kept 20 s more.
TEST(Resume, TheSeatWindowCoversAllDropsOfARace) {
  RaceFixture f;
  f.run_until(kCountdownUs + 500 * kMs);
  f.send_input(1, 0, 500 * kMs);
  const protocol::RaceSeat seat = f.seat_of(1);
  f.lobby->disconnect(1, f.now, true);
  f.run_until(f.now + 40'000 * kMs);
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.9:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {{2, 0}}}),
                  f.now);
  ASSERT_EQ(f.outbox.of<protocol::RaceResumed>(1).size(), 1u);
  f.run_until(f.now + 5'000 * kMs);
  f.lobby->disconnect(1, f.now, true);
  const TimeUs dropped_again = f.now;
  f.run_until(dropped_again + 20'000 * kMs);
  EXPECT_EQ(f.lobby->player_count(), 2u);
  EXPECT_TRUE(f.endings(2, 1).empty());
  f.run_until(dropped_again + 20'000 * kMs + 10 * kMs);
  EXPECT_EQ(f.lobby->player_count(), 1u);
  const auto ended = f.endings(2, 1);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].status, protocol::RacerStatus::kDisconnected);
}

}  // namespace
}  // namespace sr::server
