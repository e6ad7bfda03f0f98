// Lists full of the smallest possible elements must decode: the decoder's "count fits the bytes left" bound
// (record_fields.h kMin*Bytes) must never reject a valid message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/protocol/codec.h"
#include "tests/protocol/samples.h"

namespace sr::protocol {
namespace {

engine::Handling zero_handling() { return engine::Handling{0, 0, 0, 0, 0, 0, false, false}; }

engine::GameConfig minimal_config() {
  engine::GameConfig c;
  c.limit = engine::LimitKind::kNone;
  c.limit_value = 0;
  c.handling = zero_handling();
  return c;
}

ModeSummary zero_mode() { return {engine::ModeKind::kSprint, engine::LimitKind::kNone, 0, engine::GoalKind::kTime}; }

std::vector<Message> minimal_lists() {
  std::vector<Message> out;
  const auto id = [](std::size_t i) { return static_cast<std::uint32_t>(i + 1); };  // ids 1..127: one byte
  const auto name = [](std::size_t i) { return std::string(1, static_cast<char>('!' + i % 90)); };

  RoomList rooms;
  for (std::size_t i = 0; i < kMaxRoomsListed; ++i) rooms.rooms.push_back({1, "r", zero_mode(), 0, 1, 0});
  out.push_back(rooms);

  RoomInfo room;
  room.room_id = 1;
  room.settings = {"r", minimal_config(), 1, false, false};
  room.host_id = 1;
  // Player ids 1..127 take one byte, so every member here has the smallest encoding (5 bytes).
  for (std::size_t i = 0; i < 127; ++i) {
    room.members.push_back({id(i), "m", i == 0 ? Role::kRacer : Role::kSpectator, false});
  }
  out.push_back(RoomUpdate{room});
  while (room.members.size() < kMaxRoomMembers) {
    room.members.push_back({id(room.members.size()), "m", Role::kSpectator, false});
  }
  out.push_back(RoomUpdate{room});

  std::vector<RaceEntrant> entrants;
  LiveStats live{1, 0, {}};
  RaceResults results{1, RaceEndReason::kAllDone, 0, {}};
  CatchUpStart catch_up{1, 0, minimal_config(), 0, 0, {}};
  for (std::size_t i = 0; i < kMaxRacers; ++i) {
    entrants.push_back({id(i), name(i), zero_handling()});
    live.racers.push_back({id(i), RacerStatus::kRacing, 0, 0, 0, 0, 0, 0, 0});
    results.racers.push_back({id(i), name(i), 0, RacerStatus::kRacing, 0, 0, 0, 0, 0, 0});
    catch_up.racers.push_back({entrants.back(), RacerStatus::kRacing, 0, 0});
  }
  out.push_back(CountdownStart{1, 0, 0, 0, minimal_config(), entrants});
  out.push_back(live);
  out.push_back(results);
  out.push_back(catch_up);

  out.push_back(RaceInput{1, 0, 0, std::vector<engine::InputChange>(kMaxInputsPerBatch)});
  out.push_back(RacerInputs{1, 1, 0, 0, std::vector<engine::InputChange>(kMaxInputsPerRelay)});

  GameList games;
  for (std::size_t i = 0; i < kMaxGamesListed; ++i) {
    games.games.push_back({1, 0, zero_mode(), 0, {{"a", 0, RacerStatus::kRacing, 0, 0, 0}}});
  }
  out.push_back(games);

  Ladder ladder{kMaxLadderRankedGames, kMaxLadderCountedBest, static_cast<std::uint32_t>(kMaxLadderRows), {}};
  for (std::size_t i = 0; i < kMaxLadderRows; ++i) ladder.rows.push_back({name(i), 0, {}});
  ladder.rows[0] = {"a", kMaxLadderRankedGames, std::vector<LadderGame>(kMaxLadderCountedBest)};
  out.push_back(ladder);

  engine::GameConfig fixed = minimal_config();
  fixed.generator = engine::GeneratorKind::kFixed;
  fixed.fixed_sequence.assign(kMaxFixedSequence, engine::Piece::kI);
  out.push_back(SetHandling{zero_handling()});
  out.push_back(ChangeSettings{RoomSettings{"r", fixed, 1, false, false}});
  return out;
}

TEST(MinimalElements, FullListsOfSmallestElementsDecode) {
  for (const Message& m : minimal_lists()) {
    SCOPED_TRACE(message_name(message_id(m)));
    ASSERT_TRUE(validate(m).ok()) << validate(m).error().message;
    const DecodeResult r = decode(encode(m));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r.value(), m);
  }
}

}  // namespace
}  // namespace sr::protocol
