// Internal to the replay store: its PostgreSQL backend, behind ReplayStore when the locator is a postgresql:// URI
// (replay_store.h). Callers use ReplayStore; tests use this header for the schema's versions.
//
// # Layout
// games: one row per game, the replay's bytes (bytea) and what the folder store's index.sqlite keeps; id is the same
// 16-hex content id as a folder store's file name, so adding a replay twice stores it once. results: one row per
// racer (with its key's short id since version 2, and since version 3 its game's mode, limit and time, whether it
// counts for a best and its rank value: the leaderboard's index). modes_played (version 3): the (mode, limit) pairs
// that have games. schema_version: one row, the version of the schema (kSchemaVersion after open()). The database is
// the truth: there are no files.
//
// # Migrations
// Numbered from 1 (kMigrations[i] takes the schema from version i to i + 1). open() applies the missing ones in one
// transaction under an advisory lock, so servers that start at once against an empty database create it once and
// none sees half a schema. A database newer than this build is refused, never changed.
//
// # Connections
// One connection per store; an operation on a connection the server dropped reconnects first (once), so a database
// that comes back serves the next write. Not thread-safe, as the folder store is not.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "common/replay/error.h"
#include "common/replay/replay.h"
#include "common/replay/verify.h"
#include "replays/store/pg_db.h"
#include "replays/store/replay_store.h"

namespace sr::replay {

class PgStore {
 public:
  // The SQL of each migration: kMigrations[0] makes version 1 from an empty database. Values are stored: never
  // change a migration that has shipped; add one.
  static const std::array<const char*, 3> kMigrations;
  static constexpr int kSchemaVersion = 3;
  // The advisory lock key that open() holds while it migrates ("stackrace" in ASCII, truncated).
  static constexpr std::int64_t kMigrationLock = 0x737461636B72;

  // Connects and brings the schema to kSchemaVersion.
  // # Errors: kIo: "cannot connect to the database at HOST:PORT/DB: ...", "the database's schema is version N; this
  // build knows up to M", or a failed migration (nothing of it applied).
  // `max_wait_ms` as StoreWaits::max_wait_ms (replay_store.h).
  [[nodiscard]] static Result<PgStore> open(const std::string& uri, std::int64_t max_wait_ms = 0);

  // As ReplayStore::add; `bytes` are the replay's encoding and `id` their content id. # Errors: kIo.
  [[nodiscard]] Result<std::string> add(const Replay& replay, const std::vector<std::uint8_t>& bytes,
                                        const std::string& id, const VerifyReport* verified = nullptr);
  [[nodiscard]] Result<std::vector<StoredGame>> recent(const StoreQuery& query);
  [[nodiscard]] Result<std::vector<BestResult>> best(const StoreQuery& query);
  // The stored bytes of a game. # Errors: kIo (no such game, a database error).
  [[nodiscard]] Result<std::vector<std::uint8_t>> load(const std::string& id);
  // Decodes and verifies every stored replay again and rewrites its rows; rows whose bytes do not decode are left
  // as they are and listed as unreadable ("id: reason").
  [[nodiscard]] Result<ReindexReport> reindex();

  // "HOST:PORT/DB" (never a password).
  [[nodiscard]] std::string describe() const { return conn_.describe(); }

 private:
  PgStore(pg::Conn conn, std::int64_t max_wait_ms) : conn_(std::move(conn)), max_wait_ms_(max_wait_ms) {}
  // Reconnects if the server dropped the connection. Returns ok, or why not.
  [[nodiscard]] sr::Status<std::string> ensure_connected();
  // Writes a game's results (and, with `update`, its game row's verdict) inside the caller's transaction.
  [[nodiscard]] sr::Status<std::string> write_results(const std::string& id, const Replay& replay);
  [[nodiscard]] Error fail(const std::string& what, const std::string& why) const;

  pg::Conn conn_;
  std::int64_t max_wait_ms_ = 0;
  // When the last reconnection failed (with max_wait_ms_: none is tried again within 5 s of it).
  std::chrono::steady_clock::time_point failed_reset_{};
};

}  // namespace sr::replay
