// The limits in messages.h agree with each other, and the message table is complete.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/protocol/codec.h"
#include "common/protocol/detail/enum_ranges.h"
#include "tests/protocol/samples.h"
#include "tests/support/status.h"

namespace sr::protocol {
namespace {

TEST(Limits, WorstCaseMessagesFitTheSizeLimit) {
  std::set<MessageId> covered;
  for (const Message& m : testing::worst_case_samples()) {
    const auto bytes = encode(m);
    EXPECT_LE(bytes.size(), kMaxMessageBytes) << message_name(message_id(m));
    covered.insert(message_id(m));
  }
  // Every message holding a list is among the worst cases.
  for (MessageId id : {MessageId::kRoomList, MessageId::kRoomJoined, MessageId::kCountdownStart, MessageId::kRaceInput,
                       MessageId::kRacerInputs, MessageId::kLiveStats, MessageId::kRaceResults,
                       MessageId::kCatchUpStart, MessageId::kGameList, MessageId::kReplayChunk}) {
    EXPECT_TRUE(covered.count(id)) << message_name(id);
  }
}

TEST(Limits, OneMoreThanTheLimitFails) {
  RaceInput batch = testing::sample<RaceInput>();
  batch.first_seq = 0;
  batch.changes.assign(kMaxInputsPerBatch + 1, engine::InputChange{0, 0});
  ASSERT_FALSE(validate(batch).ok());
  EXPECT_EQ(validate(batch).error().code, DecodeErrorCode::kTooLong);

  RoomList list = testing::sample<RoomList>();
  list.rooms.assign(kMaxRoomsListed + 1, list.rooms[0]);
  EXPECT_EQ(validate(list).error().code, DecodeErrorCode::kTooLong);

  RoomJoined joined{testing::sample_room()};
  while (joined.room.members.size() <= kMaxRoomMembers) {
    const auto id = static_cast<std::uint32_t>(1000 + joined.room.members.size());
    joined.room.members.push_back({id, "spectator", Role::kSpectator, false});
  }
  EXPECT_EQ(validate(joined).error().code, DecodeErrorCode::kTooLong);

  GameList games = testing::sample<GameList>();
  games.games.assign(kMaxGamesListed + 1, games.games[0]);
  EXPECT_EQ(validate(games).error().code, DecodeErrorCode::kTooLong);
}

TEST(Limits, ChunkLimitsLeaveRoomForHeaders) {
  static_assert(kMaxReplayChunkBytes + 64 <= kMaxMessageBytes, "a replay chunk and its header fit one message");
  // A relayed change takes at most 6 bytes of time delta and 2 of buttons.
  static_assert(kMaxInputsPerRelay * 8 + 64 <= kMaxMessageBytes, "a full relay fits one message");
  SUCCEED();
}

TEST(MessageTable, NamesChannelsAndSenders) {
  std::set<std::string> names;
  for (std::uint8_t id = 1; is_message_id(id); ++id) {
    const auto m = static_cast<MessageId>(id);
    names.insert(message_name(m));
    EXPECT_LT(message_channel(m), kChannelCount);
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(MessageId::kCount) - 1);
  EXPECT_STREQ(message_name(MessageId::kCount), "Unknown");
  EXPECT_EQ(message_sender(MessageId::kHello), Sender::kClient);
  EXPECT_EQ(message_sender(MessageId::kReject), Sender::kServer);
  EXPECT_EQ(message_sender(MessageId::kPing), Sender::kEither);
  EXPECT_EQ(message_channel(MessageId::kRaceInput), kChannelRace);
  EXPECT_EQ(message_channel(MessageId::kLiveStats), kChannelLive);
  EXPECT_FALSE(channel_reliable(message_channel(MessageId::kLiveStats)));
  EXPECT_TRUE(channel_reliable(message_channel(MessageId::kRaceInput)));
  EXPECT_EQ(message_channel(MessageId::kRaceInputCopy), kChannelRaceFast);
  EXPECT_EQ(message_channel(MessageId::kRaceInputAck), kChannelRaceFast);
  EXPECT_FALSE(channel_reliable(kChannelRaceFast)) << "a copy must never wait for a retransmission";
  EXPECT_EQ(message_channel(MessageId::kReplayChunk), kChannelBulk);
  EXPECT_EQ(message_channel(MessageId::kReplayNotStored), message_channel(MessageId::kRaceResults))
      << "the store's verdict must follow the results in order";
  EXPECT_EQ(message_channel(MessageId::kLadderEnter), kChannelControl);
  EXPECT_EQ(message_sender(MessageId::kLadderEnter), Sender::kClient);
  EXPECT_EQ(message_sender(MessageId::kLadder), Sender::kServer);
  EXPECT_EQ(message_channel(MessageId::kCatchUpStart), message_channel(MessageId::kRacerInputs))
      << "catch-up must stay ordered with live relays";
}

TEST(MessageTable, ARouteIsTheMessagesOwnChannelFromASideThatMaySendIt) {
  const auto route = [](MessageId id, std::uint8_t channel, Sender from) -> std::string {
    const auto checked = check_route(id, channel, from);
    return checked ? "ok" : checked.error();
  };
  EXPECT_EQ(route(MessageId::kHello, kChannelControl, Sender::kClient), "ok");
  EXPECT_EQ(route(MessageId::kWelcome, kChannelControl, Sender::kServer), "ok");
  EXPECT_EQ(route(MessageId::kPing, kChannelControl, Sender::kClient), "ok");
  EXPECT_EQ(route(MessageId::kPing, kChannelControl, Sender::kServer), "ok");
  EXPECT_EQ(route(MessageId::kLiveStats, kChannelLive, Sender::kServer), "ok");
  EXPECT_EQ(route(MessageId::kRaceInputAck, kChannelRaceFast, Sender::kServer), "ok");

  EXPECT_EQ(route(MessageId::kWelcome, kChannelRace, Sender::kServer), "Welcome on channel 1, not 0");
  EXPECT_EQ(route(MessageId::kWelcome, kChannelControl, Sender::kClient), "clients may not send Welcome");
  EXPECT_EQ(route(MessageId::kHello, kChannelControl, Sender::kServer), "servers may not send Hello");
  // The side is judged first: a message from the wrong side is that, whatever its channel.
  EXPECT_EQ(route(MessageId::kRaceInput, kChannelLive, Sender::kServer), "servers may not send RaceInput");
}

TEST(MessageTable, FrozenIds) {
  EXPECT_EQ(static_cast<int>(MessageId::kReject), 3);
  EXPECT_EQ(static_cast<int>(RejectReason::kVersionMismatch), 1);
  EXPECT_EQ(kProtocolVersion, 9u);
}

// The decoder's last accepted value of each engine enum must be the engine's last value: a new engine value
// fails here until enum_ranges.h (and PROTOCOL.md) learn it.
TEST(EnumRanges, EngineEnumsEndWhereConfigErrorSays) {
  engine::GameConfig c;
  c.mode = static_cast<engine::ModeKind>(static_cast<int>(detail::last_value(engine::ModeKind{})) + 1);
  EXPECT_FALSE(engine::check_config(c).ok());
  c = {};
  c.mode = detail::last_value(engine::ModeKind{});
  c.limit = detail::last_value(engine::LimitKind{});
  c.goal = detail::last_value(engine::GoalKind{});
  c.rotation = detail::last_value(engine::RotationSystem{});
  c.gravity = detail::last_value(engine::Gravity{});
  c.goal_system = detail::last_value(engine::GoalSystem{});
  c.lock_down = detail::last_value(engine::LockDown{});
  c.scoring = detail::last_value(engine::Scoring{});
  EXPECT_EQ(sr::test::problem_of(engine::check_config(c)), std::nullopt);
  for (auto bump : {+[](engine::GameConfig& g) { g.limit = static_cast<engine::LimitKind>(6); },
                    +[](engine::GameConfig& g) { g.goal = static_cast<engine::GoalKind>(3); },
                    +[](engine::GameConfig& g) { g.rotation = static_cast<engine::RotationSystem>(4); },
                    +[](engine::GameConfig& g) { g.generator = static_cast<engine::GeneratorKind>(4); },
                    +[](engine::GameConfig& g) { g.gravity = static_cast<engine::Gravity>(2); },
                    +[](engine::GameConfig& g) { g.goal_system = static_cast<engine::GoalSystem>(2); },
                    +[](engine::GameConfig& g) { g.lock_down = static_cast<engine::LockDown>(4); },
                    +[](engine::GameConfig& g) { g.scoring = static_cast<engine::Scoring>(3); }}) {
    engine::GameConfig g;
    bump(g);
    EXPECT_FALSE(engine::check_config(g).ok());
  }
  EXPECT_EQ(detail::last_value(engine::Piece{}), engine::Piece::kGarbage);
}

}  // namespace
}  // namespace sr::protocol
