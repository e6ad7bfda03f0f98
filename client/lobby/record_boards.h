// A records hub's boards as the game reads them (common/protocol/RECORDS.md, section 5, "Reading the boards"): the
// answers of GET /api/records, /api/records/<board>?list=... and /api/records/<board>/place?..., parsed with
// RapidJSON. Every answer is hostile input: a body that is not the API's JSON (not JSON, not UTF-8, a member missing or
// of the wrong type, a number out of its range, a text over its length, more entries than asked for) is refused whole
// with one sentence naming what was wrong and where ("entries[3]: \"time_us\" is not a whole number from 0 to
// 1099511627776"), never a crash. Texts are kept as sent, except that control characters are shown as '?'. Pure: no
// sockets (the screens fetch with client/web/http_get.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/engine/config.h"
#include "common/result.h"

namespace sr::client {

// A board's two lists (RECORDS.md section 4, "Two lists"). The API names them "trusted" and "other".
enum class RecordList : std::uint8_t { kTrusted, kOther };
[[nodiscard]] const char* record_list_name(RecordList list);

// Bounds on what an answer may hold. Counts and places are at most kMaxRecordCount.
inline constexpr std::size_t kMaxRecordAnswerBytes = 1u << 20;  // the fetch's cap too
inline constexpr std::size_t kMaxBoards = 1000;
inline constexpr std::size_t kMaxRecordNameBytes = 64;  // player and server names (servers allow 16 and 32 today)
inline constexpr std::int64_t kMaxRecordCount = 1'000'000'000;

// One board of GET /api/records.
struct RecordBoardSummary {
  std::string board;  // a board id (replay::valid_board_id): "sprint-40l", "sprint-40l.3fa2c9d1"
  std::string mode;   // "sprint" (at most 32 bytes)
  std::string limit;  // "40 lines" (at most 64 bytes)
  engine::GoalKind goal = engine::GoalKind::kTime;  // "time", "score" or "lines"
  bool custom = false;                              // not the mode's standard settings
  std::int64_t trusted = 0;                         // entries on each list, 0..kMaxRecordCount
  std::int64_t other = 0;
  bool operator==(const RecordBoardSummary&) const = default;
};

// One ENTRY: a player's best on a board's list.
struct RecordEntry {
  std::string record;        // "<game>-<racer>" (at most 64 bytes of [0-9a-z-])
  std::int64_t place = 0;    // 1..kMaxRecordCount
  std::string player;        // their name in that run (at most kMaxRecordNameBytes)
  std::string key;           // 64 lower-case hex digits, or "" when the hub left it out
  std::string key_id;        // 8 lower-case hex digits (net::short_key_id)
  std::int64_t time_us = 0;  // 0..protocol::kMaxTimeUs
  std::int64_t score = 0;    // 0..2^62 (lines and pieces too)
  std::int64_t lines = 0;
  std::int64_t pieces = 0;          // 0 when left out
  std::uint32_t rules_version = 0;  // 1..65535
  std::string server;               // its name (at most kMaxRecordNameBytes)
  std::string server_key_id;        // 8 lower-case hex digits
  std::string server_web;           // its web pages, "" when none (at most 200 bytes)
  std::int64_t played_unix_ms = 0;  // 0..replay::kMaxCreatedUnixMs
  std::string game;                 // the hub's 16-hex id of the game, "" when left out
  bool operator==(const RecordEntry&) const = default;
};

// GET /api/records/<board>?list=...&offset=...&limit=...
struct RecordPage {
  std::string board;
  RecordList list = RecordList::kTrusted;
  std::int64_t total = 0;            // entries on the list, 0..kMaxRecordCount
  std::vector<RecordEntry> entries;  // best first
  bool operator==(const RecordPage&) const = default;
};

// GET /api/records/<board>/place?time_us=N (or score=N): where such a result would place on a list.
struct RecordPlace {
  std::string board;
  RecordList list = RecordList::kTrusted;
  std::int64_t place = 0;  // 1..of + 1
  std::int64_t of = 0;     // entries on that list now, 0..kMaxRecordCount
  bool operator==(const RecordPlace&) const = default;
};

// {"boards":[...]}: every board, in the hub's order (at most kMaxBoards).
[[nodiscard]] sr::Result<std::vector<RecordBoardSummary>, std::string> parse_record_boards(std::string_view json);

// The page asked for: its "board" and "list" must be the ones asked for, and it holds at most `max_entries` entries.
[[nodiscard]] sr::Result<RecordPage, std::string> parse_record_page(std::string_view json, std::string_view board,
                                                                    RecordList list, std::size_t max_entries);

// The place asked for on `board`.
[[nodiscard]] sr::Result<RecordPlace, std::string> parse_record_place(std::string_view json, std::string_view board);

}  // namespace sr::client
