// The biggest message of each kind that carries a list or long text: every count and string at its limit and
// every number at its widest encoding. limits_test checks they all fit kMaxMessageBytes.
#include <limits>
#include <string>

#include "common/protocol/text.h"
#include "tests/protocol/samples.h"

namespace sr::protocol::testing {
namespace {

constexpr std::uint32_t kU32Max = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::int64_t kI64Max = std::numeric_limits<std::int64_t>::max();

std::string name_of(std::size_t length, std::size_t i) {
  std::string s(length, 'W');
  s[0] = static_cast<char>('A' + i % 26);
  s[1] = static_cast<char>('A' + i / 26 % 26);
  return s;
}

engine::Handling widest_handling() {
  engine::Handling h;
  h.das_us = 2'000'000;
  h.arr_us = 1'000'000;
  h.sdf = 1000;
  h.dcd_us = 1'000'000;
  h.are_us = 2'000'000;
  h.line_clear_delay_us = 2'000'000;
  return h;
}

engine::GameConfig widest_config() {
  engine::GameConfig c = sample_config();
  c.limit = engine::LimitKind::kScore;
  c.limit_value = 1'000'000'000'000;
  c.fixed_sequence.assign(kMaxFixedSequence, engine::Piece::kT);
  engine::BoardRow row(engine::kMatrixWidth, engine::Piece::kGarbage);
  row[4] = engine::Piece::kNone;
  c.initial_board.assign(engine::kMatrixHeight, row);
  c.handling = widest_handling();
  c.start_level = 30;
  c.lock_delay_us = 10'000'000;
  c.max_lock_resets = 1000;
  c.ground_time_cap_us = 60'000'000;
  return c;
}

ModeSummary widest_mode() {
  return {engine::ModeKind::kCustom, engine::LimitKind::kLines, 1'000'000'000'000, engine::GoalKind::kLines};
}

RoomInfo widest_room() {
  RoomInfo r;
  r.room_id = kU32Max;
  r.settings = {name_of(kMaxRoomNameBytes, 0), widest_config(), kMaxRacers, true, true, kMaxStallBudgetS};
  r.code = "ZZZZZZ";
  r.host_id = kU32Max;
  r.phase = RoomPhase::kRacing;
  r.race_id = kU32Max;
  for (std::size_t i = 0; i < kMaxRoomMembers; ++i) {
    const bool racer = i < kMaxRacers;
    r.members.push_back({kU32Max - static_cast<std::uint32_t>(i), name_of(kMaxPlayerNameBytes, i),
                         racer ? Role::kRacer : Role::kSpectator, racer});
  }
  return r;
}

std::vector<RaceEntrant> widest_entrants() {
  std::vector<RaceEntrant> out;
  for (std::size_t i = 0; i < kMaxRacers; ++i) {
    out.push_back({kU32Max - static_cast<std::uint32_t>(i), name_of(kMaxPlayerNameBytes, i), widest_handling()});
  }
  return out;
}

// n changes whose deltas take the widest varints that still sum to at most kMaxTimeUs.
std::vector<engine::InputChange> widest_changes(std::size_t n) {
  const engine::TimeUs step = kMaxTimeUs / static_cast<engine::TimeUs>(n);
  std::vector<engine::InputChange> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back({step * static_cast<engine::TimeUs>(i + 1), engine::button::kAll});
  return out;
}

}  // namespace

std::vector<Message> worst_case_samples() {
  std::vector<Message> out;
  // The longest web URL: "https://" (8), a 60-byte host, ":65535" (6), then a path to kMaxWebUrlBytes.
  const std::string web_url = "https://" + std::string(60, 'h') + ":65535/" + std::string(kMaxWebUrlBytes - 75, 'p');
  out.push_back(Welcome{kU32Max, name_of(kMaxServerNameBytes, 0), std::string(kMaxMotdBytes, 'm'), 65535, web_url});
  out.push_back(Reject{RejectReason::kBadHello, kU32Max, std::string(kMaxReasonBytes, 'r')});
  out.push_back(Chat{ChatScope::kRoom, kU32Max, name_of(kMaxPlayerNameBytes, 0), std::string(kMaxChatBytes, 'c')});

  RoomList list{kU32Max, kU32Max, {}};
  for (std::size_t i = 0; i < kMaxRoomsListed; ++i) {
    list.rooms.push_back({kU32Max, name_of(kMaxRoomNameBytes, i), widest_mode(), kMaxRacers, kMaxRacers,
                          static_cast<std::uint32_t>(kMaxRoomMembers), RoomPhase::kResults, true});
  }
  out.push_back(list);
  out.push_back(RoomJoined{widest_room()});
  out.push_back(ChangeSettings{widest_room().settings});

  out.push_back(CountdownStart{kU32Max, kU64Max, kMaxCountdownUs, kU64Max, widest_config(), widest_entrants()});
  out.push_back(RaceInput{kU32Max, kU32Max - static_cast<std::uint32_t>(kMaxInputsPerBatch), kMaxTimeUs,
                          widest_changes(kMaxInputsPerBatch)});
  out.push_back(RacerInputs{kU32Max, kU32Max, kU32Max - static_cast<std::uint32_t>(kMaxInputsPerRelay), kMaxTimeUs,
                            widest_changes(kMaxInputsPerRelay)});

  LiveStats live{kU32Max, kMaxTimeUs, {}};
  RaceResults results{kU32Max, RaceEndReason::kAborted, kMaxTimeUs, {}};
  CatchUpStart catch_up{kU32Max, kU64Max, widest_config(), kMaxTimeUs, kU32Max, {}};
  const auto entrants = widest_entrants();
  for (std::size_t i = 0; i < kMaxRacers; ++i) {
    const std::uint32_t id = entrants[i].player_id;
    const auto place = static_cast<std::uint8_t>(kMaxRacers);
    live.racers.push_back(
        {id, RacerStatus::kUnfinished, place, kMaxTimeUs, kI64Max, kI64Max, kI64Max, kI64Max, kU32Max});
    results.racers.push_back({id, entrants[i].name, place, RacerStatus::kUnfinished, kMaxTimeUs, kI64Max, kI64Max,
                              kI64Max, kU32Max, kU32Max, kMaxTimeUs, kU32Max});
    catch_up.racers.push_back({entrants[i], RacerStatus::kUnfinished, kMaxTimeUs, place});
  }
  out.push_back(live);
  out.push_back(results);
  out.push_back(catch_up);
  out.push_back(RacerEnded{kU32Max, kU32Max, RacerStatus::kRemoved, kMaxTimeUs, static_cast<std::uint8_t>(kMaxRacers),
                           std::string(kMaxReasonBytes, 'r')});
  out.push_back(ReplayNotStored{kU32Max, std::string(kMaxReasonBytes, 'r')});
  out.push_back(LadderEnter{name_of(kMaxPlayerNameBytes, 0), true, LadderSecret{kU64Max, kU64Max}});
  Ladder ladder{kMaxLadderRankedGames, kMaxLadderCountedBest, kU32Max, {}};
  for (std::size_t r = 0; r < kMaxLadderRows; ++r) {
    LadderRow row{name_of(kMaxPlayerNameBytes, r), kMaxLadderRankedGames, {}};
    for (std::size_t g = 0; g < kMaxLadderCountedBest; ++g) row.best.push_back({kU64Max, kI64Max, kI64Max});
    ladder.rows.push_back(row);
  }
  out.push_back(ladder);

  GameList games{GameListKind::kRecent, name_of(kMaxPlayerNameBytes, 0), {}};
  for (std::size_t g = 0; g < kMaxGamesListed; ++g) {
    GameSummary s{kU64Max, std::numeric_limits<std::int64_t>::min(), widest_mode(), kMaxTimeUs, {}};
    for (std::size_t i = 0; i < kMaxRacers; ++i) {
      s.racers.push_back({name_of(kMaxPlayerNameBytes, i), static_cast<std::uint8_t>(kMaxRacers),
                          RacerStatus::kUnfinished, kMaxTimeUs, kI64Max, kI64Max});
    }
    games.games.push_back(s);
  }
  out.push_back(games);
  Resume resume{kU32Max, kU64Max, kU64Max, name_of(kMaxClientVersionBytes, 0), {}};
  for (std::size_t i = 0; i < kMaxRacers; ++i) resume.boards.push_back({entrants[i].player_id, kU32Max});
  out.push_back(resume);
  out.push_back(ReplayChunk{kU64Max, kMaxReplayBytes,
                            kMaxReplayBytes - static_cast<std::uint32_t>(kMaxReplayChunkBytes),
                            std::vector<std::uint8_t>(kMaxReplayChunkBytes, 0xAB)});
  return out;
}

}  // namespace sr::protocol::testing
