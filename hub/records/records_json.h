// The records hub's read API as JSON (common/protocol/RECORDS.md section 5), and the sentences saying why a run is
// listed where it is. Strings are written html_safe (web::JsonWriter): a player's or a server's name can never form
// markup wherever the JSON is shown.
#pragma once

#include <string>
#include <vector>

#include "hub/records/record_book.h"
#include "hub/records/trust.h"
#include "replays/store/replay_store.h"
#include "web/wasm/json_writer.h"

namespace sr::hub::records {

// ENTRY: {"record","place","board","list","player","key","key_id","time_us","score","lines","pieces",
// "rules_version","server","server_key_id","server_web","played_unix_ms","game"}; "place" is null for a run that is
// not its player's best on its list.
void put_entry(web::JsonWriter& w, const Entry& entry);

// {"boards":[{"board","mode","limit","goal","custom","trusted","other"}...]}
[[nodiscard]] std::string boards_json(const std::vector<BoardSummary>& boards);
// {"board","list","total","offset","entries":[ENTRY...]}
[[nodiscard]] std::string board_json(const BoardPage& page, ListKind list, std::int64_t offset);
// {"board","list","place","of"}
[[nodiscard]] std::string place_json(const std::string& board, ListKind list, const Place& place);
// ENTRY with "best", "best_record", "unverified_us", "submitted_unix_ms", "racer" and "why": [sentences].
[[nodiscard]] std::string run_json(const Entry& entry, const TrustList& trust);
// {"key","key_id","names":[...],"records":[ENTRY...]}
[[nodiscard]] std::string player_json(const PlayerRecords& player);
// What the replay page (web/js/game.js) reads of `api/v1/games/<id>`: the game as web/API.md gives it, without the
// server's own fields (verified is the hub's re-simulation at storing).
[[nodiscard]] std::string game_json(const replay::StoredGame& game);

// Why `entry` is listed where it is, a sentence per reason: re-simulated by this hub, signed by the player's key, the
// server and whether this hub's operator trusts it and its referee vouched for the run's pace, and whether it is the
// player's best on its list.
[[nodiscard]] std::vector<std::string> why_listed(const Entry& entry, const TrustList& trust);

// The result as people read it: "41.234 s (40 lines, 101 pieces)" for a time goal, "123456 points (57 lines, 300
// pieces)" for a score goal, "57 lines (300 pieces)" for a lines goal.
[[nodiscard]] std::string result_text(const Entry& entry);
// Game time as "41.234 s", or "1:02.345" from a minute on (the web pages' formatTime).
[[nodiscard]] std::string race_time_text(std::int64_t time_us);

}  // namespace sr::hub::records
