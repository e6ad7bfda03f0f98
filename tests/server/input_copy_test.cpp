// Input copies (PROTOCOL.md "Input copies") at the lobby: a RaceInputCopy that gets there ahead of the RaceInputs it
// repeats is applied, the RaceInputs are then skipped, a copy that would leave a gap is ignored, and each racer
// hears what the server holds of its stream.
#include <gtest/gtest.h>

#include <vector>

#include "tests/server/lobby_race_fixture.h"

namespace sr::server {
namespace {

using engine::button::kMoveLeft;
using engine::button::kMoveRight;
using lobby_test::kCountdownUs;
using lobby_test::kMs;
using lobby_test::RaceFixture;

protocol::RaceInputCopy copy_of(std::uint32_t first_seq, TimeUs now_us, std::vector<engine::InputChange> changes) {
  return {1, first_seq, now_us, std::move(changes)};
}

TEST(InputCopies, ACopyAheadOfAHeldInputIsAppliedAndTheInputIsThenSkipped) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  // ada's RaceInputs of 400 and 500 ms are held back; the copy sent with the second gets through.
  f.lobby->handle(1, copy_of(0, 500 * kMs, {{400 * kMs, kMoveLeft}, {500 * kMs, 0}}), f.now);
  EXPECT_TRUE(f.outbox.of<protocol::RacerInputs>(2).empty());  // they go out together, at the room's relay time
  EXPECT_TRUE(f.outbox.of<protocol::RaceInputAck>(1).empty());
  f.relay();
  auto relays = f.outbox.of<protocol::RacerInputs>(2);
  ASSERT_EQ(relays.size(), 1u);
  EXPECT_EQ(relays[0].first_seq, 0u);
  EXPECT_EQ(relays[0].now_us, 500 * kMs);
  EXPECT_EQ(relays[0].changes, (std::vector<engine::InputChange>{{400 * kMs, kMoveLeft}, {500 * kMs, 0}}));
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1), (std::vector<protocol::RaceInputAck>{{1, 2}}));

  // The held RaceInputs arrive: nothing new, nobody dropped, nothing relayed again.
  f.run_until(kCountdownUs + 900 * kMs);
  f.send_input(1, 0, 400 * kMs, {{400 * kMs, kMoveLeft}});
  f.send_input(1, 1, 500 * kMs, {{500 * kMs, 0}});
  f.relay();
  EXPECT_TRUE(f.outbox.dropped.empty());
  EXPECT_EQ(f.outbox.of<protocol::RacerInputs>(2).size(), 1u);
  // The stream goes on from where the copy left it.
  f.send_input(1, 2, 900 * kMs, {{850 * kMs, kMoveRight}});
  f.relay();
  relays = f.outbox.of<protocol::RacerInputs>(2);
  ASSERT_EQ(relays.size(), 2u);
  EXPECT_EQ(relays[1].first_seq, 2u);
  EXPECT_EQ(relays[1].now_us, 900 * kMs);
  EXPECT_TRUE(f.outbox.dropped.empty());
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1).back(), (protocol::RaceInputAck{1, 3}));
}

TEST(InputCopies, ACopyOverlappingWhatTheServerHasAddsOnlyTheRest) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.send_input(1, 0, 400 * kMs, {{400 * kMs, kMoveLeft}});
  f.relay();
  f.lobby->handle(1, copy_of(0, 550 * kMs, {{400 * kMs, kMoveLeft}, {500 * kMs, 0}}), f.now);
  f.relay();
  const auto relays = f.outbox.of<protocol::RacerInputs>(2);
  ASSERT_EQ(relays.size(), 2u);
  EXPECT_EQ(relays[1].first_seq, 1u);
  EXPECT_EQ(relays[1].changes, (std::vector<engine::InputChange>{{500 * kMs, 0}}));
  EXPECT_EQ(relays[1].now_us, 550 * kMs);
  EXPECT_TRUE(f.outbox.dropped.empty());
}

// A copy after a lost one may start past what the server has: it is ignored (the RaceInputs fill the gap), while a
// RaceInput with a gap is still a broken stream.
TEST(InputCopies, ACopyThatWouldLeaveAGapIsIgnoredButARaceInputWithOneIsNot) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.lobby->handle(1, copy_of(2, 550 * kMs, {{500 * kMs, kMoveLeft}}), f.now);
  f.relay();
  EXPECT_TRUE(f.outbox.of<protocol::RacerInputs>(2).empty());
  EXPECT_TRUE(f.outbox.dropped.empty());
  f.send_input(1, 2, 550 * kMs, {{500 * kMs, kMoveLeft}});
  EXPECT_EQ(f.outbox.dropped.at(1), "input sequence has a gap");
}

// A copy that starts before what the server holds shows the racer missed an ack: it is sent again.
TEST(InputCopies, ACopyOfAcknowledgedChangesGetsTheAckAgain) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.send_input(1, 0, 400 * kMs, {{400 * kMs, kMoveLeft}});
  f.relay();
  ASSERT_EQ(f.outbox.of<protocol::RaceInputAck>(1).size(), 1u);
  f.lobby->handle(1, copy_of(0, 400 * kMs, {{400 * kMs, kMoveLeft}}), f.now);
  f.relay();
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1), (std::vector<protocol::RaceInputAck>{{1, 1}, {1, 1}}));
  // A copy that has nothing to acknowledge again (from what the server has) gets no answer.
  f.lobby->handle(1, copy_of(1, 400 * kMs, {}), f.now);
  f.relay();
  EXPECT_EQ(f.outbox.of<protocol::RaceInputAck>(1).size(), 2u);
}

// Copies may trail a racer who left the room: ignored, unlike a RaceInput from nowhere.
TEST(InputCopies, ACopyFromAPlayerInNoRoomIsIgnored) {
  RaceFixture f;
  f.run_until(kCountdownUs + 600 * kMs);
  f.lobby->handle(1, protocol::LeaveRoom{}, f.now);
  f.lobby->handle(1, copy_of(0, 550 * kMs, {{500 * kMs, kMoveLeft}}), f.now);
  EXPECT_TRUE(f.outbox.dropped.empty());
}

}  // namespace
}  // namespace sr::server
