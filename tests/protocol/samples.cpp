#include "tests/protocol/samples.h"

#include <string>

namespace sr::protocol::testing {

using engine::Piece;

engine::Handling sample_handling() {
  engine::Handling h;
  h.das_us = 100'000;
  h.arr_us = 0;
  h.sdf = 41;
  h.dcd_us = 17'000;
  h.are_us = 5'000;
  h.line_clear_delay_us = 250'000;
  h.irs = false;
  h.ihs = false;
  return h;
}

engine::GameConfig sample_config() {
  engine::GameConfig c;
  c.mode = engine::ModeKind::kCustom;
  c.limit = engine::LimitKind::kPieces;
  c.limit_value = 300;
  c.goal = engine::GoalKind::kLines;
  c.rotation = engine::RotationSystem::kClassic;
  c.allow_180 = false;
  c.generator = engine::GeneratorKind::kFixed;
  c.fixed_sequence = {Piece::kT, Piece::kI, Piece::kO, Piece::kZ, Piece::kS, Piece::kL, Piece::kJ};
  c.initial_board = {
      {Piece::kGarbage, Piece::kGarbage, Piece::kNone, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage,
       Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage},
      {Piece::kNone, Piece::kI, Piece::kJ, Piece::kL, Piece::kO, Piece::kS, Piece::kT, Piece::kZ, Piece::kNone,
       Piece::kNone},
  };
  c.hold_enabled = false;
  c.preview = 3;
  c.handling = sample_handling();
  c.gravity = engine::Gravity::k20G;
  c.start_level = 7;
  c.level_up = false;
  c.goal_system = engine::GoalSystem::kVariable;
  c.lock_down = engine::LockDown::kTimer;
  c.lock_delay_us = 700'000;
  c.max_lock_resets = 30;
  c.ground_time_cap_us = 3'000'000;
  c.scoring = engine::Scoring::kTetrs;
  c.all_spin = true;
  return c;
}

RoomInfo sample_room() {
  RoomInfo r;
  r.room_id = 77;
  r.settings.name = "Friday Sprint";
  r.settings.config = sample_config();
  r.settings.max_racers = 4;
  r.settings.is_private = true;
  r.settings.auto_start = false;
  r.settings.stall_budget_s = 25;
  r.code = "K7PQ2X";
  r.host_id = 12;
  r.phase = RoomPhase::kResults;
  r.race_id = 3;
  r.members = {
      {12, "ada", Role::kRacer, true}, {13, "Grace H", Role::kRacer, false}, {99, "watcher", Role::kSpectator, false}};
  return r;
}

namespace {

std::vector<engine::InputChange> sample_changes() {
  return {{16'000, engine::button::kMoveLeft},
          {16'000, engine::button::kMoveLeft | engine::button::kRotateCw},
          {183'500, 0},
          {1'000'000'000, engine::button::kAll}};
}

RaceEntrant entrant(std::uint32_t id, const char* name) { return RaceEntrant{id, name, sample_handling()}; }

}  // namespace

// clang-format off
template <> Hello sample() {
  Hello h{"ada", "stackrace 0.1.0", {}, {}};
  h.key.fill(0x5A);
  h.signature.fill(0xC3);
  return h;
}
template <> Welcome sample() {
  return {42, "Ada's Server", "Welcome!\nBe nice. \xE2\x9C\x93", 8080, "https://races.example.org/stackrace"};
}
template <> Reject sample() { return {RejectReason::kNameTaken, 9, "name \"ada\" is taken"}; }
template <> Ping sample() { return {0x0102030405060708}; }
template <> Pong sample() { return {0x1122334455667788, 0xFFEEDDCCBBAA9988}; }
template <> Disconnecting sample() { return {DisconnectReason::kRateLimited, "too many messages"}; }
template <> Notice sample() { return {NoticeCode::kWrongCode, MessageId::kJoinRoom, "no room has code K7PQ2X"}; }
template <> ListRooms sample() { return {200}; }
template <> RoomList sample() {
  RoomSummary a{5, "Sprint 40", summarize(engine::make_sprint(40)), 3, 8, 2, RoomPhase::kRacing, false};
  RoomSummary b{6, "ultra", summarize(engine::make_ultra(120)), 0, 16, 0, RoomPhase::kWaiting, true};
  return {1234, 200, {a, b}};
}
template <> CreateRoom sample() {
  return {RoomSettings{"my room", sample_config(), 16, true, false}, Role::kSpectator};
}
template <> JoinRoom sample() { return {0, "ABC234", Role::kSpectator}; }
template <> RoomJoined sample() { return {sample_room()}; }
template <> LeaveRoom sample() { return {}; }
template <> RoomLeft sample() { return {77, RoomLeftReason::kKicked, "kicked by ada"}; }
template <> SendChat sample() { return {"gg \xF0\x9F\x8E\x89"}; }
template <> Chat sample() { return {ChatScope::kRoom, 12, "ada", "ready?"}; }
template <> RoomUpdate sample() { RoomInfo r = sample_room(); r.phase = RoomPhase::kCountdown; return {r}; }
template <> ChangeSettings sample() { return {RoomSettings{"renamed", sample_config(), 2, false, false}}; }
template <> SetHandling sample() { return {sample_handling()}; }
template <> SetReady sample() { return {true}; }
template <> SetRole sample() { return {Role::kSpectator}; }
template <> KickPlayer sample() { return {13}; }
template <> StartRace sample() { return {}; }
template <> CountdownStart sample() {
  return {3, 0xDEADBEEFCAFEF00D, 3'000'000, 987'654'321'000, sample_config(),
          {entrant(12, "ada"), entrant(13, "Grace H")}};
}
template <> RaceStart sample() { return {3, 987'657'321'000}; }
template <> RaceInput sample() { return {3, 4'000'000'000u, 1'000'000'500, sample_changes()}; }
template <> StateHashReport sample() { return {3, 150, 61'000'123, 0x0123456789ABCDEF}; }
template <> RacerInputs sample() { return {3, 13, 17, 1'000'000'000, sample_changes()}; }
template <> LiveStats sample() {
  return {3, 61'000'000,
          {{12, RacerStatus::kRacing, 1, 61'000'000, 25, 15, 1200, 150, 246},
           {13, RacerStatus::kToppedOut, 2, 59'000'000, 7, 33, 9000000000, 88, 149}}};
}
template <> RacerEnded sample() {
  return {3, 13, RacerStatus::kToppedOut, 59'000'000, 2, "topped out (block out)"};
}
template <> RaceResults sample() {
  return {3, RaceEndReason::kTimeUp, 120'000'000,
          {{12, "ada", 1, RacerStatus::kFinished, 58'123'456, 40, 12'345, 101, 174, 312, 2'250'000, 1},
           {13, "Grace H", 0, RacerStatus::kDisconnected, 30'000'000, 11, 2'000, 40, 133, 455, 0, 0}}};
}
template <> ReplayStored sample() { return {3, 0x1'0000'0001}; }
template <> CatchUpStart sample() {
  return {3, 0xDEADBEEFCAFEF00D, sample_config(), 45'000'000, 2,
          {{entrant(12, "ada"), RacerStatus::kRacing, 0, 0},
           {entrant(13, "Grace H"), RacerStatus::kFinished, 44'000'000, 1}}};
}
template <> CatchUpEnd sample() { return {3}; }
template <> ListGames sample() { return {GameListKind::kPersonalBests, "Grace H", engine::ModeKind::kUltra, 900, 50}; }
template <> GameList sample() {
  GameSummary g{77, 1'700'000'000, summarize(engine::make_sprint(20)), 58'123'456,
                {{"ada", 1, RacerStatus::kFinished, 58'123'456, 20, 9'999},
                 {"Grace H", 2, RacerStatus::kToppedOut, 40'000'000, 12, 5'000}}};
  GameSummary h{76, -5, summarize(engine::make_ultra(120)), 120'000'000,
                {{"ada", 1, RacerStatus::kFinished, 120'000'000, 55, 80'000}}};
  return {GameListKind::kPersonalBests, "ada", {g, h}};
}
template <> DownloadReplay sample() { return {77}; }
template <> ReplayChunk sample() { return {77, 100'000, 60'000, {0x53, 0x52, 0x52, 0x00, 0xFF, 0x80}}; }
template <> ReplayUnavailable sample() { return {78, NoticeCode::kRateLimited, "one download at a time"}; }
template <> RaceSeat sample() { return {3, 0x0123456789ABCDEF, 0xFEDCBA9876543210}; }
template <> Resume sample() {
  Resume r{3, 0x0123456789ABCDEF, 0xFEDCBA9876543210, "stackrace 0.2.0", {{13, 120}, {14, 0}}, {}, {}};
  r.key.fill(0x11);
  r.signature.fill(0xEE);
  return r;
}
template <> RaceResumed sample() { return {3, 57, 31'250'000}; }
template <> RaceInputCopy sample() { return {3, 120, 41'000, {{40'000, engine::button::kMoveLeft}, {41'000, 0}}}; }
template <> RaceInputAck sample() { return {3, 121}; }
template <> ReplayNotStored sample() { return {3, "the server's disk is full"}; }
template <> LadderEnter sample() { return {"team-rocket", true, LadderSecret{0x0123456789ABCDEF, 0xFEDCBA9876543210}}; }
template <> ListLadder sample() { return {}; }
template <> Ladder sample() {
  return {10, 3, 5, {{"team-rocket", 4, {{77, 24'000, 30}, {0, 12'800, 16}, {79, 4'000, 5}}},
                     {"ada", 1, {{81, 2'000, 4}}},
                     {"nobody-yet", 0, {}}}};
}
template <> KeyChallenge sample() {
  KeyChallenge c;
  for (std::size_t i = 0; i < c.challenge.size(); ++i) c.challenge[i] = static_cast<std::uint8_t>(255 - i);
  return c;
}
template <> RunSigned sample() {
  RunSigned r{3, {}};
  for (std::size_t i = 0; i < r.signature.size(); ++i) r.signature[i] = static_cast<std::uint8_t>(3 * i + 1);
  return r;
}
// clang-format on

namespace {
template <std::size_t... I>
std::vector<Message> samples_in_order(std::index_sequence<I...>) {
  return {Message{sample<std::variant_alternative_t<I, Message>>()}...};
}
}  // namespace

std::vector<Message> all_samples() {
  return samples_in_order(std::make_index_sequence<std::variant_size_v<Message>>{});
}

}  // namespace sr::protocol::testing
