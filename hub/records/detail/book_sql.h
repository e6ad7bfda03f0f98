// Internal to the record book (record_book.h): its schema and the SQL and row reading its .cpp files share. Every
// statement here is one PostgreSQL runs as well (the PRAGMAs, SQLite's, are kept apart in record_book.cpp).
#pragma once

#include <optional>
#include <string>

#include "common/result.h"
#include "hub/records/detail/book_db.h"
#include "hub/records/record_book.h"

namespace sr::hub::records::detail {

inline constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS servers (
  server_key TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  name TEXT NOT NULL,
  web TEXT NOT NULL,
  first_seen_unix_ms BIGINT NOT NULL,
  last_seen_unix_ms BIGINT NOT NULL,
  submissions BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS trusted_servers (
  server_key TEXT PRIMARY KEY,
  name TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS submissions (
  id BIGINT PRIMARY KEY,
  replay_hash TEXT NOT NULL UNIQUE,
  game_id TEXT NOT NULL,
  server_key TEXT NOT NULL REFERENCES servers (server_key),
  server_name TEXT NOT NULL,
  server_web TEXT NOT NULL,
  server_game TEXT NOT NULL,
  sequence BIGINT NOT NULL,
  received_unix_ms BIGINT NOT NULL,
  source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS boards (
  board TEXT PRIMARY KEY,
  mode TEXT NOT NULL,
  limit_kind TEXT NOT NULL,
  limit_value BIGINT NOT NULL,
  goal TEXT NOT NULL,
  custom INTEGER NOT NULL,
  limit_text TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  id BIGINT PRIMARY KEY,
  record TEXT NOT NULL UNIQUE,
  submission_id BIGINT NOT NULL REFERENCES submissions (id),
  game_id TEXT NOT NULL,
  racer INTEGER NOT NULL,
  board TEXT NOT NULL REFERENCES boards (board),
  list_kind TEXT NOT NULL,
  player_key TEXT NOT NULL,
  key_id TEXT NOT NULL,
  player TEXT NOT NULL,
  run_digest TEXT NOT NULL,
  time_us BIGINT NOT NULL,
  score BIGINT NOT NULL,
  lines BIGINT NOT NULL,
  pieces BIGINT NOT NULL,
  rank_value BIGINT NOT NULL,
  unverified_us BIGINT NOT NULL,
  rules_version BIGINT NOT NULL,
  server_key TEXT NOT NULL,
  played_unix_ms BIGINT NOT NULL,
  UNIQUE (player_key, run_digest)
);
CREATE TABLE IF NOT EXISTS bests (
  board TEXT NOT NULL,
  list_kind TEXT NOT NULL,
  player_key TEXT NOT NULL,
  run_id BIGINT NOT NULL REFERENCES runs (id),
  rank_value BIGINT NOT NULL,
  PRIMARY KEY (board, list_kind, player_key)
);
-- The order of a list; it holds player_key too, so that counting the bests before a place reads the index alone.
CREATE INDEX IF NOT EXISTS bests_rank ON bests (board, list_kind, rank_value, run_id, player_key);
CREATE INDEX IF NOT EXISTS runs_player ON runs (player_key);
CREATE INDEX IF NOT EXISTS runs_key_id ON runs (key_id);
CREATE INDEX IF NOT EXISTS runs_server ON runs (server_key);
)sql";

// The columns read_entry() reads, and the joins they come from (r: runs, s: submissions, bd: boards).
inline constexpr const char* kEntryColumns =
    "r.record, r.board, r.list_kind, r.player, r.player_key, r.key_id, r.time_us, r.score, r.lines, r.pieces, "
    "r.unverified_us, r.rules_version, r.racer, s.server_name, r.server_key, s.server_web, r.played_unix_ms, "
    "s.received_unix_ms, r.game_id, bd.mode, bd.limit_kind, bd.limit_value, bd.goal, bd.custom, bd.limit_text, r.id, "
    "r.rank_value";
inline constexpr const char* kEntryFrom =
    " FROM runs r JOIN submissions s ON s.id = r.submission_id JOIN boards bd ON bd.board = r.board";

// The entry of the current row of a statement selecting kEntryColumns, with its run id and rank value (place and
// best are left for the caller).
struct EntryRow {
  Entry entry;
  std::int64_t run_id = 0;
  std::int64_t rank_value = 0;
};
[[nodiscard]] EntryRow read_entry(const BookStatement& s);

// A board from the boards table's columns (id, mode, limit_kind, limit_value, goal, custom, limit_text) from `first`
// on.
[[nodiscard]] Board read_board(const BookStatement& s, int first);

// A prepared statement, or the database's sentence.
[[nodiscard]] sr::Result<BookStatement, std::string> prepare(BookDb& db, const char* sql);

// Steps a statement with no rows to the end. # Errors: the database's sentence.
[[nodiscard]] sr::Status<std::string> run(BookDb& db, BookStatement& s);

// The first column of the only row of a query (0 when it gives none). # Errors: the database's sentence.
[[nodiscard]] sr::Result<std::int64_t, std::string> scalar(BookDb& db, BookStatement& s);

}  // namespace sr::hub::records::detail
