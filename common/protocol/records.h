// Value types that several wire messages share: the protocol's enums and the records inside lists.
//
// Every enum here is sent as one byte. Values are part of the wire format: never renumber, only append (and
// appending is a protocol change, see PROTOCOL.md "Versioning"). decode() rejects any value above the last one.
// Every record is plain data with `operator==`; its documented ranges are checked by encode (asserted) and
// decode (error value). Times are engine::TimeUs (microseconds of game time) unless the name says otherwise.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/input.h"
#include "common/engine/types.h"

namespace sr::protocol {

// Why the server refuses a connection (Reject). kVersionMismatch = 1 is frozen forever (see Reject).
enum class RejectReason : std::uint8_t {
  kOther = 0,
  kVersionMismatch = 1,  // the connect data named another protocol version
  kNameTaken = 2,        // another connected player uses this name
  kNameInvalid = 3,      // the name breaks kPlayerNameText (also checked by decode) or a server rule
  kServerFull = 4,
  kBanned = 5,
  kTooManyFromAddress = 6,  // per-address connection limit
  kBadHello = 7,            // the first message was not a valid Hello
  kCannotResume = 8,        // Resume named no seat in a race that is still running
};

// Codes of Notice (and ReplayUnavailable). kInfo is a plain announcement; the rest answer a failed request.
enum class NoticeCode : std::uint8_t {
  kInfo = 0,
  kRoomFull = 1,        // no racer slot left (join as spectator instead)
  kRoomNotFound = 2,    // no room with that id, or it closed
  kWrongCode = 3,       // no private room with that code
  kNotHost = 4,         // only the room host may do that
  kRateLimited = 5,     // too many requests or chat lines; try again later
  kInvalidRequest = 6,  // the request makes no sense in the sender's current state
  kNotInRoom = 7,
  kAlreadyInRoom = 8,
  kRaceInProgress = 9,    // settings, roles and readiness are frozen from countdown to results
  kInvalidSettings = 10,  // room settings the server does not allow (beyond the protocol's own limits)
  kTooManyRooms = 11,
  kSpectatorsFull = 12,  // the room already has kMaxRoomMembers members
  kNoRacers = 13,        // start with no racer in the room
  kReplayNotFound = 14,
  kDesync = 15,  // a state hash did not match the server's simulation (logged with the replay)
  kInternalError = 16,
};

// Why the server is about to drop a connection (Disconnecting; also the ENet disconnect `data`).
enum class DisconnectReason : std::uint8_t {
  kOther = 0,
  kServerShutdown = 1,
  kKicked = 2,  // by a server operator
  kBanned = 3,
  kProtocolError = 4,  // the peer sent bytes that do not decode, or a message it may not send
  kRateLimited = 5,    // message rate or size limits exceeded
  kTimeout = 6,
  kRejected = 7,  // follows a Reject
  kIdle = 8,
};

enum class Role : std::uint8_t { kRacer = 0, kSpectator = 1 };

// docs/ARCHITECTURE.md, "Rooms": waiting -> countdown -> racing -> results -> waiting.
enum class RoomPhase : std::uint8_t { kWaiting = 0, kCountdown = 1, kRacing = 2, kResults = 3 };

enum class RoomLeftReason : std::uint8_t {
  kLeft = 0,        // the member asked (LeaveRoom)
  kKicked = 1,      // by the room host
  kRoomClosed = 2,  // by the server
};

enum class ChatScope : std::uint8_t { kLobby = 0, kRoom = 1 };

// A racer's standing as the server's referee sees it (values 0..4 match server::RacerStatus).
enum class RacerStatus : std::uint8_t {
  kRacing = 0,
  kFinished = 1,  // reached the mode's limit (sprint lines, ultra time, ...)
  kToppedOut = 2,
  kDisconnected = 3,  // left the room or lost the connection: did not finish
  kRemoved = 4,       // removed by the referee (pace, timestamps, rates); the reason text says which rule
  kUnfinished = 5,    // still racing when the race ended (server time cap)
};

enum class RaceEndReason : std::uint8_t {
  kAllDone = 0,  // every racer finished, topped out, left or was removed
  kTimeUp = 1,   // the mode's (or the server's) time ran out
  kAborted = 2,  // the server cancelled the race
};

enum class GameListKind : std::uint8_t {
  kRecent = 0,         // newest games first
  kPersonalBests = 1,  // one game per mode and parameters: the player's best result in it
};

// What a room list or game list shows of a GameConfig. summarize() builds it.
struct ModeSummary {
  engine::ModeKind mode = engine::ModeKind::kSprint;
  engine::LimitKind limit = engine::LimitKind::kLines;
  std::int64_t limit_value = 40;  // 0..1e12: seconds for kTime, otherwise a count (see engine::GameConfig)
  engine::GoalKind goal = engine::GoalKind::kTime;
  bool operator==(const ModeSummary&) const = default;
};
[[nodiscard]] ModeSummary summarize(const engine::GameConfig& config);

// What the host chooses (CreateRoom, ChangeSettings) and what a room snapshot shows.
struct RoomSettings {
  std::string name;             // kRoomNameText
  engine::GameConfig config;    // valid per engine::check_config(); its `handling` is only a default, each racer
                                // plays with their own (SetHandling, CountdownStart)
  std::uint8_t max_racers = 8;  // 1..kMaxRacers
  bool is_private = false;      // private rooms are not listed and are joined only by their code
  bool auto_start = true;       // start the countdown by itself when every racer (at least one) is ready
  // 0..kMaxStallBudgetS: the game time, in seconds, a racer may send late over one race (a stalled connection)
  // before the referee removes them (PROTOCOL.md "Referee").
  std::uint8_t stall_budget_s = 10;
  bool operator==(const RoomSettings&) const = default;
};

// One line of RoomList.
struct RoomSummary {
  std::uint32_t room_id = 0;  // >= 1
  std::string name;           // kRoomNameText
  ModeSummary mode;
  std::uint8_t racers = 0;       // 0..max_racers
  std::uint8_t max_racers = 1;   // 1..kMaxRacers
  std::uint32_t spectators = 0;  // 0..kMaxRoomMembers
  RoomPhase phase = RoomPhase::kWaiting;
  bool is_private = false;  // normally false: private rooms are listed to nobody (kept for the room one is in)
  bool operator==(const RoomSummary&) const = default;
};

struct RoomMember {
  std::uint32_t player_id = 0;  // >= 1
  std::string name;             // kPlayerNameText
  Role role = Role::kRacer;
  bool ready = false;  // racers only; always false for spectators
  bool operator==(const RoomMember&) const = default;
};

// A full snapshot of a room (RoomJoined, RoomUpdate).
struct RoomInfo {
  std::uint32_t room_id = 0;  // >= 1
  RoomSettings settings;
  std::string code;           // kRoomCodeText: the server-generated code of a private room, empty if public
  std::uint32_t host_id = 0;  // >= 1, a member's player_id
  RoomPhase phase = RoomPhase::kWaiting;
  std::uint32_t race_id = 0;        // the current (or last) race, 0 before the first
  std::vector<RoomMember> members;  // 1..kMaxRoomMembers; at most settings.max_racers racers
  bool operator==(const RoomInfo&) const = default;
};

// A racer as the race starts: everything a client needs to build that racer's engine::Game besides the room's
// config (with `handling` put in) and the seed.
struct RaceEntrant {
  std::uint32_t player_id = 0;  // >= 1
  std::string name;             // kPlayerNameText
  engine::Handling handling;    // valid per engine::check_config()
  bool operator==(const RaceEntrant&) const = default;
};

// A racer in CatchUpStart: the entrant plus how far the referee says they got.
struct CatchUpRacer {
  RaceEntrant entrant;
  RacerStatus status = RacerStatus::kRacing;
  engine::TimeUs end_time_us = 0;  // 0..kMaxTimeUs; game time the racer ended at, 0 while racing
  std::uint8_t place = 0;          // 0..kMaxRacers, 0 = no place yet
  bool operator==(const CatchUpRacer&) const = default;
};

// One racer's line in LiveStats. Numbers come from the server's simulation.
struct RacerLive {
  std::uint32_t player_id = 0;  // >= 1
  RacerStatus status = RacerStatus::kRacing;
  std::uint8_t place = 0;       // 0..kMaxRacers: current standing, 0 = unranked
  engine::TimeUs time_us = 0;   // 0..kMaxTimeUs: the racer's game time as far as the server simulated it
  std::int64_t lines = 0;       // >= 0 (all counts below too)
  std::int64_t lines_left = 0;  // lines-limited modes; 0 otherwise
  std::int64_t score = 0;
  std::int64_t pieces = 0;
  std::uint32_t pps_x100 = 0;  // pieces per second x 100
  bool operator==(const RacerLive&) const = default;
};

// One racer's line in RaceResults, all from the server's simulation.
struct RacerResult {
  std::uint32_t player_id = 0;  // >= 1
  std::string name;             // kPlayerNameText (the racer may have left since)
  std::uint8_t place = 0;       // 0..kMaxRacers, 0 = unranked (left, removed)
  RacerStatus status = RacerStatus::kFinished;
  engine::TimeUs time_us = 0;  // 0..kMaxTimeUs: finish / top-out / leave time in game time
  std::int64_t lines = 0;      // >= 0 (all counts below too)
  std::int64_t score = 0;
  std::int64_t pieces = 0;
  std::uint32_t pps_x100 = 0;  // pieces per second x 100
  std::uint32_t kpp_x100 = 0;  // key presses per piece x 100
  // 0..kMaxTimeUs: game time the server received later than the jitter allowance (stalls, a reconnect): played with
  // more real time than game time, so unverifiable against the real clock. 0 is a clean run.
  engine::TimeUs unverified_us = 0;
  std::uint32_t reconnects = 0;  // times the racer resumed after a dropped connection (PROTOCOL.md "Resuming a race")
  bool operator==(const RacerResult&) const = default;
};

// Resume: how many relayed changes of one other racer the resuming client has (its RacerInputs stream position).
struct RelayPosition {
  std::uint32_t player_id = 0;  // >= 1
  std::uint32_t next_seq = 0;   // varint
  bool operator==(const RelayPosition&) const = default;
};

// One racer of a stored game, as a game list shows it.
struct GameRacer {
  std::string name;        // kPlayerNameText
  std::uint8_t place = 0;  // 0..kMaxRacers
  RacerStatus status = RacerStatus::kFinished;
  engine::TimeUs time_us = 0;  // 0..kMaxTimeUs
  std::int64_t lines = 0;      // >= 0
  std::int64_t score = 0;      // >= 0
  bool operator==(const GameRacer&) const = default;
};

// One stored game (replay) in GameList.
struct GameSummary {
  std::uint64_t game_id = 0;          // >= 1: the replay id DownloadReplay takes
  std::int64_t played_at_unix_s = 0;  // when the race ended, seconds since 1970 UTC (may be negative)
  ModeSummary mode;
  engine::TimeUs duration_us = 0;  // 0..kMaxTimeUs
  std::vector<GameRacer> racers;   // 1..kMaxRacers, by place
  bool operator==(const GameSummary&) const = default;
};

// A player's key (PROTOCOL.md "Player keys"): an Ed25519 public key, a signature, and the server's random challenge
// that a Hello (or Resume) signs. Fixed size on the wire, no length.
inline constexpr std::size_t kPublicKeyBytes = 32;
inline constexpr std::size_t kSignatureBytes = 64;
inline constexpr std::size_t kKeyChallengeBytes = 32;
using PublicKeyBytes = std::array<std::uint8_t, kPublicKeyBytes>;
using SignatureBytes = std::array<std::uint8_t, kSignatureBytes>;
using KeyChallengeBytes = std::array<std::uint8_t, kKeyChallengeBytes>;

// What a client signs to prove it holds its key: "stackrace key proof 1", a zero byte, then the challenge of this
// connection. The prefix keeps the signature from meaning anything anywhere else.
[[nodiscard]] std::vector<std::uint8_t> key_proof_message(const KeyChallengeBytes& challenge);
// The key as 64 lower-case hexadecimal digits (as replays, the ladder and the name book store it).
[[nodiscard]] std::string key_hex(const PublicKeyBytes& key);

// The 128 random bits that hold a contest ladder entrant's name (LadderEnter). The entrant keeps them; the server
// keeps only a salted hash.
struct LadderSecret {
  std::uint64_t hi = 0;  // fixed 8 bytes
  std::uint64_t lo = 0;  // fixed 8 bytes
  bool operator==(const LadderSecret&) const = default;
};

// One ranked ladder game of an entrant, as the server's referee scored it.
struct LadderGame {
  std::uint64_t game_id = 0;  // the stored replay (DownloadReplay); 0 when the server could not store it
  std::int64_t score = 0;     // >= 0
  std::int64_t lines = 0;     // >= 0
  bool operator==(const LadderGame&) const = default;
};

// One entrant's line of the leaderboard (Ladder).
struct LadderRow {
  std::string entrant;             // kPlayerNameText
  std::uint8_t ranked_played = 0;  // 0..Ladder::ranked_games: ranked games spent (a game counts from its countdown)
  std::vector<LadderGame> best;    // 0..Ladder::counted_best: the best ranked games, best first
  bool operator==(const LadderRow&) const = default;
};

// The sum of the row's best scores: its rank score times counted_best.
[[nodiscard]] std::int64_t ladder_sum(const LadderRow& row);
// An average `sum / count` as decimal text with two decimals, rounded half up: (2000 + 1200 + 800) / 3 -> "1333.33".
// Exact (no floating point), so every client prints the same. Precondition: sum >= 0, count >= 1.
[[nodiscard]] std::string ladder_average_text(std::int64_t sum, std::int64_t count);

}  // namespace sr::protocol
