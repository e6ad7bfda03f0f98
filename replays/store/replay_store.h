// The replay store: a directory of replay files plus an SQLite index of them (index.sqlite), or a PostgreSQL
// database (a postgresql:// locator, pg_store.h), for the server's replay writer, the client's replay browser and
// `stackrace-replay list / verify / reindex / add`. Both keep the same games and answer the same queries alike
// (tests/replays/store_backends: one suite runs on both).
//
// # Layout
// DIR/<id>.srr are the replays (any *.srr file in DIR counts; its id is the file name without .srr), and
// DIR/index.sqlite the index: one row per game (id, time, mode, rules, verified flag) and one per racer result
// (with the short id of the racer's key). The files are the truth: reindex() rebuilds the index from them alone.
// The index's layout has a version (SQLite's user_version); open() brings an older index up to date in place and
// refuses a newer one.
//
// # Writes
// add() writes the file atomically (file_io.h, fsync of the file and the directory) and only then indexes it in one
// transaction (SQLite synchronous = FULL: durable at COMMIT). A write that fails (a full disk) leaves neither the
// file nor a row; a crash leaves at worst a file without a row, or a temporary file, which reconcile() fixes. Every
// indexed replay has been verified (verify.h); only verified replays count for best results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/events.h"
#include "common/replay/error.h"
#include "common/replay/replay.h"
#include "common/replay/verify.h"
#include "replays/store/sqlite_db.h"

namespace sr::replay {

struct StoredResult {
  std::size_t racer = 0;
  std::string player;
  // The short id (8 hex digits, net/identity/key_id.h) of the key the racer proved to the server
  // that recorded the game (Racer::key); empty when the replay holds none (solo games, older files).
  std::string key_id;
  // The store holds games where another key raced under this name: show key_id beside it (shown_name()).
  bool name_shared = false;
  ResultStatus status = ResultStatus::kFinished;
  engine::TopOut top_out = engine::TopOut::kNone;
  engine::TimeUs time_us = 0;
  std::int64_t lines = 0;
  std::int64_t score = 0;
  std::int64_t pieces = 0;
};

struct StoredGame {
  std::string id;
  // The file's path: the store's directory (as given to open()) joined with its name; empty in a database store
  // (ReplayStore::load() reads a game from either).
  std::filesystem::path file;
  std::int64_t created_unix_ms = 0;
  std::string place;
  engine::ModeKind mode = engine::ModeKind::kSprint;
  engine::LimitKind limit = engine::LimitKind::kNone;
  std::int64_t limit_value = 0;
  engine::GoalKind goal = engine::GoalKind::kTime;
  std::uint32_t rules_version = 0;
  bool verified = false;
  std::string verify_note;            // the verifier's one-line message
  std::vector<StoredResult> results;  // in racer order
};

// The best result of one mode and limit (e.g. sprint, 40 lines): the lowest finishing time for time goals, the
// highest score (or lines) otherwise, among finished games and, where the game has no time limit (marathon,
// endless), topped-out ones: a top-out before an ultra's time is up is a lost game. Verified games only. The
// client's counts_for_best (client/solo/results.h) keeps the same rule.
struct BestResult {
  engine::ModeKind mode = engine::ModeKind::kSprint;
  engine::LimitKind limit = engine::LimitKind::kNone;
  std::int64_t limit_value = 0;
  engine::GoalKind goal = engine::GoalKind::kTime;
  std::string player;
  std::string game_id;
  std::int64_t created_unix_ms = 0;
  engine::TimeUs time_us = 0;
  std::int64_t score = 0;
  std::int64_t lines = 0;
  std::string key_id;        // as StoredResult's
  bool name_shared = false;  // as StoredResult's
};

// The name to show for a result: "Ada", or "Ada #1a2b3c4d" where two keys raced under "Ada" in this store.
[[nodiscard]] std::string shown_name(const std::string& player, const std::string& key_id, bool name_shared);
[[nodiscard]] inline std::string shown_name(const StoredResult& r) {
  return shown_name(r.player, r.key_id, r.name_shared);
}
[[nodiscard]] inline std::string shown_name(const BestResult& b) {
  return shown_name(b.player, b.key_id, b.name_shared);
}

struct StoreQuery {
  std::optional<engine::ModeKind> mode;  // only games of this mode
  std::optional<std::string> player;     // only games with a racer of this name (exact)
  std::size_t limit = 20;                // recent(): at most this many games, newest first
  // recent(): only the games listed after the game with this id (paging); none if there is no such game.
  std::optional<std::string> after_id;
  // recent(): only games played (created) at or after since_unix_ms and before until_unix_ms.
  std::optional<std::int64_t> since_unix_ms;
  std::optional<std::int64_t> until_unix_ms;
  // recent(): only games with a racer (with `player`: that player) whose result has this status.
  std::optional<ResultStatus> status;
  // recent(): only games whose verifier's verdict at indexing was this.
  std::optional<bool> verified;
  // recent(): only the game with this id (at most one).
  std::optional<std::string> id;
};

struct ReindexReport {
  std::size_t indexed = 0;
  std::size_t verified = 0;
  std::vector<std::string> unreadable;  // "file: reason", for files that did not decode (not indexed)
};

// What reconcile() changed; all zero and empty when files and index agreed.
struct ReconcileReport {
  std::size_t temp_files_removed = 0;   // leftovers of writes a crash interrupted
  std::size_t rows_removed = 0;         // index rows whose file is gone
  std::size_t files_indexed = 0;        // files the index did not list
  std::vector<std::string> unreadable;  // "file: reason", unindexed files that did not decode (left in place)
  // One line for a log: "files and index agree" or what was done.
  [[nodiscard]] std::string summary() const;
};

// The id of a stored replay: 16 hex digits of FNV-1a 64 of its binary encoding. Values are stored (file names, rows):
// never change the hash.
[[nodiscard]] std::string content_id(const std::vector<std::uint8_t>& bytes);

class PgStore;

// How long a store in a database may keep its caller waiting (a folder store ignores it).
struct StoreWaits {
  // 0: as libpq does (a connection attempt gives up after 10 s, a query waits as long as it takes). Otherwise each
  // query is cancelled after this long (statement_timeout), an unanswered connection is dropped after it
  // (tcp_user_timeout), and after a failed reconnection the store does not try again for 5 s (it fails at once):
  // for a caller on a game loop, which must not stall on a database that is gone.
  std::int64_t max_wait_ms = 0;
};

class ReplayStore {
 public:
  inline static const char* kIndexFile = "index.sqlite";
  inline static const char* kExtension = ".srr";

  // Opens the store in `dir`, creating the index (and, with `create`, the directory) when missing. A locator that
  // starts with postgresql:// or postgres:// (libpq's URI; missing parts come from PGHOST, PGPORT, PGUSER,
  // PGPASSWORD, PGDATABASE) opens a store in that database instead, creating or migrating its tables (pg_store.h);
  // `create` does not matter there: the database must exist.
  // # Errors: kIo. For a database: "cannot connect to the database at HOST:PORT/DB: ..." (never a password), or
  // "the database's schema is version N; this build knows up to M".
  [[nodiscard]] static Result<ReplayStore> open(const std::filesystem::path& dir, bool create = false,
                                                const StoreWaits& waits = {});

  ReplayStore(ReplayStore&&) noexcept;
  ReplayStore& operator=(ReplayStore&&) noexcept;
  ~ReplayStore();

  // Stores a replay (valid: check_replay() is ok) as DIR/<id>.srr and indexes it. The id is 16 hex digits of a
  // hash of the file's bytes, so adding the same replay twice stores it once. Returns the id. # Errors: kIo.
  // `verified`: what verify() said of this very replay, for a caller that has just re-simulated it (the records
  // hub): the store indexes that verdict instead of re-simulating a second time.
  [[nodiscard]] Result<std::string> add(const Replay& replay, const VerifyReport* verified = nullptr);

  // The stored bytes of the game `id` (its binary encoding, decode_binary()). # Errors: kIo (no such game).
  [[nodiscard]] Result<std::vector<std::uint8_t>> load(const std::string& id);

  // Drops the index and rebuilds it from every *.srr file in the directory (decoding and verifying each), and
  // removes leftover temporary files as reconcile() does. In a database: decodes and verifies every stored replay
  // again and rewrites its rows (ones whose bytes do not decode stay, listed as unreadable).
  [[nodiscard]] Result<ReindexReport> reindex();
  // Makes the index agree with the files without rebuilding it: removes rows whose file is gone, indexes files it
  // does not list, and removes temporary files left by an interrupted write of a process that is gone (or of this
  // process's id, reused after a crash: call it before this process writes). For a store's owner at start-up. In a
  // database there are no files: nothing to do (an empty report).
  [[nodiscard]] Result<ReconcileReport> reconcile();

  // Games, newest first (ties by id), filtered by the query.
  [[nodiscard]] Result<std::vector<StoredGame>> recent(const StoreQuery& query);
  // One best result per (mode, limit, limit value), filtered by the query (with a player: that player's bests).
  [[nodiscard]] Result<std::vector<BestResult>> best(const StoreQuery& query);

  // The folder; empty for a store in a database.
  [[nodiscard]] const std::filesystem::path& dir() const { return dir_; }
  [[nodiscard]] bool in_database() const { return pg_ != nullptr; }
  // Where the store is, for messages and logs: the folder, or "postgresql://HOST:PORT/DB" (never a password).
  [[nodiscard]] std::string where() const;

 private:
  ReplayStore(std::filesystem::path dir, sqlite::Db db);
  explicit ReplayStore(std::unique_ptr<PgStore> pg);
  [[nodiscard]] sr::Status<std::string> index(const std::string& id, const std::string& file, const Replay& replay,
                                              const VerifyReport* verified = nullptr);
  // Removes temporary files of write_file_atomic() whose writer is gone. Returns how many.
  std::size_t remove_leftovers();

  std::filesystem::path dir_;
  sqlite::Db db_;
  std::unique_ptr<PgStore> pg_;  // set for a store in a database: every operation goes there
};

}  // namespace sr::replay
