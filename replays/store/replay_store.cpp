#include "replays/store/replay_store.h"

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>

#include "common/replay/codec.h"
#include "common/replay/names.h"
#include "common/replay/verify.h"
#include "net/identity/key_id.h"
#include "replays/store/file_io.h"
#include "replays/store/pg_db.h"
#include "replays/store/pg_store.h"
#include "replays/store/store_sql.h"

namespace sr::replay {
namespace {

Error io_error(std::string message) { return Error{ErrorKind::kIo, std::move(message), {}, -1}; }

// synchronous = FULL (SQLite's default for a rollback journal, stated so that nobody lowers it): a COMMIT is on the
// disk when it returns, so a race announced as stored stays in the index through a power cut or a SIGKILL.
constexpr const char* kSchema = R"sql(
PRAGMA synchronous = FULL;
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  file TEXT NOT NULL,
  created_unix_ms INTEGER NOT NULL,
  place TEXT NOT NULL,
  mode TEXT NOT NULL,
  limit_kind TEXT NOT NULL,
  limit_value INTEGER NOT NULL,
  goal TEXT NOT NULL,
  rules_version INTEGER NOT NULL,
  racers INTEGER NOT NULL,
  verified INTEGER NOT NULL,
  verify_note TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  racer INTEGER NOT NULL,
  player TEXT NOT NULL,
  status TEXT NOT NULL,
  top_out TEXT NOT NULL,
  time_us INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  score INTEGER NOT NULL,
  pieces INTEGER NOT NULL,
  key_id TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (game_id, racer)
);
CREATE INDEX IF NOT EXISTS games_created ON games(created_unix_ms);
CREATE INDEX IF NOT EXISTS results_player ON results(player);
PRAGMA foreign_keys = ON;
)sql";

// The index layout's version (PRAGMA user_version). 0: an index made before versions, whose results have no key_id;
// 1: results.key_id. No file written before Racer class version 2 holds a key, so an older index gains the column
// with '' everywhere, which is what reindexing its files would give.
constexpr std::int64_t kIndexVersion = 1;

// Brings the index to kIndexVersion. # Errors: a sentence (an index of a newer build, a failed migration).
sr::Status<std::string> migrate(sqlite::Db& db) {
  auto version = db.prepare("PRAGMA user_version");
  if (!version || version->step() != sqlite::Statement::Step::kRow) return db.last_error();
  const std::int64_t found = version->int_at(0);
  if (found > kIndexVersion) {
    return "the index is version " + std::to_string(found) + ", this build knows up to " +
           std::to_string(kIndexVersion) +
           ": use a newer stackrace, or delete the index and run stackrace-replay reindex (the replay files are the "
           "truth)";
  }
  if (found == kIndexVersion) return {};
  // The CREATE TABLE above made a new index with every column; an old one lacks key_id.
  if (!db.prepare("SELECT key_id FROM results LIMIT 0")) {
    if (auto added = db.exec("ALTER TABLE results ADD COLUMN key_id TEXT NOT NULL DEFAULT ''"); !added) return added;
  }
  const std::string finish =
      "CREATE INDEX IF NOT EXISTS results_player_key ON results(player, key_id); "
      "PRAGMA user_version = " +
      std::to_string(kIndexVersion);
  return db.exec(finish.c_str());
}

template <class E, std::size_t N>
E enum_from(const std::array<const char*, N>& table, const std::string& name) {
  return static_cast<E>(names::index_of(table, name).value_or(0));
}

void bind_query(sqlite::Statement& s, const StoreQuery& q) {
  if (q.mode) {
    s.bind(1, std::string(names::name_of(names::kMode, *q.mode)));
  } else {
    s.bind_null(1);
  }
  if (q.player) {
    s.bind(2, *q.player);
  } else {
    s.bind_null(2);
  }
}

// True if the process that named a temporary file is gone, or is this process (its id reused after a crash; the
// caller has not written yet).
bool writer_gone(long pid) {
  if (pid == static_cast<long>(::getpid())) return true;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

}  // namespace

std::string content_id(const std::vector<std::uint8_t>& bytes) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001B3ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) id[static_cast<std::size_t>(i)] = kHex[h & 0xF];
  return id;
}

ReplayStore::ReplayStore(std::filesystem::path dir, sqlite::Db db) : dir_(std::move(dir)), db_(std::move(db)) {}
ReplayStore::ReplayStore(std::unique_ptr<PgStore> pg) : pg_(std::move(pg)) {}
ReplayStore::ReplayStore(ReplayStore&&) noexcept = default;
ReplayStore& ReplayStore::operator=(ReplayStore&&) noexcept = default;
ReplayStore::~ReplayStore() = default;

std::string ReplayStore::where() const { return pg_ ? "postgresql://" + pg_->describe() : dir_.string(); }

Result<std::vector<std::uint8_t>> ReplayStore::load(const std::string& id) {
  if (pg_) return pg_->load(id);
  // An id names a file in the folder, never a path elsewhere.
  if (id.empty() || id.find_first_of("/\\") != std::string::npos || id.front() == '.') {
    return io_error("no game " + id + " in " + dir_.string());
  }
  return read_file(dir_ / (id + kExtension));
}

std::string shown_name(const std::string& player, const std::string& key_id, bool name_shared) {
  return name_shared && !key_id.empty() ? player + " #" + key_id : player;
}

std::string ReconcileReport::summary() const {
  if (temp_files_removed == 0 && rows_removed == 0 && files_indexed == 0 && unreadable.empty()) {
    return "files and index agree";
  }
  std::string out = "removed " + std::to_string(temp_files_removed) + " temporary files, removed " +
                    std::to_string(rows_removed) + " index rows without a file, indexed " +
                    std::to_string(files_indexed) + " files";
  if (!unreadable.empty()) {
    out += "; " + std::to_string(unreadable.size()) + " unreadable files left unindexed (first: " + unreadable.front() +
           ")";
  }
  return out;
}

namespace {

// Says what is wrong with a directory that cannot hold a store.
std::string not_a_store_dir(const std::filesystem::path& dir) {
  std::error_code ec;
  const auto st = std::filesystem::status(dir, ec);
  if (st.type() == std::filesystem::file_type::not_found) return dir.string() + " does not exist";
  if (ec) return "cannot read " + dir.string() + ": " + ec.message();
  return dir.string() + " is not a directory";
}

}  // namespace

Result<ReplayStore> ReplayStore::open(const std::filesystem::path& dir, bool create, const StoreWaits& waits) {
  if (pg::is_locator(dir.native())) {
    Result<PgStore> pg = PgStore::open(dir.native(), waits.max_wait_ms);
    if (!pg.ok()) return pg.error();
    return ReplayStore(std::make_unique<PgStore>(std::move(pg).value()));
  }
  std::error_code ec;
  if (create && !std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir, ec);
    if (ec) return io_error("cannot create the directory " + dir.string() + ": " + ec.message());
  }
  if (!std::filesystem::is_directory(dir, ec)) return io_error(not_a_store_dir(dir));
  sqlite::Db db;
  if (auto opened = db.open(dir / kIndexFile); !opened) return io_error(opened.error());
  if (auto made = db.exec(kSchema); !made) return io_error("cannot create the index: " + made.error());
  if (auto migrated = migrate(db); !migrated) {
    return io_error("cannot open the index " + (dir / kIndexFile).string() + ": " + migrated.error());
  }
  return ReplayStore(dir, std::move(db));
}

sr::Status<std::string> ReplayStore::index(const std::string& id, const std::string& file, const Replay& replay,
                                           const VerifyReport* verified) {
  const VerifyReport report = verified != nullptr ? *verified : verify(replay);
  auto del = db_.prepare("DELETE FROM games WHERE id = ?1");
  auto game = db_.prepare(
      "INSERT INTO games (id, file, created_unix_ms, place, mode, limit_kind, limit_value, goal, rules_version, "
      "racers, verified, verify_note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  auto result = db_.prepare(
      "INSERT INTO results (game_id, racer, player, status, top_out, time_us, lines, score, pieces, key_id) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  if (!del || !game || !result) return db_.last_error();
  del->bind(1, id);
  if (del->step() == sqlite::Statement::Step::kError) return db_.last_error();
  const engine::GameConfig& c = replay.config;
  game->bind(1, id);
  game->bind(2, file);
  game->bind(3, replay.created_unix_ms);
  game->bind(4, replay.place);
  game->bind(5, std::string(names::name_of(names::kMode, c.mode)));
  game->bind(6, std::string(names::name_of(names::kLimit, c.limit)));
  game->bind(7, c.limit_value);
  game->bind(8, std::string(names::name_of(names::kGoal, c.goal)));
  game->bind(9, static_cast<std::int64_t>(replay.rules_version));
  game->bind(10, static_cast<std::int64_t>(replay.racers.size()));
  game->bind(11, report.verdict == Verdict::kVerified ? 1 : 0);
  game->bind(12, report.message);
  if (game->step() == sqlite::Statement::Step::kError) return db_.last_error();
  for (std::size_t i = 0; i < replay.racers.size(); ++i) {
    const Racer& r = replay.racers[i];
    result->reset();
    result->bind(1, id);
    result->bind(2, static_cast<std::int64_t>(i));
    result->bind(3, r.name);
    result->bind(4, std::string(status_name(r.result.status)));
    result->bind(5, std::string(names::name_of(names::kTopOut, r.result.top_out)));
    result->bind(6, r.result.stats.time_us);
    result->bind(7, r.result.stats.lines);
    result->bind(8, r.result.stats.score);
    result->bind(9, r.result.stats.pieces);
    result->bind(10, r.key ? net::short_key_id(*r.key) : std::string());
    if (result->step() == sqlite::Statement::Step::kError) return db_.last_error();
  }
  return {};
}

Result<std::string> ReplayStore::add(const Replay& replay, const VerifyReport* verified) {
  const std::vector<std::uint8_t> bytes = encode_binary(replay);
  const std::string id = content_id(bytes);
  if (pg_) return pg_->add(replay, bytes, id, verified);
  const std::filesystem::path path = dir_ / (id + kExtension);
  std::error_code ec;
  bool written_now = false;
  if (std::filesystem::exists(path, ec)) {
    Result<std::vector<std::uint8_t>> existing = read_file(path);
    if (!existing.ok() || existing.value() != bytes) {
      return io_error(path.string() + " exists with other contents");
    }
  } else if (auto written = write_file_atomic(path, bytes); !written) {
    return io_error(written.error());
  } else {
    written_now = true;
  }
  // A file without its row would be a replay nobody is told about (until a restart's reconcile()): when the index
  // cannot take it (a full disk), the file goes too, and the caller reports the race as not stored.
  const auto unwritten = [&](std::string why) {
    (void)db_.exec("ROLLBACK");
    if (written_now && std::filesystem::remove(path, ec)) (void)sync_dir(dir_);
    return io_error(std::move(why));
  };
  if (auto begun = db_.exec("BEGIN IMMEDIATE"); !begun)
    return unwritten("cannot index " + path.string() + ": " + begun.error());
  if (auto indexed = index(id, path.filename().string(), replay, verified); !indexed) {
    return unwritten("cannot index " + path.string() + ": " + indexed.error());
  }
  if (auto committed = db_.exec("COMMIT"); !committed) {
    return unwritten("cannot index " + path.string() + ": " + committed.error());
  }
  return id;
}

std::size_t ReplayStore::remove_leftovers() {
  std::size_t removed = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    const long pid = temp_file_pid(entry.path().filename().string());
    if (pid <= 0 || !entry.is_regular_file() || !writer_gone(pid)) continue;
    std::error_code rm;
    if (std::filesystem::remove(entry.path(), rm)) ++removed;
  }
  if (removed > 0) (void)sync_dir(dir_);
  return removed;
}

Result<ReconcileReport> ReplayStore::reconcile() {
  ReconcileReport report;
  if (pg_) return report;
  report.temp_files_removed = remove_leftovers();
  std::set<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == kExtension)
      files.insert(entry.path().filename().string());
  }
  if (ec) return io_error("cannot list " + dir_.string() + ": " + ec.message());

  auto rows = db_.prepare("SELECT id, file FROM games");
  auto del = db_.prepare("DELETE FROM games WHERE id = ?1");
  if (!rows || !del) return io_error(db_.last_error());
  std::vector<std::string> gone;
  std::set<std::string> listed;
  for (;;) {
    const auto step = rows->step();
    if (step == sqlite::Statement::Step::kError) return io_error(db_.last_error());
    if (step == sqlite::Statement::Step::kDone) break;
    const std::string file = rows->text_at(1);
    listed.insert(file);
    if (files.count(file) == 0) gone.push_back(rows->text_at(0));
  }
  if (auto begun = db_.exec("BEGIN IMMEDIATE"); !begun) return io_error(begun.error());
  for (const std::string& id : gone) {
    del->reset();
    del->bind(1, id);
    if (del->step() == sqlite::Statement::Step::kError) {
      const std::string e = db_.last_error();
      (void)db_.exec("ROLLBACK");
      return io_error("cannot remove the row of " + id + ": " + e);
    }
    ++report.rows_removed;
  }
  for (const std::string& file : files) {
    if (listed.count(file) != 0) continue;
    const std::filesystem::path path = dir_ / file;
    Result<Replay> replay = load_replay_file(path);
    if (!replay.ok()) {
      report.unreadable.push_back(file + ": " + replay.error().describe());
      continue;
    }
    if (auto indexed = index(path.stem().string(), file, replay.value()); !indexed) {
      (void)db_.exec("ROLLBACK");
      return io_error("cannot index " + path.string() + ": " + indexed.error());
    }
    ++report.files_indexed;
  }
  if (auto committed = db_.exec("COMMIT"); !committed) return io_error(committed.error());
  return report;
}

Result<ReindexReport> ReplayStore::reindex() {
  if (pg_) return pg_->reindex();
  (void)remove_leftovers();
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == kExtension) files.push_back(entry.path());
  }
  if (ec) return io_error("cannot list " + dir_.string() + ": " + ec.message());
  std::sort(files.begin(), files.end());

  ReindexReport report;
  if (auto begun = db_.exec("BEGIN IMMEDIATE; DELETE FROM results; DELETE FROM games;"); !begun) {
    return io_error(begun.error());
  }
  for (const auto& path : files) {
    Result<Replay> replay = load_replay_file(path);
    if (!replay.ok()) {
      report.unreadable.push_back(path.filename().string() + ": " + replay.error().describe());
      continue;
    }
    if (auto indexed = index(path.stem().string(), path.filename().string(), replay.value()); !indexed) {
      (void)db_.exec("ROLLBACK");
      return io_error("cannot index " + path.string() + ": " + indexed.error());
    }
    ++report.indexed;
  }
  if (auto committed = db_.exec("COMMIT"); !committed) return io_error(committed.error());
  auto verified = db_.prepare("SELECT COUNT(*) FROM games WHERE verified = 1");
  if (verified && verified->step() == sqlite::Statement::Step::kRow) {
    report.verified = static_cast<std::size_t>(verified->int_at(0));
  }
  return report;
}

Result<std::vector<StoredGame>> ReplayStore::recent(const StoreQuery& query) {
  if (pg_) return pg_->recent(query);
  auto games = db_.prepare(
      "SELECT id, file, created_unix_ms, place, mode, limit_kind, limit_value, goal, rules_version, verified, "
      "verify_note FROM games g WHERE (?1 IS NULL OR g.mode = ?1) AND (?2 IS NULL OR EXISTS "
      "(SELECT 1 FROM results r WHERE r.game_id = g.id AND r.player = ?2)) "
      "AND (?4 IS NULL OR g.created_unix_ms < (SELECT created_unix_ms FROM games WHERE id = ?4) OR "
      "(g.created_unix_ms = (SELECT created_unix_ms FROM games WHERE id = ?4) AND g.id > ?4)) "
      "AND (?5 IS NULL OR g.created_unix_ms >= ?5) AND (?6 IS NULL OR g.created_unix_ms < ?6) "
      "AND (?7 IS NULL OR EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id AND r.status = ?7 "
      "AND (?2 IS NULL OR r.player = ?2))) "
      "AND (?8 IS NULL OR g.verified = ?8) AND (?9 IS NULL OR g.id = ?9) "
      "ORDER BY created_unix_ms DESC, id LIMIT ?3");
  const std::string results_sql = "SELECT racer, player, status, top_out, time_us, lines, score, pieces, key_id, " +
                                  std::string(sql::kNameShared) + " FROM results r WHERE game_id = ?1 ORDER BY racer";
  auto results = db_.prepare(results_sql.c_str());
  if (!games || !results) return io_error(db_.last_error());
  bind_query(*games, query);
  games->bind(3, static_cast<std::int64_t>(query.limit));
  if (query.after_id) {
    games->bind(4, *query.after_id);
  } else {
    games->bind_null(4);
  }
  const auto bind_int = [&games](int index, std::optional<std::int64_t> v) {
    if (v) {
      games->bind(index, *v);
    } else {
      games->bind_null(index);
    }
  };
  bind_int(5, query.since_unix_ms);
  bind_int(6, query.until_unix_ms);
  if (query.status) {
    games->bind(7, std::string(status_name(*query.status)));
  } else {
    games->bind_null(7);
  }
  bind_int(8, query.verified ? std::optional<std::int64_t>(*query.verified ? 1 : 0) : std::nullopt);
  if (query.id) {
    games->bind(9, *query.id);
  } else {
    games->bind_null(9);
  }
  std::vector<StoredGame> out;
  for (;;) {
    const auto step = games->step();
    if (step == sqlite::Statement::Step::kError) return io_error(db_.last_error());
    if (step == sqlite::Statement::Step::kDone) break;
    StoredGame g;
    g.id = games->text_at(0);
    g.file = dir_ / games->text_at(1);
    g.created_unix_ms = games->int_at(2);
    g.place = games->text_at(3);
    g.mode = enum_from<engine::ModeKind>(names::kMode, games->text_at(4));
    g.limit = enum_from<engine::LimitKind>(names::kLimit, games->text_at(5));
    g.limit_value = games->int_at(6);
    g.goal = enum_from<engine::GoalKind>(names::kGoal, games->text_at(7));
    g.rules_version = static_cast<std::uint32_t>(games->int_at(8));
    g.verified = games->int_at(9) != 0;
    g.verify_note = games->text_at(10);
    results->reset();
    results->bind(1, g.id);
    while (results->step() == sqlite::Statement::Step::kRow) {
      StoredResult r;
      r.racer = static_cast<std::size_t>(results->int_at(0));
      r.player = results->text_at(1);
      r.status = status_from_name(results->text_at(2)).value_or(ResultStatus::kForfeited);
      r.top_out = enum_from<engine::TopOut>(names::kTopOut, results->text_at(3));
      r.time_us = results->int_at(4);
      r.lines = results->int_at(5);
      r.score = results->int_at(6);
      r.pieces = results->int_at(7);
      r.key_id = results->text_at(8);
      r.name_shared = results->int_at(9) != 0;
      g.results.push_back(std::move(r));
    }
    out.push_back(std::move(g));
  }
  return out;
}

Result<std::vector<BestResult>> ReplayStore::best(const StoreQuery& query) {
  if (pg_) return pg_->best(query);
  // Whether a name is shared is asked of the bests alone (the outer query), not of every result ranked.
  const std::string sql = R"sql(
    SELECT mode, limit_kind, limit_value, goal, player, game_id, created_unix_ms, time_us, score, lines, key_id,
           )sql" + std::string(sql::kNameShared) +
                          R"sql( FROM (
      SELECT g.mode, g.limit_kind, g.limit_value, g.goal, r.player, r.game_id, g.created_unix_ms, r.time_us,
             r.score, r.lines, r.key_id, )sql" +
                          std::string(sql::kBestRank) +
                          R"sql( AS rank
      FROM results r JOIN games g ON g.id = r.game_id
      WHERE g.verified = 1 AND (?1 IS NULL OR g.mode = ?1) AND (?2 IS NULL OR r.player = ?2)
        AND )sql" + std::string(sql::kBestCounts) +
                          R"sql() r
    WHERE rank = 1 ORDER BY mode, limit_kind, limit_value)sql";
  auto s = db_.prepare(sql.c_str());
  if (!s) return io_error(db_.last_error());
  bind_query(*s, query);
  std::vector<BestResult> out;
  for (;;) {
    const auto step = s->step();
    if (step == sqlite::Statement::Step::kError) return io_error(db_.last_error());
    if (step == sqlite::Statement::Step::kDone) break;
    BestResult b;
    b.mode = enum_from<engine::ModeKind>(names::kMode, s->text_at(0));
    b.limit = enum_from<engine::LimitKind>(names::kLimit, s->text_at(1));
    b.limit_value = s->int_at(2);
    b.goal = enum_from<engine::GoalKind>(names::kGoal, s->text_at(3));
    b.player = s->text_at(4);
    b.game_id = s->text_at(5);
    b.created_unix_ms = s->int_at(6);
    b.time_us = s->int_at(7);
    b.score = s->int_at(8);
    b.lines = s->int_at(9);
    b.key_id = s->text_at(10);
    b.name_shared = s->int_at(11) != 0;
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace sr::replay
