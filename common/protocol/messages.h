// Every message of the stackrace wire protocol, in one list with explicit ids, plus the protocol version and the
// limits that decode enforces. PROTOCOL.md documents the handshake, channels and each message's bytes.
//
// Ids are part of the wire format: never renumber or reuse one. The `Message` variant holds the structs in id
// order (alternative i has id i + 1; static_asserts in messages.cpp keep that true), so adding a message means
// appending an id before kCount, a struct, and a variant alternative, and bumping kProtocolVersion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/types.h"
#include "common/protocol/records.h"
#include "common/result.h"

namespace sr::protocol {

// Sent in ENet's connect `data` field; the server answers any other value with Reject{kVersionMismatch}.
inline constexpr std::uint32_t kProtocolVersion = 9;

// ---- Limits: decode rejects anything beyond them, encode asserts them. ----
inline constexpr std::size_t kMaxMessageBytes = 65'536;  // one encoded message, id byte included
inline constexpr std::size_t kMaxPlayerNameBytes = 16;   // and at least 1; printable ASCII (text.h)
inline constexpr std::size_t kMaxRoomNameBytes = 32;
inline constexpr std::size_t kMaxServerNameBytes = 32;
inline constexpr std::size_t kMaxClientVersionBytes = 32;
inline constexpr std::size_t kMaxMotdBytes = 1'024;
inline constexpr std::size_t kMaxWebUrlBytes = 200;          // Welcome::web_url (web_url.h)
inline constexpr std::size_t kMaxChatBytes = 200;            // UTF-8 bytes of one chat line
inline constexpr std::size_t kMaxReasonBytes = 200;          // human-readable text in notices, rejects, removals
inline constexpr std::size_t kRoomCodeLength = 6;            // private room code, alphabet in text.h
inline constexpr std::size_t kMaxRacers = 16;                // per room (and race); a replay: replay::kMaxReplayRacers
inline constexpr std::size_t kMaxRoomMembers = 256;          // racers plus spectators in one room
inline constexpr std::uint8_t kMaxStallBudgetS = 60;         // RoomSettings::stall_budget_s, seconds
inline constexpr std::size_t kMaxRoomsListed = 200;          // per RoomList page
inline constexpr std::size_t kMaxGamesListed = 50;           // per GameList
inline constexpr std::size_t kMaxInputsPerBatch = 256;       // RaceInput (client -> server)
inline constexpr std::size_t kMaxInputsPerRelay = 4'096;     // RacerInputs (server -> clients, also catch-up chunks)
inline constexpr std::size_t kMaxFixedSequence = 10'000;     // GameConfig::fixed_sequence pieces (engine's limit)
inline constexpr std::size_t kMaxReplayChunkBytes = 60'000;  // ReplayChunk data
inline constexpr std::uint32_t kMaxReplayBytes = 64u << 20;  // a whole .srr file offered for download
inline constexpr engine::TimeUs kMaxTimeUs = engine::TimeUs{1} << 40;  // any game time on the wire (~12.7 days)
inline constexpr engine::TimeUs kMaxCountdownUs = 10'000'000;
inline constexpr std::uint8_t kMaxLadderRankedGames = 100;  // Ladder::ranked_games: a server's ranked games per entrant
inline constexpr std::uint8_t kMaxLadderCountedBest = 10;   // Ladder::counted_best (keeps a Ladder under 64 KiB)
inline constexpr std::size_t kMaxLadderRows = 100;          // entrants per Ladder (the top ones)

// ENet disconnect data a client sends when it closes on purpose; a connection that times out has 0, and a racer whose
// connection timed out mid-race keeps their seat for a Resume (PROTOCOL.md "Resuming a race").
inline constexpr std::uint32_t kClientLeaving = 1;

// ---- ENet channels (PROTOCOL.md "Transport"). A message on another channel is a protocol error. ----
inline constexpr std::uint8_t kChannelControl = 0;   // reliable: session, lobby, room
inline constexpr std::uint8_t kChannelRace = 1;      // reliable: countdown, inputs, hashes, endings, catch-up
inline constexpr std::uint8_t kChannelLive = 2;      // unreliable (sequenced): live stats
inline constexpr std::uint8_t kChannelBulk = 3;      // reliable: replay downloads, so they never delay control
inline constexpr std::uint8_t kChannelRaceFast = 4;  // unreliable (sequenced): input copies and their acks
inline constexpr std::size_t kChannelCount = 5;

// The first byte of every message. 0 is never a message (Notice::about uses it for "none").
enum class MessageId : std::uint8_t {
  kNone = 0,
  // Session
  kHello = 1,
  kWelcome = 2,
  kReject = 3,
  kPing = 4,
  kPong = 5,
  kDisconnecting = 6,
  kNotice = 7,
  // Lobby
  kListRooms = 8,
  kRoomList = 9,
  kCreateRoom = 10,
  kJoinRoom = 11,
  kRoomJoined = 12,
  kLeaveRoom = 13,
  kRoomLeft = 14,
  kSendChat = 15,
  kChat = 16,
  // Room
  kRoomUpdate = 17,
  kChangeSettings = 18,
  kSetHandling = 19,
  kSetReady = 20,
  kSetRole = 21,
  kKickPlayer = 22,
  kStartRace = 23,
  kCountdownStart = 24,
  kRaceStart = 25,
  // Race
  kRaceInput = 26,
  kStateHashReport = 27,
  kRacerInputs = 28,
  kLiveStats = 29,
  kRacerEnded = 30,
  kRaceResults = 31,
  kReplayStored = 32,
  kCatchUpStart = 33,
  kCatchUpEnd = 34,
  // Replays
  kListGames = 35,
  kGameList = 36,
  kDownloadReplay = 37,
  kReplayChunk = 38,
  kReplayUnavailable = 39,
  // Resuming a race over a new connection
  kRaceSeat = 40,
  kResume = 41,
  kRaceResumed = 42,
  kRaceInputCopy = 43,
  kRaceInputAck = 44,
  // The end of a race
  kReplayNotStored = 45,
  // The contest ladder (PROTOCOL.md "Contest ladder")
  kLadderEnter = 46,
  kListLadder = 47,
  kLadder = 48,
  // Player keys (PROTOCOL.md "Player keys")
  kKeyChallenge = 49,
  // Run signatures (PROTOCOL.md "Run signatures", RECORDS.md)
  kRunSigned = 50,
  kCount = 51,  // one past the last id
};

enum class Sender : std::uint8_t { kClient = 0, kServer = 1, kEither = 2 };

// ---------------------------------------------------------------- Session
// C->S, first message after connecting.
struct Hello {
  static constexpr MessageId kId = MessageId::kHello;
  std::string name;            // kPlayerNameText; unique on the server (Reject{kNameTaken} otherwise)
  std::string client_version;  // kClientVersionText, e.g. "stackrace 0.1.0", for logs only
  PublicKeyBytes key{};        // the player's key; the server binds the name to the first key that uses it
  SignatureBytes signature{};  // key's signature of key_proof_message(this connection's KeyChallenge)
  bool operator==(const Hello&) const = default;
};
// S->C, first message on every accepted connection: 32 random bytes the client signs in its Hello or Resume.
struct KeyChallenge {
  static constexpr MessageId kId = MessageId::kKeyChallenge;
  KeyChallengeBytes challenge{};
  bool operator==(const KeyChallenge&) const = default;
};
// S->C, accepts Hello.
struct Welcome {
  static constexpr MessageId kId = MessageId::kWelcome;
  std::uint32_t player_id = 0;  // >= 1, this connection's id in every later message
  std::string server_name;      // kServerNameText
  std::string motd;             // kMotdText (may be empty, may hold newlines)
  // The server's web pages (PROTOCOL.md, "Web pages"): where a game's web link points. web_url (kWebUrlText: empty,
  // or an http(s) URL, web_url.h) is the operator's public address of the pages; when it is empty and web_port is
  // not 0, the pages are at http://HOST:web_port/ with HOST the host the client connected to; neither: no pages.
  std::uint16_t web_port = 0;
  std::string web_url;
  bool operator==(const Welcome&) const = default;
};
// S->C, refuses the connection; a disconnect follows. Id 3 and this layout are frozen across all protocol
// versions, so a client of any version can read "server speaks version X".
struct Reject {
  static constexpr MessageId kId = MessageId::kReject;
  RejectReason reason = RejectReason::kOther;
  std::uint32_t server_version = kProtocolVersion;  // fixed 4 bytes
  std::string text;                                 // kReasonText
  bool operator==(const Reject&) const = default;
};
// Either way; the receiver answers with Pong at once. Clock values are the sender's own monotonic microseconds.
struct Ping {
  static constexpr MessageId kId = MessageId::kPing;
  std::uint64_t sent_us = 0;
  bool operator==(const Ping&) const = default;
};
struct Pong {
  static constexpr MessageId kId = MessageId::kPong;
  std::uint64_t ping_sent_us = 0;   // copied from the Ping: RTT = now - ping_sent_us
  std::uint64_t reply_sent_us = 0;  // the replier's clock: offset ~ reply_sent_us - (ping_sent_us + RTT / 2)
  bool operator==(const Pong&) const = default;
};
// S->C, just before the server drops the connection (the same code goes in the ENet disconnect `data`).
struct Disconnecting {
  static constexpr MessageId kId = MessageId::kDisconnecting;
  DisconnectReason reason = DisconnectReason::kOther;
  std::string text;  // kReasonText
  bool operator==(const Disconnecting&) const = default;
};
// S->C, an announcement (kInfo) or the answer to a failed request.
struct Notice {
  static constexpr MessageId kId = MessageId::kNotice;
  NoticeCode code = NoticeCode::kInfo;
  MessageId about = MessageId::kNone;  // the request this answers; kNone if none
  std::string text;                    // kReasonText
  bool operator==(const Notice&) const = default;
};

// ---------------------------------------------------------------- Lobby
// C->S, asks for a page of public rooms.
struct ListRooms {
  static constexpr MessageId kId = MessageId::kListRooms;
  std::uint32_t start = 0;  // index of the first room wanted
  bool operator==(const ListRooms&) const = default;
};
struct RoomList {
  static constexpr MessageId kId = MessageId::kRoomList;
  std::uint32_t total = 0;         // listable rooms on the server
  std::uint32_t start = 0;         // index of rooms[0]
  std::vector<RoomSummary> rooms;  // 0..kMaxRoomsListed
  bool operator==(const RoomList&) const = default;
};
// C->S; answered by RoomJoined (the creator is the host) or Notice.
struct CreateRoom {
  static constexpr MessageId kId = MessageId::kCreateRoom;
  RoomSettings settings;
  Role role = Role::kRacer;  // the creator's own role
  bool operator==(const CreateRoom&) const = default;
};
// C->S; exactly one of room_id (public rooms) and code (private rooms) is set. Answered by RoomJoined or Notice.
struct JoinRoom {
  static constexpr MessageId kId = MessageId::kJoinRoom;
  std::uint32_t room_id = 0;  // 0 = join by code
  std::string code;           // kRoomCodeText; empty = join by id
  Role role = Role::kRacer;
  bool operator==(const JoinRoom&) const = default;
};
// S->C: you are now in this room (RoomUpdate follows every later change).
struct RoomJoined {
  static constexpr MessageId kId = MessageId::kRoomJoined;
  RoomInfo room;
  bool operator==(const RoomJoined&) const = default;
};
struct LeaveRoom {  // C->S
  static constexpr MessageId kId = MessageId::kLeaveRoom;
  bool operator==(const LeaveRoom&) const = default;
};
// S->C: you are back in the lobby.
struct RoomLeft {
  static constexpr MessageId kId = MessageId::kRoomLeft;
  std::uint32_t room_id = 0;  // >= 1
  RoomLeftReason reason = RoomLeftReason::kLeft;
  std::string text;  // kReasonText
  bool operator==(const RoomLeft&) const = default;
};
// C->S: one chat line to the sender's lobby or room, whichever they are in.
struct SendChat {
  static constexpr MessageId kId = MessageId::kSendChat;
  std::string text;  // kChatText (1..kMaxChatBytes)
  bool operator==(const SendChat&) const = default;
};
struct Chat {  // S->C
  static constexpr MessageId kId = MessageId::kChat;
  ChatScope scope = ChatScope::kLobby;
  std::uint32_t from_id = 0;  // the sender's player_id; 0 = the server itself
  std::string from_name;      // kPlayerNameText
  std::string text;           // kChatText
  bool operator==(const Chat&) const = default;
};

// ---------------------------------------------------------------- Room
struct RoomUpdate {  // S->C, the whole room again after any change
  static constexpr MessageId kId = MessageId::kRoomUpdate;
  RoomInfo room;
  bool operator==(const RoomUpdate&) const = default;
};
struct ChangeSettings {  // C->S, host only, while waiting
  static constexpr MessageId kId = MessageId::kChangeSettings;
  RoomSettings settings;
  bool operator==(const ChangeSettings&) const = default;
};
struct SetHandling {  // C->S: the handling this player races with from the next countdown on
  static constexpr MessageId kId = MessageId::kSetHandling;
  engine::Handling handling;
  bool operator==(const SetHandling&) const = default;
};
struct SetReady {  // C->S, racers while waiting
  static constexpr MessageId kId = MessageId::kSetReady;
  bool ready = false;
  bool operator==(const SetReady&) const = default;
};
struct SetRole {  // C->S, switch between racer and spectator while waiting
  static constexpr MessageId kId = MessageId::kSetRole;
  Role role = Role::kRacer;
  bool operator==(const SetRole&) const = default;
};
struct KickPlayer {  // C->S, host only
  static constexpr MessageId kId = MessageId::kKickPlayer;
  std::uint32_t player_id = 0;  // >= 1
  bool operator==(const KickPlayer&) const = default;
};
struct StartRace {  // C->S, host only: start the countdown now
  static constexpr MessageId kId = MessageId::kStartRace;
  bool operator==(const StartRace&) const = default;
};
// S->C to the room: the countdown has begun. Everything needed to simulate every racer is here.
struct CountdownStart {
  static constexpr MessageId kId = MessageId::kCountdownStart;
  std::uint32_t race_id = 0;          // >= 1, names this race in every race message
  std::uint64_t seed = 0;             // one seed for every racer (fixed 8 bytes)
  engine::TimeUs countdown_us = 0;    // 0..kMaxCountdownUs: the race (game time 0) starts this long after receipt
  std::uint64_t start_server_us = 0;  // the same moment on the server's clock (fixed 8 bytes; see Pong)
  engine::GameConfig config;          // the room's rules; each racer plays it with their own handling
  std::vector<RaceEntrant> racers;    // 1..kMaxRacers, distinct player_ids
  bool operator==(const CountdownStart&) const = default;
};
// S->C to the room: game time 0 is now. Clients that started their clock from countdown_us may ignore it.
struct RaceStart {
  static constexpr MessageId kId = MessageId::kRaceStart;
  std::uint32_t race_id = 0;    // >= 1
  std::uint64_t server_us = 0;  // the server's clock (fixed 8 bytes)
  bool operator==(const RaceStart&) const = default;
};

// ---------------------------------------------------------------- Race
// C->S: the racer's newest button changes, sent as they happen.
// `first_seq` numbers changes[0] in the racer's whole log (0 = first change of the race), so a gap or overlap
// shows at once. `now_us` is the racer's game time when sent: every later change is stamped >= now_us, which
// lets the referee simulate up to it (pace check) and check that time never goes backwards.
struct RaceInput {
  static constexpr MessageId kId = MessageId::kRaceInput;
  std::uint32_t race_id = 0;                 // >= 1
  std::uint32_t first_seq = 0;               // first_seq + changes.size() <= 2^32 - 1
  engine::TimeUs now_us = 0;                 // 0..kMaxTimeUs, >= every change's time
  std::vector<engine::InputChange> changes;  // 0..kMaxInputsPerBatch, times non-decreasing (delta-encoded)
  bool operator==(const RaceInput&) const = default;
};
// C->S, every few pieces: the racer's lock digest (engine/lock_digest.h) right after its `pieces`-th lock.
// Sent after the RaceInput holding every change up to time_us (same channel, so it arrives after it).
struct StateHashReport {
  static constexpr MessageId kId = MessageId::kStateHashReport;
  std::uint32_t race_id = 0;   // >= 1
  std::int64_t pieces = 0;     // >= 0
  engine::TimeUs time_us = 0;  // 0..kMaxTimeUs: game time of that lock
  std::uint64_t hash = 0;      // fixed 8 bytes
  bool operator==(const StateHashReport&) const = default;
};
// S->C: racer player_id's changes, relayed to the other room members (and used in chunks for catch-up).
// Same sequence and time rules as RaceInput.
struct RacerInputs {
  static constexpr MessageId kId = MessageId::kRacerInputs;
  std::uint32_t race_id = 0;    // >= 1
  std::uint32_t player_id = 0;  // >= 1
  std::uint32_t first_seq = 0;
  engine::TimeUs now_us = 0;                 // 0..kMaxTimeUs: the racer's game time the server has accepted up to
  std::vector<engine::InputChange> changes;  // 0..kMaxInputsPerRelay
  bool operator==(const RacerInputs&) const = default;
};
// S->C, at least 5 times a second while racing (unreliable: a lost one is replaced by the next).
struct LiveStats {
  static constexpr MessageId kId = MessageId::kLiveStats;
  std::uint32_t race_id = 0;        // >= 1
  engine::TimeUs race_time_us = 0;  // 0..kMaxTimeUs: time since the race started on the server's clock
  std::vector<RacerLive> racers;    // 0..kMaxRacers
  bool operator==(const LiveStats&) const = default;
};
// S->C to the room: one racer's game is over (finished, topped out, left, removed).
struct RacerEnded {
  static constexpr MessageId kId = MessageId::kRacerEnded;
  std::uint32_t race_id = 0;                    // >= 1
  std::uint32_t player_id = 0;                  // >= 1
  RacerStatus status = RacerStatus::kFinished;  // never kRacing
  engine::TimeUs time_us = 0;                   // 0..kMaxTimeUs: game time of the ending
  std::uint8_t place = 0;                       // 0..kMaxRacers, 0 = unranked
  std::string reason;  // kReasonText: why a racer was removed ("inputs stamped ahead of real time")
  bool operator==(const RacerEnded&) const = default;
};
// S->C to the room: the race is over. Sent once the race's replay is durable in the store (or could not be stored,
// or the store took too long), and followed at once by ReplayStored or ReplayNotStored. The room went back to
// waiting (RoomUpdate) when the race ended, before this.
struct RaceResults {
  static constexpr MessageId kId = MessageId::kRaceResults;
  std::uint32_t race_id = 0;  // >= 1
  RaceEndReason reason = RaceEndReason::kAllDone;
  engine::TimeUs duration_us = 0;   // 0..kMaxTimeUs
  std::vector<RacerResult> racers;  // 0..kMaxRacers, ordered by place (unranked last)
  bool operator==(const RaceResults&) const = default;
};
// S->C to the room: the race's replay is in the store under game_id (right after RaceResults, or after its
// ReplayNotStored if the store was slow).
struct ReplayStored {
  static constexpr MessageId kId = MessageId::kReplayStored;
  std::uint32_t race_id = 0;  // >= 1
  std::uint64_t game_id = 0;  // >= 1
  bool operator==(const ReplayStored&) const = default;
};
// S->C to a spectator joining mid-race. Followed by `chunks` RacerInputs (each racer's log from seq 0, split
// at kMaxInputsPerRelay) and CatchUpEnd; live RacerInputs continue after it on the same channel.
struct CatchUpStart {
  static constexpr MessageId kId = MessageId::kCatchUpStart;
  std::uint32_t race_id = 0;  // >= 1
  std::uint64_t seed = 0;     // fixed 8 bytes
  engine::GameConfig config;
  engine::TimeUs elapsed_us = 0;     // 0..kMaxTimeUs: race time on the server's clock when sent
  std::uint32_t chunks = 0;          // RacerInputs messages before CatchUpEnd
  std::vector<CatchUpRacer> racers;  // 1..kMaxRacers, distinct player_ids
  bool operator==(const CatchUpStart&) const = default;
};
struct CatchUpEnd {
  static constexpr MessageId kId = MessageId::kCatchUpEnd;
  std::uint32_t race_id = 0;  // >= 1
  bool operator==(const CatchUpEnd&) const = default;
};

// C->S, once per race, when the racer's own game has ended by the engine (finished or topped out): the player key's
// signature of the run it played (PROTOCOL.md, "Run signatures"; common/protocol/RECORDS.md, section 2), sent
// after the last RaceInput of the race (same channel, so the server has every input first). No RaceInput follows it.
// The server keeps a signature that verifies against the key of the racer's Hello and the inputs its referee received,
// for the race's replay; it ignores (and counts) any other, and the race goes on either way.
struct RunSigned {
  static constexpr MessageId kId = MessageId::kRunSigned;
  std::uint32_t race_id = 0;   // >= 1
  SignatureBytes signature{};  // Ed25519 of "stackrace run 1\n" || BLAKE2b-256(the run's bytes)
  bool operator==(const RunSigned&) const = default;
};

// ---------------------------------------------------------------- Replays
// C->S. Recent games: newest first, below before_game_id (0 = from the newest), optionally of one mode.
// Personal bests: `player`'s best game per mode and parameters (empty player = the sender).
struct ListGames {
  static constexpr MessageId kId = MessageId::kListGames;
  GameListKind kind = GameListKind::kRecent;
  std::string player;                    // empty, or kPlayerNameText
  std::optional<engine::ModeKind> mode;  // nullopt = every mode
  std::uint64_t before_game_id = 0;
  std::uint8_t limit = 20;  // 1..kMaxGamesListed
  bool operator==(const ListGames&) const = default;
};
struct GameList {  // S->C
  static constexpr MessageId kId = MessageId::kGameList;
  GameListKind kind = GameListKind::kRecent;
  std::string player;              // as asked (empty or kPlayerNameText)
  std::vector<GameSummary> games;  // 0..kMaxGamesListed
  bool operator==(const GameList&) const = default;
};
// C->S; answered by ReplayChunks (on kChannelBulk) or ReplayUnavailable.
struct DownloadReplay {
  static constexpr MessageId kId = MessageId::kDownloadReplay;
  std::uint64_t game_id = 0;  // >= 1
  bool operator==(const DownloadReplay&) const = default;
};
// S->C: bytes [offset, offset + data.size()) of the game's .srr file, in order, until offset + size == total.
struct ReplayChunk {
  static constexpr MessageId kId = MessageId::kReplayChunk;
  std::uint64_t game_id = 0;       // >= 1
  std::uint32_t total_bytes = 0;   // 0..kMaxReplayBytes
  std::uint32_t offset = 0;        // offset + data.size() <= total_bytes
  std::vector<std::uint8_t> data;  // 0..kMaxReplayChunkBytes; empty only when total_bytes is 0
  bool operator==(const ReplayChunk&) const = default;
};
struct ReplayUnavailable {  // S->C
  static constexpr MessageId kId = MessageId::kReplayUnavailable;
  std::uint64_t game_id = 0;  // >= 1, as asked
  NoticeCode code = NoticeCode::kReplayNotFound;
  std::string text;  // kReasonText
  bool operator==(const ReplayUnavailable&) const = default;
};

// ---------------------------------------------------------------- Resume (PROTOCOL.md "Resuming a race")
// S->C, to one racer only, right after CountdownStart: 128 random bits that let this racer take their seat back over
// a new connection if this one drops (Resume). Never sent to anyone else; valid while that race runs.
struct RaceSeat {
  static constexpr MessageId kId = MessageId::kRaceSeat;
  std::uint32_t race_id = 0;   // >= 1
  std::uint64_t token_hi = 0;  // fixed 8 bytes
  std::uint64_t token_lo = 0;  // fixed 8 bytes
  bool operator==(const RaceSeat&) const = default;
};
// C->S, the first message of a new connection instead of Hello: the racer whose connection to race `race_id` dropped
// takes their seat (and player id and name) back. `boards` says how many relayed changes of each other racer the
// client has, so the server sends only the rest.
struct Resume {
  static constexpr MessageId kId = MessageId::kResume;
  std::uint32_t race_id = 0;  // >= 1
  std::uint64_t token_hi = 0;
  std::uint64_t token_lo = 0;
  std::string client_version;         // kClientVersionText, for logs only
  std::vector<RelayPosition> boards;  // 0..kMaxRacers, distinct player_ids
  PublicKeyBytes key{};               // the racer's key: the seat's own (as its Hello)
  SignatureBytes signature{};         // of key_proof_message(this connection's KeyChallenge)
  bool operator==(const Resume&) const = default;
};
// S->C, after the Welcome that accepts a Resume (with the player id the racer had): how much of our input stream the
// server has (`next_seq` changes, our game up to `now_us`). The client sends the rest as RaceInputs from next_seq,
// then goes on as before; the other racers' missing inputs follow as RacerInputs, then any RacerEnded.
struct RaceResumed {
  static constexpr MessageId kId = MessageId::kRaceResumed;
  std::uint32_t race_id = 0;   // >= 1
  std::uint32_t next_seq = 0;  // varint
  engine::TimeUs now_us = 0;   // 0..kMaxTimeUs
  bool operator==(const RaceResumed&) const = default;
};

// ---------------------------------------------------------------- Input copies (PROTOCOL.md "Input copies")
// C->S, unreliable, beside each RaceInput: every change from the last RaceInputAck's next_seq on (at most
// kMaxInputsPerBatch), and now_us, so one lost or held-back RaceInput never delays the referee by a retransmission.
// The server applies what it does not have yet and ignores the rest (also a copy that would leave a gap).
struct RaceInputCopy {
  static constexpr MessageId kId = MessageId::kRaceInputCopy;
  std::uint32_t race_id = 0;                 // >= 1
  std::uint32_t first_seq = 0;               // as RaceInput
  engine::TimeUs now_us = 0;                 // as RaceInput
  std::vector<engine::InputChange> changes;  // as RaceInput
  bool operator==(const RaceInputCopy&) const = default;
};
// S->C, unreliable, to a racer: the server holds its stream up to `next_seq` changes (so its next copies start there).
struct RaceInputAck {
  static constexpr MessageId kId = MessageId::kRaceInputAck;
  std::uint32_t race_id = 0;   // >= 1
  std::uint32_t next_seq = 0;  // varint
  bool operator==(const RaceInputAck&) const = default;
};

// ---------------------------------------------------------------- The end of a race
// S->C to the room, right after RaceResults: the race's replay is not in the store, and why ("the server's disk is
// full"; "still being written" when the store was slow: a ReplayStored may follow).
struct ReplayNotStored {
  static constexpr MessageId kId = MessageId::kReplayNotStored;
  std::uint32_t race_id = 0;  // >= 1
  std::string reason;         // kReasonText
  bool operator==(const ReplayNotStored&) const = default;
};

// ---------------------------------------------------------------- Contest ladder (PROTOCOL.md "Contest ladder")
// C->S, in no room: play one contest game as `entrant`, alone in a private room the server makes for it (RoomJoined;
// the countdown starts at once, on a seed the server picks). A name is held by the secret it was first entered
// with: another secret for it is refused. A ranked game counts on the ladder and is spent when its countdown starts;
// a practice game (ranked = false) counts nowhere. Refusals come as a Notice about LadderEnter with the reason.
struct LadderEnter {
  static constexpr MessageId kId = MessageId::kLadderEnter;
  std::string entrant;  // kPlayerNameText; names are compared ignoring case
  bool ranked = true;
  // The entrant is held by the player's key (Hello). An entrant claimed by a secret before version 8 passes to the
  // first key that shows that secret here; otherwise absent.
  std::optional<LadderSecret> legacy_secret;
  bool operator==(const LadderEnter&) const = default;
};
// C->S: the leaderboard, answered by Ladder (or a Notice: no ladder on this server, rate limits).
struct ListLadder {
  static constexpr MessageId kId = MessageId::kListLadder;
  bool operator==(const ListLadder&) const = default;
};
// S->C: the leaderboard, best first. An entrant's rank score is the average of their `counted_best` best ranked
// scores, a game not played counting 0: the sum of `best` scores divided by counted_best (exact on the wire; ties
// go to whoever reached the sum first, and are already broken by the order of `rows`).
struct Ladder {
  static constexpr MessageId kId = MessageId::kLadder;
  std::uint8_t ranked_games = 10;  // 1..kMaxLadderRankedGames: ranked games each entrant may play
  std::uint8_t counted_best = 3;   // 1..min(ranked_games, kMaxLadderCountedBest): how many best games count
  std::uint32_t entrants = 0;      // every entrant on the ladder (rows holds the first kMaxLadderRows at most)
  std::vector<LadderRow> rows;     // 0..kMaxLadderRows, by rank; rows.size() <= entrants
  bool operator==(const Ladder&) const = default;
};

// Every message, in id order: alternative i is the message with id i + 1.
using Message =
    std::variant<Hello, Welcome, Reject, Ping, Pong, Disconnecting, Notice, ListRooms, RoomList, CreateRoom, JoinRoom,
                 RoomJoined, LeaveRoom, RoomLeft, SendChat, Chat, RoomUpdate, ChangeSettings, SetHandling, SetReady,
                 SetRole, KickPlayer, StartRace, CountdownStart, RaceStart, RaceInput, StateHashReport, RacerInputs,
                 LiveStats, RacerEnded, RaceResults, ReplayStored, CatchUpStart, CatchUpEnd, ListGames, GameList,
                 DownloadReplay, ReplayChunk, ReplayUnavailable, RaceSeat, Resume, RaceResumed, RaceInputCopy,
                 RaceInputAck, ReplayNotStored, LadderEnter, ListLadder, Ladder, KeyChallenge, RunSigned>;

// True for 1..kCount-1.
[[nodiscard]] constexpr bool is_message_id(std::uint8_t id) {
  return id >= 1 && id < static_cast<std::uint8_t>(MessageId::kCount);
}
[[nodiscard]] MessageId message_id(const Message& message);
// The struct's name ("Hello"), or "None" / "Unknown" for ids that name no message. Never null.
[[nodiscard]] const char* message_name(MessageId id);
// Who may send the message; a server drops a client that sends a kServer message (kProtocolError).
[[nodiscard]] Sender message_sender(MessageId id);
// The ENet channel the message travels on (kChannel*). Precondition: is_message_id(id).
[[nodiscard]] std::uint8_t message_channel(MessageId id);
// Whether message `id` may arrive on `channel` from `from` (kClient or kServer): on its own channel, from a side
// message_sender allows (PROTOCOL.md, "Transport"). Both ends check every message they receive and drop the
// connection otherwise (kProtocolError). Ok, or the reason: "Welcome on channel 1, not 0", "clients may not send
// Welcome", "servers may not send Hello". Precondition: is_message_id(id).
[[nodiscard]] sr::Status<std::string> check_route(MessageId id, std::uint8_t channel, Sender from);
// Whether the channel is sent reliably (all but kChannelLive and kChannelRaceFast).
[[nodiscard]] constexpr bool channel_reliable(std::uint8_t channel) {
  return channel != kChannelLive && channel != kChannelRaceFast;
}

}  // namespace sr::protocol
