// Internal: the field list of every message, in wire order after the id byte (see record_fields.h).
// PROTOCOL.md's per-message tables mirror these functions; change both together and bump kProtocolVersion.
#pragma once

#include <cstdint>
#include <limits>

#include "common/protocol/detail/record_fields.h"
#include "common/protocol/messages.h"

namespace sr::protocol::detail {

inline constexpr std::uint32_t kU32Max = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

// Racer lists that must not name a player twice.
template <class Io, class List>
void check_distinct_players(Io& io, std::size_t at, const List& list, auto player_of) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      io.check_at(at, player_of(list[i]) != player_of(list[j]), DecodeErrorCode::kInconsistent, "racers",
                  "a player_id appears twice");
    }
  }
}

// The input-stream fields shared by RaceInput and RacerInputs.
void input_stream(auto& io, auto& first_seq, auto& now_us, auto& changes, std::size_t max) {
  io.varint(first_seq, 0, kU32Max, "first_seq");
  io.time(now_us, "now_us");
  const std::size_t at = io.offset();
  io.inputs(changes, max, "changes");
  io.check_at(at, changes.size() <= kU32Max - first_seq, DecodeErrorCode::kInconsistent, "changes",
              "sequence numbers pass 2^32 - 1");
  io.check_at(at, changes.empty() || changes.back().time_us <= now_us, DecodeErrorCode::kInconsistent, "changes",
              "a change is later than now_us");
}

// ---------------------------------------------------------------- Session
void fields(auto& io, Is<Hello> auto& m) {
  io.text(m.name, kPlayerNameText, "name");
  io.text(m.client_version, kClientVersionText, "client_version");
  io.fixed_bytes(m.key, "key");
  io.fixed_bytes(m.signature, "signature");
}
void fields(auto& io, Is<KeyChallenge> auto& m) { io.fixed_bytes(m.challenge, "challenge"); }
void fields(auto& io, Is<Welcome> auto& m) {
  io.id(m.player_id, "player_id");
  io.text(m.server_name, kServerNameText, "server_name");
  io.text(m.motd, kMotdText, "motd");
  io.varint(m.web_port, 0, 65535, "web_port");
  io.text(m.web_url, kWebUrlText, "web_url");
}
void fields(auto& io, Is<Reject> auto& m) {  // frozen layout, see messages.h
  io.enumeration(m.reason, "reason");
  io.fixed32(m.server_version, "server_version");
  io.text(m.text, kReasonText, "text");
}
void fields(auto& io, Is<Ping> auto& m) { io.fixed64(m.sent_us, "sent_us"); }
void fields(auto& io, Is<Pong> auto& m) {
  io.fixed64(m.ping_sent_us, "ping_sent_us");
  io.fixed64(m.reply_sent_us, "reply_sent_us");
}
void fields(auto& io, Is<Disconnecting> auto& m) {
  io.enumeration(m.reason, "reason");
  io.text(m.text, kReasonText, "text");
}
void fields(auto& io, Is<Notice> auto& m) {
  io.enumeration(m.code, "code");
  io.enumeration(m.about, "about");
  io.text(m.text, kReasonText, "text");
}

// ---------------------------------------------------------------- Lobby
void fields(auto& io, Is<ListRooms> auto& m) { io.varint(m.start, 0, kU32Max, "start"); }
void fields(auto& io, Is<RoomList> auto& m) {
  io.varint(m.total, 0, kU32Max, "total");
  io.varint(m.start, 0, kU32Max, "start");
  io.list(m.rooms, kMaxRoomsListed, kMinRoomSummaryBytes, "rooms", [&](auto& r) { fields(io, r); });
}
void fields(auto& io, Is<CreateRoom> auto& m) {
  io.scope("settings", [&] { fields(io, m.settings); });
  io.enumeration(m.role, "role");
}
void fields(auto& io, Is<JoinRoom> auto& m) {
  const std::size_t at = io.offset();
  io.varint(m.room_id, 0, kU32Max, "room_id");
  io.text(m.code, kRoomCodeText, "code");
  io.check_at(at, (m.room_id != 0) == m.code.empty(), DecodeErrorCode::kInconsistent, "room_id",
              "exactly one of room_id and code must be set");
  io.enumeration(m.role, "role");
}
void fields(auto& io, Is<RoomJoined> auto& m) {
  io.scope("room", [&] { fields(io, m.room); });
}
void fields(auto&, Is<LeaveRoom> auto&) {}
void fields(auto& io, Is<RoomLeft> auto& m) {
  io.id(m.room_id, "room_id");
  io.enumeration(m.reason, "reason");
  io.text(m.text, kReasonText, "text");
}
void fields(auto& io, Is<SendChat> auto& m) { io.text(m.text, kChatText, "text"); }
void fields(auto& io, Is<Chat> auto& m) {
  io.enumeration(m.scope, "scope");
  io.varint(m.from_id, 0, kU32Max, "from_id");
  io.text(m.from_name, kPlayerNameText, "from_name");
  io.text(m.text, kChatText, "text");
}

// ---------------------------------------------------------------- Room
void fields(auto& io, Is<RoomUpdate> auto& m) {
  io.scope("room", [&] { fields(io, m.room); });
}
void fields(auto& io, Is<ChangeSettings> auto& m) {
  io.scope("settings", [&] { fields(io, m.settings); });
}
void fields(auto& io, Is<SetHandling> auto& m) {
  io.scope("handling", [&] { fields(io, m.handling); });
}
void fields(auto& io, Is<SetReady> auto& m) { io.boolean(m.ready, "ready"); }
void fields(auto& io, Is<SetRole> auto& m) { io.enumeration(m.role, "role"); }
void fields(auto& io, Is<KickPlayer> auto& m) { io.id(m.player_id, "player_id"); }
void fields(auto&, Is<StartRace> auto&) {}
void fields(auto& io, Is<CountdownStart> auto& m) {
  io.id(m.race_id, "race_id");
  io.fixed64(m.seed, "seed");
  const std::size_t countdown_at = io.offset();
  io.time(m.countdown_us, "countdown_us");
  io.check_at(countdown_at, m.countdown_us <= kMaxCountdownUs, DecodeErrorCode::kOutOfRange, "countdown_us",
              "longer than kMaxCountdownUs");
  io.fixed64(m.start_server_us, "start_server_us");
  io.scope("config", [&] { fields(io, m.config); });
  const std::size_t at = io.offset();
  io.list(m.racers, kMaxRacers, kMinEntrantBytes, "racers", [&](auto& r) { fields(io, r); });
  io.check_at(at, !m.racers.empty(), DecodeErrorCode::kOutOfRange, "racers", "a race has a racer");
  check_distinct_players(io, at, m.racers, [](const RaceEntrant& r) { return r.player_id; });
}
void fields(auto& io, Is<RaceStart> auto& m) {
  io.id(m.race_id, "race_id");
  io.fixed64(m.server_us, "server_us");
}

// ---------------------------------------------------------------- Race
void fields(auto& io, Is<RaceInput> auto& m) {
  io.id(m.race_id, "race_id");
  input_stream(io, m.first_seq, m.now_us, m.changes, kMaxInputsPerBatch);
}
void fields(auto& io, Is<StateHashReport> auto& m) {
  io.id(m.race_id, "race_id");
  io.count(m.pieces, "pieces");
  io.time(m.time_us, "time_us");
  io.fixed64(m.hash, "hash");
}
void fields(auto& io, Is<RacerInputs> auto& m) {
  io.id(m.race_id, "race_id");
  io.id(m.player_id, "player_id");
  input_stream(io, m.first_seq, m.now_us, m.changes, kMaxInputsPerRelay);
}
void fields(auto& io, Is<LiveStats> auto& m) {
  io.id(m.race_id, "race_id");
  io.time(m.race_time_us, "race_time_us");
  const std::size_t at = io.offset();
  io.list(m.racers, kMaxRacers, kMinRacerLiveBytes, "racers", [&](auto& r) { fields(io, r); });
  check_distinct_players(io, at, m.racers, [](const RacerLive& r) { return r.player_id; });
}
void fields(auto& io, Is<RacerEnded> auto& m) {
  io.id(m.race_id, "race_id");
  io.id(m.player_id, "player_id");
  const std::size_t at = io.offset();
  io.enumeration(m.status, "status");
  io.check_at(at, m.status != RacerStatus::kRacing, DecodeErrorCode::kOutOfRange, "status",
              "an ended racer is not racing");
  io.time(m.time_us, "time_us");
  io.u8(m.place, 0, kMaxRacers, "place");
  io.text(m.reason, kReasonText, "reason");
}
void fields(auto& io, Is<RaceResults> auto& m) {
  io.id(m.race_id, "race_id");
  io.enumeration(m.reason, "reason");
  io.time(m.duration_us, "duration_us");
  const std::size_t at = io.offset();
  io.list(m.racers, kMaxRacers, kMinRacerResultBytes, "racers", [&](auto& r) { fields(io, r); });
  check_distinct_players(io, at, m.racers, [](const RacerResult& r) { return r.player_id; });
}
void fields(auto& io, Is<ReplayStored> auto& m) {
  io.id(m.race_id, "race_id");
  io.id(m.game_id, "game_id");
}
void fields(auto& io, Is<ReplayNotStored> auto& m) {
  io.id(m.race_id, "race_id");
  io.text(m.reason, kReasonText, "reason");
}
void fields(auto& io, Is<CatchUpStart> auto& m) {
  io.id(m.race_id, "race_id");
  io.fixed64(m.seed, "seed");
  io.scope("config", [&] { fields(io, m.config); });
  io.time(m.elapsed_us, "elapsed_us");
  io.varint(m.chunks, 0, kU32Max, "chunks");
  const std::size_t at = io.offset();
  io.list(m.racers, kMaxRacers, kMinCatchUpRacerBytes, "racers", [&](auto& r) { fields(io, r); });
  io.check_at(at, !m.racers.empty(), DecodeErrorCode::kOutOfRange, "racers", "a race has a racer");
  check_distinct_players(io, at, m.racers, [](const CatchUpRacer& r) { return r.entrant.player_id; });
}
void fields(auto& io, Is<CatchUpEnd> auto& m) { io.id(m.race_id, "race_id"); }
void fields(auto& io, Is<RunSigned> auto& m) {
  io.id(m.race_id, "race_id");
  io.fixed_bytes(m.signature, "signature");
}

// ---------------------------------------------------------------- Resume
void fields(auto& io, Is<RaceSeat> auto& m) {
  io.id(m.race_id, "race_id");
  io.fixed64(m.token_hi, "token_hi");
  io.fixed64(m.token_lo, "token_lo");
}
void fields(auto& io, Is<Resume> auto& m) {
  io.id(m.race_id, "race_id");
  io.fixed64(m.token_hi, "token_hi");
  io.fixed64(m.token_lo, "token_lo");
  io.text(m.client_version, kClientVersionText, "client_version");
  const std::size_t at = io.offset();
  io.list(m.boards, kMaxRacers, kMinRelayPositionBytes, "boards", [&](auto& r) { fields(io, r); });
  check_distinct_players(io, at, m.boards, [](const RelayPosition& r) { return r.player_id; });
  io.fixed_bytes(m.key, "key");
  io.fixed_bytes(m.signature, "signature");
}
void fields(auto& io, Is<RaceResumed> auto& m) {
  io.id(m.race_id, "race_id");
  io.varint(m.next_seq, 0, kU32Max, "next_seq");
  io.time(m.now_us, "now_us");
}

// ---------------------------------------------------------------- Input copies
void fields(auto& io, Is<RaceInputCopy> auto& m) {
  io.id(m.race_id, "race_id");
  input_stream(io, m.first_seq, m.now_us, m.changes, kMaxInputsPerBatch);
}
void fields(auto& io, Is<RaceInputAck> auto& m) {
  io.id(m.race_id, "race_id");
  io.varint(m.next_seq, 0, kU32Max, "next_seq");
}

// ---------------------------------------------------------------- Replays
void fields(auto& io, Is<ListGames> auto& m) {
  io.enumeration(m.kind, "kind");
  io.text(m.player, TextRule{TextKind::kName, 0, kMaxPlayerNameBytes}, "player");
  io.optional(m.mode, "mode", [&](auto& mode) { io.enumeration(mode, nullptr); });
  io.varint(m.before_game_id, 0, kU64Max, "before_game_id");
  io.u8(m.limit, 1, kMaxGamesListed, "limit");
}
void fields(auto& io, Is<GameList> auto& m) {
  io.enumeration(m.kind, "kind");
  io.text(m.player, TextRule{TextKind::kName, 0, kMaxPlayerNameBytes}, "player");
  io.list(m.games, kMaxGamesListed, kMinGameSummaryBytes, "games", [&](auto& g) { fields(io, g); });
}
void fields(auto& io, Is<DownloadReplay> auto& m) { io.id(m.game_id, "game_id"); }
void fields(auto& io, Is<ReplayChunk> auto& m) {
  io.id(m.game_id, "game_id");
  io.varint(m.total_bytes, 0, kMaxReplayBytes, "total_bytes");
  io.varint(m.offset, 0, kMaxReplayBytes, "offset");
  const std::size_t at = io.offset();
  io.blob(m.data, kMaxReplayChunkBytes, "data");
  io.check_at(at, std::uint64_t{m.offset} + m.data.size() <= m.total_bytes, DecodeErrorCode::kInconsistent, "data",
              "offset + size passes total_bytes");
  io.check_at(at, !m.data.empty() || m.total_bytes == 0, DecodeErrorCode::kInconsistent, "data",
              "empty chunk of a non-empty file");
}
void fields(auto& io, Is<ReplayUnavailable> auto& m) {
  io.id(m.game_id, "game_id");
  io.enumeration(m.code, "code");
  io.text(m.text, kReasonText, "text");
}

// ---------------------------------------------------------------- Contest ladder
void fields(auto& io, Is<LadderEnter> auto& m) {
  io.text(m.entrant, kPlayerNameText, "entrant");
  io.boolean(m.ranked, "ranked");
  io.optional(m.legacy_secret, "legacy_secret", [&](auto& secret) {
    io.fixed64(secret.hi, "hi");
    io.fixed64(secret.lo, "lo");
  });
}
void fields(auto&, Is<ListLadder> auto&) {}
void fields(auto& io, Is<Ladder> auto& m) {
  io.u8(m.ranked_games, 1, kMaxLadderRankedGames, "ranked_games");
  const std::size_t counted_at = io.offset();
  io.u8(m.counted_best, 1, kMaxLadderCountedBest, "counted_best");
  io.check_at(counted_at, m.counted_best <= m.ranked_games, DecodeErrorCode::kInconsistent, "counted_best",
              "more than ranked_games");
  io.varint(m.entrants, 0, kU32Max, "entrants");
  const std::size_t at = io.offset();
  io.list(m.rows, kMaxLadderRows, kMinLadderRowBytes, "rows", [&](auto& r) { fields(io, r); });
  io.check_at(at, m.rows.size() <= m.entrants, DecodeErrorCode::kInconsistent, "rows", "more rows than entrants");
  for (const LadderRow& r : m.rows) {
    io.check_at(at, r.ranked_played <= m.ranked_games, DecodeErrorCode::kInconsistent, "rows",
                "more ranked games played than ranked_games");
    io.check_at(at, r.best.size() <= m.counted_best, DecodeErrorCode::kInconsistent, "rows",
                "more best games than counted_best");
  }
}

}  // namespace sr::protocol::detail
