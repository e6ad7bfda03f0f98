#include "replays/store/pg_store.h"

#include <algorithm>

#include "common/replay/codec.h"
#include "common/replay/names.h"
#include "common/replay/verify.h"
#include "net/identity/key_id.h"
#include "replays/store/store_sql.h"

namespace sr::replay {
namespace {

Error io_error(std::string message) { return Error{ErrorKind::kIo, std::move(message), {}, -1}; }

template <class E, std::size_t N>
E enum_from(const std::array<const char*, N>& table, const std::string& name) {
  return static_cast<E>(names::index_of(table, name).value_or(0));
}

// Text that orders as SQLite's (byte by byte) whatever the database's locale: COLLATE "C" on every column a query
// sorts or compares by.
constexpr const char* kMigration1 = R"sql(
CREATE TABLE games (
  id TEXT COLLATE "C" PRIMARY KEY,
  replay BYTEA NOT NULL,
  created_unix_ms BIGINT NOT NULL,
  place TEXT NOT NULL,
  mode TEXT COLLATE "C" NOT NULL,
  limit_kind TEXT COLLATE "C" NOT NULL,
  limit_value BIGINT NOT NULL,
  goal TEXT COLLATE "C" NOT NULL,
  rules_version BIGINT NOT NULL,
  racers INTEGER NOT NULL,
  verified BOOLEAN NOT NULL,
  verify_note TEXT NOT NULL
);
CREATE TABLE results (
  game_id TEXT COLLATE "C" NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  racer INTEGER NOT NULL,
  player TEXT COLLATE "C" NOT NULL,
  status TEXT COLLATE "C" NOT NULL,
  top_out TEXT NOT NULL,
  time_us BIGINT NOT NULL,
  lines BIGINT NOT NULL,
  score BIGINT NOT NULL,
  pieces BIGINT NOT NULL,
  PRIMARY KEY (game_id, racer)
);
CREATE INDEX games_created ON games(created_unix_ms, id);
CREATE INDEX results_player ON results(player);
)sql";

// Version 2: each result's key (its short id, net/identity/key_id.h; '' when the replay holds none).
// Rows of version 1 were written before keys were recorded: '' is what decoding their replays again would give.
constexpr const char* kMigration2 = R"sql(
ALTER TABLE results ADD COLUMN key_id TEXT COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX results_player_key ON results(player, key_id);
)sql";

// Version 3: the leaderboard's index. Each result keeps its game's mode and limit, its game's time, whether it counts
// for a best (ranked: the game verified and kBestCounts) and its place in kBestRank's order as one number
// (rank_value: kRankValue), so that a board's best is the first entry of results_board_rank; modes_played lists the
// (mode, limit) pairs that have games. Rows of version 2 are filled from their games (the expressions as
// store_sql.h's at the time: frozen here).
constexpr const char* kMigration3 = R"sql(
CREATE TABLE modes_played (
  mode TEXT COLLATE "C" NOT NULL,
  limit_kind TEXT COLLATE "C" NOT NULL,
  limit_value BIGINT NOT NULL,
  PRIMARY KEY (mode, limit_kind, limit_value)
);
ALTER TABLE results ADD COLUMN mode TEXT COLLATE "C" NOT NULL DEFAULT '',
  ADD COLUMN limit_kind TEXT COLLATE "C" NOT NULL DEFAULT '',
  ADD COLUMN limit_value BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN created_unix_ms BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN ranked BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN rank_value BIGINT NOT NULL DEFAULT 0;
UPDATE results r SET mode = g.mode, limit_kind = g.limit_kind, limit_value = g.limit_value,
  created_unix_ms = g.created_unix_ms,
  ranked = g.verified AND (r.status = 'finished' OR (r.status = 'topped_out' AND g.goal <> 'time' AND
                                                     g.limit_kind <> 'time')),
  rank_value = CASE g.goal WHEN 'time' THEN r.time_us WHEN 'score' THEN -r.score WHEN 'lines' THEN -r.lines ELSE 0 END
  FROM games g WHERE g.id = r.game_id;
INSERT INTO modes_played SELECT DISTINCT mode, limit_kind, limit_value FROM games;
CREATE INDEX results_board_rank ON results (mode, limit_kind, limit_value, rank_value, created_unix_ms, game_id, racer)
  WHERE ranked;
)sql";

}  // namespace

const std::array<const char*, 3> PgStore::kMigrations = {kMigration1, kMigration2, kMigration3};
static_assert(PgStore::kSchemaVersion == 3, "one migration per version: kMigrations[v - 1] makes version v");

Error PgStore::fail(const std::string& what, const std::string& why) const {
  return io_error(what + " in the database at " + conn_.describe() + ": " + why);
}

sr::Status<std::string> PgStore::ensure_connected() {
  if (conn_.alive()) return {};
  const auto now = std::chrono::steady_clock::now();
  if (max_wait_ms_ > 0 && now - failed_reset_ < std::chrono::seconds(5)) {
    return "the database at " + conn_.describe() + " is unreachable (the next try is at most 5 s away)";
  }
  auto reset = conn_.reset();
  if (!reset) failed_reset_ = now;
  return reset;
}

Result<PgStore> PgStore::open(const std::string& uri, std::int64_t max_wait_ms) {
  auto conn = pg::Conn::connect(uri, max_wait_ms);
  if (!conn.ok()) return io_error(conn.error());
  PgStore store(std::move(conn).value(), max_wait_ms);
  auto migrated = pg::migrate(store.conn_, {kMigrationLock, "schema_version", kMigrations});
  if (!migrated) {
    const pg::MigrateError& e = migrated.error();
    if (e.newer_version == 0) return store.fail("cannot prepare the replay store", e.why);
    return io_error("the database at " + store.conn_.describe() + ": the database's schema is version " +
                    std::to_string(e.newer_version) + "; this build knows up to " + std::to_string(kSchemaVersion));
  }
  return store;
}

sr::Status<std::string> PgStore::write_results(const std::string& id, const Replay& replay) {
  // The game's row is there already: the columns of the leaderboard's index come from it (migration 3).
  static const std::string sql =
      "INSERT INTO results (game_id, racer, player, status, top_out, time_us, lines, score, pieces, key_id, mode, "
      "limit_kind, limit_value, created_unix_ms, ranked, rank_value) "
      "SELECT r.game_id, r.racer, r.player, r.status, r.top_out, r.time_us, r.lines, r.score, r.pieces, r.key_id, "
      "g.mode, g.limit_kind, g.limit_value, g.created_unix_ms, g.verified AND " +
      std::string(sql::kBestCounts) + ", " + sql::kRankValue +
      " FROM (VALUES ($1, $2::integer, $3, $4, $5, $6::bigint, $7::bigint, $8::bigint, $9::bigint, $10)) "
      "AS r (game_id, racer, player, status, top_out, time_us, lines, score, pieces, key_id) "
      "JOIN games g ON g.id = r.game_id";
  for (std::size_t i = 0; i < replay.racers.size(); ++i) {
    const Racer& r = replay.racers[i];
    auto inserted = conn_.query(
        sql.c_str(),
        {id, static_cast<std::int64_t>(i), r.name, status_name(r.result.status),
         names::name_of(names::kTopOut, r.result.top_out), r.result.stats.time_us,
         static_cast<std::int64_t>(r.result.stats.lines), static_cast<std::int64_t>(r.result.stats.score),
         static_cast<std::int64_t>(r.result.stats.pieces), r.key ? net::short_key_id(*r.key) : std::string()});
    if (!inserted.ok()) return inserted.error();
    if (inserted.value().affected() != 1) return "game " + id + " has no row for its results";
  }
  return {};
}

Result<std::string> PgStore::add(const Replay& replay, const std::vector<std::uint8_t>& bytes, const std::string& id,
                                 const VerifyReport* verified) {
  // Verified before the transaction: the verifier's CPU time holds no lock.
  const VerifyReport report = verified != nullptr ? *verified : verify(replay);
  const std::string what = "cannot store game " + id;
  if (auto connected = ensure_connected(); !connected) return io_error(what + ": " + connected.error());
  const auto rollback = [&](const std::string& why) {
    if (conn_.alive()) (void)conn_.exec("ROLLBACK");
    return fail(what, why);
  };
  if (auto begun = conn_.exec("BEGIN"); !begun) return rollback(begun.error());
  const engine::GameConfig& c = replay.config;
  auto game = conn_.query(
      "INSERT INTO games (id, replay, created_unix_ms, place, mode, limit_kind, limit_value, goal, rules_version, "
      "racers, verified, verify_note) VALUES ($1, $2::bytea, $3::bigint, $4, $5, $6, $7::bigint, $8, $9::bigint, "
      "$10::integer, $11::boolean, $12) ON CONFLICT (id) DO NOTHING",
      {id, pg::Param::bytes(bytes), replay.created_unix_ms, replay.place, names::name_of(names::kMode, c.mode),
       names::name_of(names::kLimit, c.limit), static_cast<std::int64_t>(c.limit_value),
       names::name_of(names::kGoal, c.goal), static_cast<std::int64_t>(replay.rules_version),
       static_cast<std::int64_t>(replay.racers.size()), report.verdict == Verdict::kVerified ? "true" : "false",
       report.message});
  if (!game.ok()) return rollback(game.error());
  if (game.value().affected() == 0) {
    // Stored already (the same bytes, so the same rows), or another replay with the same id: refused.
    auto existing = conn_.query("SELECT replay FROM games WHERE id = $1", {id});
    if (!existing.ok()) return rollback(existing.error());
    const auto stored = existing.value().size() == 1 ? existing.value().bytes_at(0, 0) : std::nullopt;
    (void)conn_.exec("ROLLBACK");
    if (!stored || *stored != bytes) return fail(what, "game " + id + " exists with other contents");
    return id;
  }
  auto board = conn_.query(
      "INSERT INTO modes_played (mode, limit_kind, limit_value) VALUES ($1, $2, $3::bigint) ON CONFLICT DO NOTHING",
      {names::name_of(names::kMode, c.mode), names::name_of(names::kLimit, c.limit),
       static_cast<std::int64_t>(c.limit_value)});
  if (!board.ok()) return rollback(board.error());
  if (auto results = write_results(id, replay); !results) return rollback(results.error());
  if (auto committed = conn_.exec("COMMIT"); !committed) return rollback(committed.error());
  return id;
}

Result<std::vector<StoredGame>> PgStore::recent(const StoreQuery& query) {
  if (auto connected = ensure_connected(); !connected) return io_error("cannot list games: " + connected.error());
  std::optional<std::string> mode;
  if (query.mode) mode = names::name_of(names::kMode, *query.mode);
  std::optional<std::string> status;
  if (query.status) status = status_name(*query.status);
  std::optional<std::string> verified;
  if (query.verified) verified = *query.verified ? "true" : "false";
  // The same query as the folder store's (replay_store.cpp), in PostgreSQL's words: typed NULL tests.
  auto games = conn_.query(
      "SELECT id, created_unix_ms, place, mode, limit_kind, limit_value, goal, rules_version, verified, verify_note "
      "FROM games g WHERE ($1::text IS NULL OR g.mode = $1) AND ($2::text IS NULL OR EXISTS "
      "(SELECT 1 FROM results r WHERE r.game_id = g.id AND r.player = $2)) "
      "AND ($4::text IS NULL OR g.created_unix_ms < (SELECT created_unix_ms FROM games WHERE id = $4) OR "
      "(g.created_unix_ms = (SELECT created_unix_ms FROM games WHERE id = $4) AND g.id > $4)) "
      "AND ($5::bigint IS NULL OR g.created_unix_ms >= $5) AND ($6::bigint IS NULL OR g.created_unix_ms < $6) "
      "AND ($7::text IS NULL OR EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id AND r.status = $7 "
      "AND ($2::text IS NULL OR r.player = $2))) "
      "AND ($8::boolean IS NULL OR g.verified = $8) AND ($9::text IS NULL OR g.id = $9) "
      "ORDER BY created_unix_ms DESC, id LIMIT $3::bigint",
      {pg::Param::maybe(mode), pg::Param::maybe(query.player), static_cast<std::int64_t>(query.limit),
       pg::Param::maybe(query.after_id), pg::Param::maybe(query.since_unix_ms), pg::Param::maybe(query.until_unix_ms),
       pg::Param::maybe(status), pg::Param::maybe(verified), pg::Param::maybe(query.id)});
  if (!games.ok()) return fail("cannot list games", games.error());
  const pg::Rows& g = games.value();
  std::vector<StoredGame> out;
  // Ids are 16 hex digits (or whatever a row holds: the array is a parameter, never SQL text).
  std::string ids = "{";
  for (int i = 0; i < g.size(); ++i) {
    StoredGame s;
    s.id = g.text_at(i, 0);
    s.created_unix_ms = g.int_at(i, 1);
    s.place = g.text_at(i, 2);
    s.mode = enum_from<engine::ModeKind>(names::kMode, g.text_at(i, 3));
    s.limit = enum_from<engine::LimitKind>(names::kLimit, g.text_at(i, 4));
    s.limit_value = g.int_at(i, 5);
    s.goal = enum_from<engine::GoalKind>(names::kGoal, g.text_at(i, 6));
    s.rules_version = static_cast<std::uint32_t>(g.int_at(i, 7));
    s.verified = g.bool_at(i, 8);
    s.verify_note = g.text_at(i, 9);
    ids += (i ? ",\"" : "\"") + s.id + "\"";
    out.push_back(std::move(s));
  }
  ids += "}";
  if (out.empty()) return out;
  const std::string results_sql =
      "SELECT game_id, racer, player, status, top_out, time_us, lines, score, pieces, "
      "key_id, " +
      std::string(sql::kNameShared) + " FROM results r WHERE game_id = ANY($1::text[]) ORDER BY game_id, racer";
  auto results = conn_.query(results_sql.c_str(), {ids});
  if (!results.ok()) return fail("cannot list games", results.error());
  const pg::Rows& r = results.value();
  for (int i = 0; i < r.size(); ++i) {
    const std::string game_id = r.text_at(i, 0);
    auto game = std::find_if(out.begin(), out.end(), [&](const StoredGame& s) { return s.id == game_id; });
    if (game == out.end()) continue;
    StoredResult s;
    s.racer = static_cast<std::size_t>(r.int_at(i, 1));
    s.player = r.text_at(i, 2);
    s.status = status_from_name(r.text_at(i, 3)).value_or(ResultStatus::kForfeited);
    s.top_out = enum_from<engine::TopOut>(names::kTopOut, r.text_at(i, 4));
    s.time_us = r.int_at(i, 5);
    s.lines = r.int_at(i, 6);
    s.score = r.int_at(i, 7);
    s.pieces = r.int_at(i, 8);
    s.key_id = r.text_at(i, 9);
    s.name_shared = r.bool_at(i, 10);
    game->results.push_back(std::move(s));
  }
  return out;
}

Result<std::vector<BestResult>> PgStore::best(const StoreQuery& query) {
  if (auto connected = ensure_connected(); !connected) return io_error("cannot list bests: " + connected.error());
  std::optional<std::string> mode;
  if (query.mode) mode = names::name_of(names::kMode, *query.mode);
  // Every player's: per board, the first entry of the leaderboard's index (results_board_rank), whatever the number
  // of games. One player's: their results ranked (the player's index finds them).
  const std::string columns =
      "g.mode, g.limit_kind, g.limit_value, g.goal, r.player, r.game_id, g.created_unix_ms, r.time_us, r.score, "
      "r.lines, r.key_id, " +
      std::string(sql::kNameShared);
  const std::string every = "SELECT " + columns + R"sql(
    FROM modes_played b CROSS JOIN LATERAL (
      SELECT * FROM results x
      WHERE x.ranked AND x.mode = b.mode AND x.limit_kind = b.limit_kind AND x.limit_value = b.limit_value
      ORDER BY x.rank_value, x.created_unix_ms, x.game_id, x.racer LIMIT 1) r
    JOIN games g ON g.id = r.game_id
    WHERE ($1::text IS NULL OR b.mode = $1) AND $2::text IS NULL
    ORDER BY g.mode, g.limit_kind, g.limit_value)sql";
  const std::string one = R"sql(
    SELECT mode, limit_kind, limit_value, goal, player, game_id, created_unix_ms, time_us, score, lines, key_id,
           )sql" + std::string(sql::kNameShared) +
                          R"sql( FROM (
      SELECT g.mode, g.limit_kind, g.limit_value, g.goal, r.player, r.game_id, g.created_unix_ms, r.time_us,
             r.score, r.lines, r.key_id, )sql" +
                          std::string(sql::kBestRank) +
                          R"sql( AS rank
      FROM results r JOIN games g ON g.id = r.game_id
      WHERE g.verified AND ($1::text IS NULL OR g.mode = $1) AND r.player = $2
        AND )sql" + std::string(sql::kBestCounts) +
                          R"sql() r
    WHERE rank = 1 ORDER BY mode, limit_kind, limit_value)sql";
  const std::string& sql = query.player ? one : every;
  auto rows = conn_.query(sql.c_str(), {pg::Param::maybe(mode), pg::Param::maybe(query.player)});
  if (!rows.ok()) return fail("cannot list bests", rows.error());
  const pg::Rows& s = rows.value();
  std::vector<BestResult> out;
  for (int i = 0; i < s.size(); ++i) {
    BestResult b;
    b.mode = enum_from<engine::ModeKind>(names::kMode, s.text_at(i, 0));
    b.limit = enum_from<engine::LimitKind>(names::kLimit, s.text_at(i, 1));
    b.limit_value = s.int_at(i, 2);
    b.goal = enum_from<engine::GoalKind>(names::kGoal, s.text_at(i, 3));
    b.player = s.text_at(i, 4);
    b.game_id = s.text_at(i, 5);
    b.created_unix_ms = s.int_at(i, 6);
    b.time_us = s.int_at(i, 7);
    b.score = s.int_at(i, 8);
    b.lines = s.int_at(i, 9);
    b.key_id = s.text_at(i, 10);
    b.name_shared = s.bool_at(i, 11);
    out.push_back(std::move(b));
  }
  return out;
}

Result<std::vector<std::uint8_t>> PgStore::load(const std::string& id) {
  const std::string what = "cannot read game " + id;
  if (auto connected = ensure_connected(); !connected) return io_error(what + ": " + connected.error());
  auto rows = conn_.query("SELECT replay FROM games WHERE id = $1", {id});
  if (!rows.ok()) return fail(what, rows.error());
  if (rows.value().size() == 0) return fail(what, "no such game");
  auto bytes = rows.value().bytes_at(0, 0);
  if (!bytes) return fail(what, "its bytes do not unescape");
  return std::move(*bytes);
}

Result<ReindexReport> PgStore::reindex() {
  if (auto connected = ensure_connected(); !connected) return io_error("cannot reindex: " + connected.error());
  const auto rollback = [&](const std::string& why) {
    if (conn_.alive()) (void)conn_.exec("ROLLBACK");
    return fail("cannot reindex", why);
  };
  if (auto begun = conn_.exec("BEGIN"); !begun) return rollback(begun.error());
  auto rows = conn_.query("SELECT id, replay FROM games ORDER BY id FOR UPDATE", {});
  if (!rows.ok()) return rollback(rows.error());
  ReindexReport report;
  for (int i = 0; i < rows.value().size(); ++i) {
    const std::string id = rows.value().text_at(i, 0);
    const auto bytes = rows.value().bytes_at(i, 1);
    Result<Replay> replay = bytes ? decode_binary(*bytes) : Result<Replay>(io_error("bytes do not unescape"));
    if (!replay.ok()) {
      report.unreadable.push_back(id + ": " + replay.error().describe());
      continue;
    }
    const VerifyReport verdict = verify(replay.value());
    const bool ok = verdict.verdict == Verdict::kVerified;
    auto updated = conn_.query("UPDATE games SET verified = $2::boolean, verify_note = $3 WHERE id = $1",
                               {id, ok ? "true" : "false", verdict.message});
    if (!updated.ok()) return rollback(updated.error());
    auto cleared = conn_.query("DELETE FROM results WHERE game_id = $1", {id});
    if (!cleared.ok()) return rollback(cleared.error());
    if (auto results = write_results(id, replay.value()); !results) return rollback(results.error());
    ++report.indexed;
    if (ok) ++report.verified;
  }
  if (auto committed = conn_.exec("COMMIT"); !committed) return rollback(committed.error());
  return report;
}

}  // namespace sr::replay
