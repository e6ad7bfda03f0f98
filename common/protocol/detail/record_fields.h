// Internal: the field lists of engine::Handling, engine::GameConfig and the records of records.h, in wire order.
// Each `fields(io, value)` serves both FieldWriter (value is const) and FieldReader. PROTOCOL.md's tables follow
// these functions line by line; change both together, and bump kProtocolVersion.
#pragma once

#include <limits>

#include "common/engine/config.h"
#include "common/protocol/detail/field_io.h"
#include "common/protocol/messages.h"
#include "common/protocol/records.h"
#include "common/protocol/text.h"

namespace sr::protocol::detail {

// Smallest encoding of one list element (every field takes at least one byte): bounds allocation on decode.
// Too small only weakens that bound; too big rejects valid messages (minimal_test checks each at its limit).
inline constexpr std::size_t kMinRoomSummaryBytes = 12;
inline constexpr std::size_t kMinRoomMemberBytes = 5;
inline constexpr std::size_t kMinEntrantBytes = 10;
inline constexpr std::size_t kMinCatchUpRacerBytes = 13;
inline constexpr std::size_t kMinRacerLiveBytes = 9;
inline constexpr std::size_t kMinRacerResultBytes = 13;
inline constexpr std::size_t kMinRelayPositionBytes = 2;
inline constexpr std::size_t kMinGameRacerBytes = 7;
inline constexpr std::size_t kMinGameSummaryBytes = 14;
inline constexpr std::size_t kMinLadderGameBytes = 3;
inline constexpr std::size_t kMinLadderRowBytes = 4;

// engine::check_config()'s largest limit_value.
inline constexpr std::int64_t kMaxLimitValue = 1'000'000'000'000;

// The handling fields alone; callers check them (handling() below, or GameConfig's check_config()).
void handling_fields(auto& io, Is<engine::Handling> auto& h) {
  io.signed32(h.das_us, "das_us");
  io.signed32(h.arr_us, "arr_us");
  io.signed32(h.sdf, "sdf");
  io.signed32(h.dcd_us, "dcd_us");
  io.signed32(h.are_us, "are_us");
  io.signed32(h.line_clear_delay_us, "line_clear_delay_us");
  io.boolean(h.irs, "irs");
  io.boolean(h.ihs, "ihs");
}

// A Handling on its own, valid when engine::check_config() accepts it inside a default config.
void fields(auto& io, Is<engine::Handling> auto& h) {
  const std::size_t at = io.offset();
  handling_fields(io, h);
  if (!io.ok()) return;
  engine::GameConfig probe;
  probe.handling = h;
  if (auto s = engine::check_config(probe); !s) io.fail_at(at, DecodeErrorCode::kInvalidConfig, nullptr, s.error());
}

void fields(auto& io, Is<engine::GameConfig> auto& c) {
  const std::size_t at = io.offset();
  io.enumeration(c.mode, "mode");
  io.enumeration(c.limit, "limit");
  io.signed64(c.limit_value, "limit_value");
  io.enumeration(c.goal, "goal");
  io.enumeration(c.rotation, "rotation");
  io.boolean(c.allow_180, "allow_180");
  io.enumeration(c.generator, "generator");
  io.list(c.fixed_sequence, kMaxFixedSequence, 1, "fixed_sequence", [&](auto& piece) {
    const std::size_t piece_at = io.offset();
    io.enumeration(piece, nullptr);
    io.check_at(piece_at, engine::is_tetromino(piece), DecodeErrorCode::kOutOfRange, nullptr, "not a tetromino");
  });
  io.list(c.initial_board, engine::kMatrixHeight, engine::kMatrixWidth, "initial_board", [&](auto& row) {
    io.fixed_list(row, engine::kMatrixWidth, "cells", [&](auto& cell) { io.enumeration(cell, nullptr); });
  });
  io.boolean(c.hold_enabled, "hold_enabled");
  io.u8(c.preview, 0, 7, "preview");
  io.scope("handling", [&] { handling_fields(io, c.handling); });
  io.enumeration(c.gravity, "gravity");
  io.signed32(c.start_level, "start_level");
  io.boolean(c.level_up, "level_up");
  io.enumeration(c.goal_system, "goal_system");
  io.enumeration(c.lock_down, "lock_down");
  io.signed32(c.lock_delay_us, "lock_delay_us");
  io.signed32(c.max_lock_resets, "max_lock_resets");
  io.signed32(c.ground_time_cap_us, "ground_time_cap_us");
  io.enumeration(c.scoring, "scoring");
  io.boolean(c.all_spin, "all_spin");
  if (!io.ok()) return;
  if (auto s = engine::check_config(c); !s) io.fail_at(at, DecodeErrorCode::kInvalidConfig, nullptr, s.error());
}

void fields(auto& io, Is<ModeSummary> auto& m) {
  io.enumeration(m.mode, "mode");
  io.enumeration(m.limit, "limit");
  io.count(m.limit_value, "limit_value", kMaxLimitValue);
  io.enumeration(m.goal, "goal");
}

void fields(auto& io, Is<RoomSettings> auto& s) {
  io.text(s.name, kRoomNameText, "name");
  io.scope("config", [&] { fields(io, s.config); });
  io.u8(s.max_racers, 1, kMaxRacers, "max_racers");
  io.boolean(s.is_private, "is_private");
  io.boolean(s.auto_start, "auto_start");
  io.u8(s.stall_budget_s, 0, kMaxStallBudgetS, "stall_budget_s");
}

void fields(auto& io, Is<RoomSummary> auto& r) {
  io.id(r.room_id, "room_id");
  io.text(r.name, kRoomNameText, "name");
  io.scope("mode", [&] { fields(io, r.mode); });
  const std::size_t racers_at = io.offset();
  io.u8(r.racers, 0, kMaxRacers, "racers");
  io.u8(r.max_racers, 1, kMaxRacers, "max_racers");
  io.check_at(racers_at, r.racers <= r.max_racers, DecodeErrorCode::kInconsistent, "racers", "more than max_racers");
  io.varint(r.spectators, 0, kMaxRoomMembers, "spectators");
  io.enumeration(r.phase, "phase");
  io.boolean(r.is_private, "is_private");
}

void fields(auto& io, Is<RoomMember> auto& m) {
  io.id(m.player_id, "player_id");
  io.text(m.name, kPlayerNameText, "name");
  io.enumeration(m.role, "role");
  const std::size_t ready_at = io.offset();
  io.boolean(m.ready, "ready");
  io.check_at(ready_at, !m.ready || m.role == Role::kRacer, DecodeErrorCode::kInconsistent, "ready",
              "a spectator cannot be ready");
}

void fields(auto& io, Is<RoomInfo> auto& r) {
  io.id(r.room_id, "room_id");
  io.scope("settings", [&] { fields(io, r.settings); });
  const std::size_t code_at = io.offset();
  io.text(r.code, kRoomCodeText, "code");
  io.check_at(code_at, r.code.empty() != r.settings.is_private, DecodeErrorCode::kInconsistent, "code",
              "a private room has a code and a public room none");
  const std::size_t host_at = io.offset();
  io.id(r.host_id, "host_id");
  io.enumeration(r.phase, "phase");
  io.varint(r.race_id, 0, std::numeric_limits<std::uint32_t>::max(), "race_id");
  const std::size_t members_at = io.offset();
  io.list(r.members, kMaxRoomMembers, kMinRoomMemberBytes, "members", [&](auto& m) { fields(io, m); });
  if (!io.ok()) return;
  std::size_t racers = 0;
  bool host_present = false;
  for (const auto& m : r.members) {
    racers += m.role == Role::kRacer ? 1 : 0;
    host_present = host_present || m.player_id == r.host_id;
  }
  io.check_at(members_at, !r.members.empty(), DecodeErrorCode::kOutOfRange, "members", "a room has a member");
  io.check_at(members_at, racers <= r.settings.max_racers, DecodeErrorCode::kInconsistent, "members",
              "more racers than settings.max_racers");
  io.check_at(host_at, host_present, DecodeErrorCode::kInconsistent, "host_id", "not a member");
  for (std::size_t i = 0; i < r.members.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      io.check_at(members_at, r.members[i].player_id != r.members[j].player_id, DecodeErrorCode::kInconsistent,
                  "members", "a player_id appears twice");
    }
  }
}

void fields(auto& io, Is<RaceEntrant> auto& e) {
  io.id(e.player_id, "player_id");
  io.text(e.name, kPlayerNameText, "name");
  io.scope("handling", [&] { fields(io, e.handling); });
}

void fields(auto& io, Is<CatchUpRacer> auto& r) {
  io.scope("entrant", [&] { fields(io, r.entrant); });
  io.enumeration(r.status, "status");
  io.time(r.end_time_us, "end_time_us");
  io.u8(r.place, 0, kMaxRacers, "place");
}

void fields(auto& io, Is<RacerLive> auto& r) {
  io.id(r.player_id, "player_id");
  io.enumeration(r.status, "status");
  io.u8(r.place, 0, kMaxRacers, "place");
  io.time(r.time_us, "time_us");
  io.count(r.lines, "lines");
  io.count(r.lines_left, "lines_left");
  io.count(r.score, "score");
  io.count(r.pieces, "pieces");
  io.varint(r.pps_x100, 0, std::numeric_limits<std::uint32_t>::max(), "pps_x100");
}

void fields(auto& io, Is<RacerResult> auto& r) {
  io.id(r.player_id, "player_id");
  io.text(r.name, kPlayerNameText, "name");
  io.u8(r.place, 0, kMaxRacers, "place");
  io.enumeration(r.status, "status");
  io.time(r.time_us, "time_us");
  io.count(r.lines, "lines");
  io.count(r.score, "score");
  io.count(r.pieces, "pieces");
  io.varint(r.pps_x100, 0, std::numeric_limits<std::uint32_t>::max(), "pps_x100");
  io.varint(r.kpp_x100, 0, std::numeric_limits<std::uint32_t>::max(), "kpp_x100");
  io.time(r.unverified_us, "unverified_us");
  io.varint(r.reconnects, 0, std::numeric_limits<std::uint32_t>::max(), "reconnects");
}

void fields(auto& io, Is<RelayPosition> auto& r) {
  io.id(r.player_id, "player_id");
  io.varint(r.next_seq, 0, std::numeric_limits<std::uint32_t>::max(), "next_seq");
}

void fields(auto& io, Is<GameRacer> auto& r) {
  io.text(r.name, kPlayerNameText, "name");
  io.u8(r.place, 0, kMaxRacers, "place");
  io.enumeration(r.status, "status");
  io.time(r.time_us, "time_us");
  io.count(r.lines, "lines");
  io.count(r.score, "score");
}

void fields(auto& io, Is<GameSummary> auto& g) {
  io.id(g.game_id, "game_id");
  io.signed64(g.played_at_unix_s, "played_at_unix_s");
  io.scope("mode", [&] { fields(io, g.mode); });
  io.time(g.duration_us, "duration_us");
  const std::size_t racers_at = io.offset();
  io.list(g.racers, kMaxRacers, kMinGameRacerBytes, "racers", [&](auto& r) { fields(io, r); });
  io.check_at(racers_at, !g.racers.empty(), DecodeErrorCode::kOutOfRange, "racers", "a game has a racer");
}

void fields(auto& io, Is<LadderGame> auto& g) {
  io.varint(g.game_id, 0, std::numeric_limits<std::uint64_t>::max(), "game_id");
  io.count(g.score, "score");
  io.count(g.lines, "lines");
}

// The row alone; the Ladder checks it against its ranked_games and counted_best.
void fields(auto& io, Is<LadderRow> auto& r) {
  io.text(r.entrant, kPlayerNameText, "entrant");
  io.u8(r.ranked_played, 0, kMaxLadderRankedGames, "ranked_played");
  const std::size_t at = io.offset();
  io.list(r.best, kMaxLadderCountedBest, kMinLadderGameBytes, "best", [&](auto& g) { fields(io, g); });
  for (std::size_t i = 1; i < r.best.size(); ++i) {
    io.check_at(at, r.best[i].score <= r.best[i - 1].score, DecodeErrorCode::kInconsistent, "best", "not best first");
  }
  io.check_at(at, r.best.size() <= r.ranked_played, DecodeErrorCode::kInconsistent, "best",
              "more best games than ranked games played");
}

}  // namespace sr::protocol::detail
