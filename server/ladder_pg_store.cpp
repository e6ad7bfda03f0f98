#include "server/ladder_pg_store.h"

#include <algorithm>
#include <chrono>

#include "server/ladder_ranking.h"

namespace sr::server {
namespace {

using replay::pg::Param;

constexpr const char* kMigration1 = R"sql(
CREATE TABLE ladder_entrants (
  name_key TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL,
  key TEXT COLLATE "C" NOT NULL,
  created_unix_ms BIGINT NOT NULL,
  position BIGSERIAL NOT NULL
);
CREATE TABLE ladder_games (
  seq BIGSERIAL PRIMARY KEY,
  entrant_key TEXT COLLATE "C" NOT NULL REFERENCES ladder_entrants (name_key),
  entrant TEXT COLLATE "C" NOT NULL,
  ranked BOOLEAN NOT NULL,
  scored BOOLEAN NOT NULL DEFAULT false,
  score BIGINT NOT NULL DEFAULT 0,
  lines BIGINT NOT NULL DEFAULT 0,
  game_id BIGINT NOT NULL DEFAULT 0,
  started_unix_ms BIGINT NOT NULL,
  server TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX ladder_games_ranked ON ladder_games (entrant_key) WHERE ranked;
)sql";

std::int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

const std::array<const char*, 1> PgLadderStore::kMigrations = {kMigration1};
static_assert(PgLadderStore::kSchemaVersion == 1, "one migration per version: kMigrations[v - 1] makes version v");

sr::Status<std::string> PgLadderStore::open(const std::string& uri, std::int64_t max_wait_ms) {
  auto conn = replay::pg::Conn::connect(uri, max_wait_ms);
  if (!conn.ok()) return conn.error();
  conn_ = std::move(conn).value();
  const std::string where = "the contest ladder in the database at " + conn_.describe();
  auto migrated = replay::pg::migrate(conn_, {kMigrationLock, "ladder_schema_version", kMigrations});
  if (!migrated) {
    const replay::pg::MigrateError& e = migrated.error();
    return "cannot prepare " + where + ": " +
           (e.newer_version == 0 ? e.why
                                 : "its schema is version " + std::to_string(e.newer_version) +
                                       "; this build knows up to " + std::to_string(kSchemaVersion));
  }
  return {};
}

sr::Status<std::string> PgLadderStore::ensure_connected() {
  if (conn_.alive()) return {};
  const std::int64_t now = steady_ms();
  if (now - last_reset_ms_ < 1'000) return "the database at " + conn_.describe() + " is unreachable";
  last_reset_ms_ = now;
  return conn_.reset();
}

sr::Result<PgLadderStore::Entered, std::string> PgLadderStore::enter(const std::string& name,
                                                                     const protocol::PublicKeyBytes& key, bool ranked,
                                                                     std::int64_t unix_ms, const Limits& limits) {
  if (auto connected = ensure_connected(); !connected) return sr::fail(connected.error());
  const auto rollback = [&](const std::string& why) -> sr::Result<Entered, std::string> {
    if (conn_.alive()) (void)conn_.exec("ROLLBACK");
    return sr::fail(why);
  };
  const auto settle = [&](Entered e) -> sr::Result<Entered, std::string> {
    if (auto committed = conn_.exec(e.outcome == Outcome::kAdmitted ? "COMMIT" : "ROLLBACK"); !committed) {
      return rollback(committed.error());
    }
    return e;
  };
  const std::string name_key = ladder_key(name);
  const std::string key_hex = protocol::key_hex(key);
  if (auto begun = conn_.exec("BEGIN"); !begun) return rollback(begun.error());
  if (auto locked = conn_.query("SELECT pg_advisory_xact_lock($1::bigint)", {kEnterLock}); !locked.ok()) {
    return rollback(locked.error());
  }
  Entered e;
  auto found = conn_.query("SELECT name, key FROM ladder_entrants WHERE name_key = $1", {name_key});
  if (!found.ok()) return rollback(found.error());
  if (found.value().size() == 0) {
    auto count = conn_.query("SELECT count(*) FROM ladder_entrants", {});
    if (!count.ok()) return rollback(count.error());
    if (count.value().int_at(0, 0) >= static_cast<std::int64_t>(limits.max_entrants)) {
      e.outcome = Outcome::kFull;
      return settle(e);
    }
    auto added = conn_.query(
        "INSERT INTO ladder_entrants (name_key, name, key, created_unix_ms) VALUES ($1, $2, $3, $4::bigint)",
        {name_key, name, key_hex, unix_ms});
    if (!added.ok()) return rollback(added.error());
    e.new_entrant = true;
    e.name = name;
  } else {
    e.name = found.value().text_at(0, 0);
    if (found.value().text_at(0, 1) != key_hex) {
      e.outcome = Outcome::kOtherKey;
      return settle(e);
    }
    if (ranked) {
      auto played = conn_.query("SELECT count(*) FROM ladder_games WHERE entrant_key = $1 AND ranked", {name_key});
      if (!played.ok()) return rollback(played.error());
      if (played.value().int_at(0, 0) >= limits.ranked_games) {
        e.outcome = Outcome::kSpent;
        return settle(e);
      }
    }
  }
  auto game = conn_.query(
      "INSERT INTO ladder_games (entrant_key, entrant, ranked, started_unix_ms, server) "
      "VALUES ($1, $2, $3::boolean, $4::bigint, $5) RETURNING seq",
      {name_key, name, ranked ? "true" : "false", unix_ms, server_});
  if (!game.ok()) return rollback(game.error());
  e.seq = game.value().int_at(0, 0);
  return settle(e);
}

sr::Status<std::string> PgLadderStore::update(const char* sql, const std::vector<Param>& params) {
  if (auto connected = ensure_connected(); !connected) return connected;
  auto done = conn_.query(sql, params);
  if (!done.ok()) return done.error();
  return {};
}

sr::Status<std::string> PgLadderStore::cancel(std::int64_t seq) {
  return update("DELETE FROM ladder_games WHERE seq = $1::bigint", {seq});
}

sr::Status<std::string> PgLadderStore::set_result(std::int64_t seq, std::int64_t score, std::int64_t lines) {
  return update("UPDATE ladder_games SET scored = true, score = $2::bigint, lines = $3::bigint WHERE seq = $1::bigint",
                {seq, score, lines});
}

sr::Status<std::string> PgLadderStore::set_replay(std::int64_t seq, std::uint64_t game_id) {
  return update("UPDATE ladder_games SET game_id = $2::bigint WHERE seq = $1::bigint",
                {seq, static_cast<std::int64_t>(game_id)});
}

sr::Result<LadderStore::Contents, std::string> PgLadderStore::load() {
  if (auto connected = ensure_connected(); !connected) return sr::fail(connected.error());
  LadderStore::Contents out;
  // One snapshot for the three reads: the games agree with the entrants and the practice count.
  const auto rollback = [&](const std::string& why) -> sr::Result<LadderStore::Contents, std::string> {
    if (conn_.alive()) (void)conn_.exec("ROLLBACK");
    return sr::fail(why);
  };
  if (auto begun = conn_.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); !begun) {
    return rollback(begun.error());
  }
  auto names = conn_.query("SELECT name FROM ladder_entrants ORDER BY position", {});
  if (!names.ok()) return rollback(names.error());
  auto games =
      conn_.query("SELECT seq, entrant, scored, score, lines, game_id FROM ladder_games WHERE ranked ORDER BY seq", {});
  if (!games.ok()) return rollback(games.error());
  auto practice = conn_.query("SELECT count(*) FROM ladder_games WHERE NOT ranked", {});
  if (!practice.ok()) return rollback(practice.error());
  if (auto committed = conn_.exec("COMMIT"); !committed) return rollback(committed.error());
  const replay::pg::Rows& n = names.value();
  for (int i = 0; i < n.size(); ++i) out.entrants.push_back(n.text_at(i, 0));
  const replay::pg::Rows& g = games.value();
  out.games.reserve(static_cast<std::size_t>(g.size()));
  for (int i = 0; i < g.size(); ++i) {
    LadderEntry e;
    e.seq = g.int_at(i, 0);
    e.entrant = g.text_at(i, 1);
    e.ranked = true;
    e.scored = g.bool_at(i, 2);
    e.score = std::max<std::int64_t>(0, g.int_at(i, 3));
    e.lines = std::max<std::int64_t>(0, g.int_at(i, 4));
    e.game_id = static_cast<std::uint64_t>(g.int_at(i, 5));
    out.games.push_back(std::move(e));
  }
  out.practice_games = static_cast<std::uint64_t>(std::max<std::int64_t>(0, practice.value().int_at(0, 0)));
  return out;
}

}  // namespace sr::server
