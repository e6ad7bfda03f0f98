// The JSON the web pages' server writes: the API's objects (web/API.md) and the live feed's events (web/README.md,
// "The live feed"). Every text from players (names, chat, room titles) goes through JsonWriter's html_safe escaping:
// '<', '>' and '&' never appear raw, so no response can be read as markup, whatever a page or tool does with it.
#pragma once

#include <cstdint>
#include <string>

#include "common/protocol/messages.h"
#include "replays/store/replay_store.h"
#include "web/wasm/json_writer.h"

namespace sr::server::web {

using sr::web::JsonWriter;

// A JsonWriter for the server's output (html_safe).
[[nodiscard]] inline JsonWriter json_writer() { return JsonWriter(true); }

// "racing", "finished", "topped_out", "disconnected", "removed", "unfinished".
[[nodiscard]] const char* racer_status_name(protocol::RacerStatus status);
// "waiting", "countdown", "racing", "results".
[[nodiscard]] const char* room_phase_name(protocol::RoomPhase phase);
// "all_done", "time_up", "aborted".
[[nodiscard]] const char* race_end_name(protocol::RaceEndReason reason);
// A stored game's id as the store names it: 16 lower-case hex digits.
[[nodiscard]] std::string game_id_text(std::uint64_t game_id);
// True for 16 hex digits (either case): the only game ids the pages and the API take.
[[nodiscard]] bool is_game_id(std::string_view text);

// {"mode", "limit", "limit_value", "goal"}
void put_mode(JsonWriter& w, const protocol::ModeSummary& mode);
// A public room: {"id", "name", "mode", "phase", "race_id", "max_racers", "racers", "spectators", "members":
// [{"name", "role", "ready"}], "live": "live/<id>"}.
void put_room(JsonWriter& w, const protocol::RoomInfo& room);
// A stored game: {"id", "played_unix_ms", "place", "mode", "rules_version", "verified", "verify_note", "racers":
// [{"name", "status", "top_out", "time_us", "lines", "score", "pieces", "place"}], "page", "srr", "json"}.
void put_game(JsonWriter& w, const replay::StoredGame& game);
// A record: {"mode", "player", "game_id", "played_unix_ms", "time_us", "score", "lines", "page"}.
void put_record(JsonWriter& w, const replay::BestResult& best);
// The contest ladder: {"ranked_games", "counted_best", "entrants", "rows": [{"rank", "entrant", "average",
// "ranked_played", "best": [{"game_id", "score", "lines"}]}]}.
void put_ladder(JsonWriter& w, const protocol::Ladder& ladder);

}  // namespace sr::server::web
