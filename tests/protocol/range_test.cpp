// Values outside their documented ranges, and fields that contradict each other, fail to decode.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "common/protocol/byte_io.h"
#include "common/protocol/codec.h"
#include "tests/protocol/samples.h"

namespace sr::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

DecodeErrorCode code_of(const Bytes& bytes) {
  const DecodeResult r = decode(bytes);
  EXPECT_FALSE(r.ok());
  return r.ok() ? DecodeErrorCode{} : r.error().code;
}

// The code validate() gives for `m` after `change` (decode gives the same for the bytes).
template <class T>
DecodeErrorCode code_after(std::function<void(T&)> change) {
  T m = testing::sample<T>();
  change(m);
  const sr::Status<DecodeError> e = validate(m);
  EXPECT_FALSE(e.ok());
  return e.ok() ? DecodeErrorCode{} : e.error().code;
}

TEST(OutOfRange, EnumsAndBoolsPastTheirLastValue) {
  EXPECT_EQ(code_of({0x15, 0x02}), DecodeErrorCode::kOutOfRange);              // SetRole role 2
  EXPECT_EQ(code_of({0x14, 0x02}), DecodeErrorCode::kOutOfRange);              // SetReady bool 2
  EXPECT_EQ(code_of({0x07, 0x00, 0x33, 0x00}), DecodeErrorCode::kOutOfRange);  // Notice about id 51
  EXPECT_EQ(code_of({0x07, 0x11, 0x00, 0x00}), DecodeErrorCode::kOutOfRange);  // Notice code 17
  EXPECT_TRUE(decode(Bytes{0x07, 0x10, 0x32, 0x00}).ok());                     // last code, last id (50)
}

TEST(OutOfRange, IdsAndWidths) {
  EXPECT_EQ(code_of({0x16, 0x00}), DecodeErrorCode::kOutOfRange);                          // KickPlayer player_id 0
  EXPECT_EQ(code_of({0x16, 0x80, 0x80, 0x80, 0x80, 0x10}), DecodeErrorCode::kOutOfRange);  // 2^32
  EXPECT_TRUE(decode(Bytes{0x16, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F}).ok());                     // 2^32 - 1
}

TEST(OutOfRange, MessageFields) {
  EXPECT_EQ(code_after<RacerEnded>([](auto& m) { m.status = RacerStatus::kRacing; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<RacerEnded>([](auto& m) { m.place = 17; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<RacerEnded>([](auto& m) { m.time_us = kMaxTimeUs + 1; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<RacerEnded>([](auto& m) { m.time_us = -1; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<CreateRoom>([](auto& m) { m.settings.max_racers = 0; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<CreateRoom>([](auto& m) { m.settings.max_racers = 17; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<CreateRoom>([](auto& m) { m.settings.stall_budget_s = 61; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<ListGames>([](auto& m) { m.limit = 0; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<ListGames>([](auto& m) { m.limit = kMaxGamesListed + 1; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<CountdownStart>([](auto& m) { m.countdown_us = kMaxCountdownUs + 1; }),
            DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<CountdownStart>([](auto& m) { m.racers.clear(); }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<LiveStats>([](auto& m) { m.racers[0].score = -1; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<RaceInput>([](auto& m) { m.changes[1].buttons = 0x100; }), DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<JoinRoom>([](auto& m) { m.code = "ABCD1O"; }), DecodeErrorCode::kBadText);  // no 1, O
}

TEST(OutOfRange, GameConfigGoesThroughConfigError) {
  EXPECT_EQ(code_after<ChangeSettings>([](auto& m) { m.settings.config.start_level = 0; }),
            DecodeErrorCode::kInvalidConfig);
  EXPECT_EQ(code_after<ChangeSettings>([](auto& m) { m.settings.config.handling.das_us = -1; }),
            DecodeErrorCode::kInvalidConfig);
  EXPECT_EQ(
      code_after<ChangeSettings>([](auto& m) { m.settings.config.initial_board[0].assign(10, engine::Piece::kO); }),
      DecodeErrorCode::kInvalidConfig);  // a full row
  EXPECT_EQ(code_after<ChangeSettings>([](auto& m) { m.settings.config.initial_board[0].resize(9); }),
            DecodeErrorCode::kOutOfRange);  // rows have exactly 10 cells
  EXPECT_EQ(code_after<ChangeSettings>([](auto& m) { m.settings.config.fixed_sequence[0] = engine::Piece::kGarbage; }),
            DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<ChangeSettings>([](auto& m) { m.settings.config.fixed_sequence.clear(); }),
            DecodeErrorCode::kInvalidConfig);  // kFixed needs pieces
  EXPECT_EQ(code_after<ChangeSettings>(
                [](auto& m) { m.settings.config.fixed_sequence.assign(kMaxFixedSequence + 1, engine::Piece::kI); }),
            DecodeErrorCode::kTooLong);
  EXPECT_EQ(
      code_after<ChangeSettings>([](auto& m) { m.settings.config.rotation = static_cast<engine::RotationSystem>(4); }),
      DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(code_after<SetHandling>([](auto& m) { m.handling.sdf = 1001; }), DecodeErrorCode::kInvalidConfig);

  const sr::Status<DecodeError> e = validate(SetHandling{engine::Handling{.das_us = 2'000'001}});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, "SetHandling.handling: das_us is 2000001, must be 0..2000000 (byte 1)");
}

TEST(Inconsistent, FieldsThatContradictEachOther) {
  constexpr auto kInconsistent = DecodeErrorCode::kInconsistent;
  EXPECT_EQ(code_after<JoinRoom>([](auto& m) { m.room_id = 5; }), kInconsistent);   // id and code
  EXPECT_EQ(code_after<JoinRoom>([](auto& m) { m.code.clear(); }), kInconsistent);  // neither
  EXPECT_EQ(code_after<RaceInput>([](auto& m) { m.now_us = m.changes.back().time_us - 1; }), kInconsistent);
  EXPECT_EQ(code_after<RaceInput>([](auto& m) { std::swap(m.changes[1], m.changes[2]); }), kInconsistent);
  EXPECT_EQ(code_after<RaceInput>([](auto& m) { m.first_seq = 0xFFFFFFFF; }), kInconsistent);
  EXPECT_EQ(code_after<RoomJoined>([](auto& m) { m.room.host_id = 1000; }), kInconsistent);
  EXPECT_EQ(code_after<RoomJoined>([](auto& m) { m.room.members[2].ready = true; }), kInconsistent);
  EXPECT_EQ(code_after<RoomJoined>([](auto& m) { m.room.members[1].player_id = 12; }), kInconsistent);
  EXPECT_EQ(code_after<RoomJoined>([](auto& m) { m.room.settings.max_racers = 1; }), kInconsistent);
  EXPECT_EQ(code_after<RoomJoined>([](auto& m) { m.room.code.clear(); }), kInconsistent);  // private needs code
  EXPECT_EQ(code_after<RoomList>([](auto& m) { m.rooms[0].racers = 9; }), kInconsistent);
  EXPECT_EQ(code_after<CountdownStart>([](auto& m) { m.racers[1].player_id = 12; }), kInconsistent);
  EXPECT_EQ(code_after<ReplayChunk>([](auto& m) { m.offset = m.total_bytes - 1; }), kInconsistent);
  EXPECT_EQ(code_after<ReplayChunk>([](auto& m) { m.data.clear(); }), kInconsistent);
}

TEST(Inconsistent, InputTimesCannotPassTheMaximum) {
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::kRaceInput));
  w.varint(1);                                       // race_id
  w.varint(0);                                       // first_seq
  w.varint(static_cast<std::uint64_t>(kMaxTimeUs));  // now_us
  w.varint(2);                                       // 2 changes
  w.varint(static_cast<std::uint64_t>(kMaxTimeUs));  // [0] at the maximum
  w.varint(0);
  w.varint(1);  // [1] one past it
  w.varint(0);
  const DecodeResult r = decode(w.take());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, DecodeErrorCode::kOutOfRange);
  EXPECT_NE(r.error().message.find("RaceInput.changes[1].time_us"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace sr::protocol
