// The contest ladder in PostgreSQL (stackrace-server --database): the same entrants and games as ladder.sqlite
// (ladder_store.h), in tables every server of a fleet shares, so a name is held by one key fleet-wide and an
// entrant's ranked games are counted over every server.
//
// # Tables
// ladder_entrants: name_key (ladder_key(): the name in ASCII lower case, the primary key), name (as first written),
// key (the holder's player key, 64 hex digits), created_unix_ms, position (the order they were claimed in).
// ladder_games: seq (the order games started in, fleet-wide), entrant_key, entrant (as written for the game),
// ranked, scored, score, lines, game_id (the stored replay's id as a number, two's complement above 2^63),
// started_unix_ms, server (the name of the server that played it). ladder_schema_version: one row, kSchemaVersion
// after open(). Migrations run in one transaction under an advisory lock (servers starting at once make them once).
//
// # Entering
// enter() claims the name, checks the ladder's size and the entrant's ranked games, and spends the game, all in one
// transaction under an advisory lock: two servers admitting the same entrant at once cannot both let a last ranked
// game through. An entrant from before player keys (a ladder.sqlite secret) does not exist here.
//
// Not thread-safe: the Ladder's worker thread owns it (ladder.h). Every query is cut off after `max_wait_ms`.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "common/protocol/messages.h"
#include "common/result.h"
#include "replays/store/pg_db.h"
#include "server/ladder_store.h"

namespace sr::server {

class PgLadderStore {
 public:
  static constexpr std::int64_t kSchemaVersion = 1;
  static const std::array<const char*, 1> kMigrations;  // kMigrations[v - 1] makes version v
  // Held while migrating ("ladder" in ASCII) and while entering ("ladder1").
  static constexpr std::int64_t kMigrationLock = 0x6C6164646572;
  static constexpr std::int64_t kEnterLock = 0x6C616464657231;

  // Connects and brings the schema to kSchemaVersion. Ok, or a sentence naming the database (never its password).
  [[nodiscard]] sr::Status<std::string> open(const std::string& uri, std::int64_t max_wait_ms);

  struct Limits {
    std::size_t max_entrants = 10'000;
    int ranked_games = 10;
  };
  enum class Outcome : std::uint8_t {
    kAdmitted,  // the game is spent: `seq`
    kFull,      // a new name, and the ladder has max_entrants
    kOtherKey,  // the name is held by another key
    kSpent,     // a ranked game, and the entrant has played ranked_games
  };
  struct Entered {
    Outcome outcome = Outcome::kAdmitted;
    bool new_entrant = false;
    std::string name;  // the entrant as first written (the one asked for when new)
    std::int64_t seq = 0;
  };
  [[nodiscard]] sr::Result<Entered, std::string> enter(const std::string& name, const protocol::PublicKeyBytes& key,
                                                       bool ranked, std::int64_t unix_ms, const Limits& limits);
  // A game admitted but never started (its player left before the room was made): it is not spent.
  [[nodiscard]] sr::Status<std::string> cancel(std::int64_t seq);
  [[nodiscard]] sr::Status<std::string> set_result(std::int64_t seq, std::int64_t score, std::int64_t lines);
  [[nodiscard]] sr::Status<std::string> set_replay(std::int64_t seq, std::uint64_t game_id);
  // Every entrant and ranked game of the whole fleet, and the number of practice games.
  [[nodiscard]] sr::Result<LadderStore::Contents, std::string> load();

  // Makes the connection again if it dropped (at most once a second). Ok, or why not.
  [[nodiscard]] sr::Status<std::string> ensure_connected();
  // "HOST:PORT/DB", for messages.
  [[nodiscard]] std::string describe() const { return conn_.describe(); }
  // Which server plays the games this store spends (ladder_games.server).
  void set_server_name(std::string name) { server_ = std::move(name); }

 private:
  [[nodiscard]] sr::Status<std::string> update(const char* sql, const std::vector<replay::pg::Param>& params);

  replay::pg::Conn conn_;
  std::string server_;
  std::int64_t last_reset_ms_ = -1'000'000;
};

}  // namespace sr::server
