#include "hub/records/record_book.h"

#include "common/replay/names.h"
#include "hub/records/detail/book_sql.h"
#include "net/identity/key_id.h"
#include "net/identity/submission.h"

namespace sr::hub::records {
namespace {

using Db = detail::BookDb;
using Statement = detail::BookStatement;
using Step = Statement::Step;

// SQLite's own settings, kept out of the shared schema. synchronous = FULL: an answered submission is on the disk.
// WAL: a commit appends to one log file kept open (a rollback journal is a file made and deleted per transaction, which
// costs more than the transaction on a busy file system) with one sync, and reads do not wait for a writer's sync.
constexpr const char* kPragmas = "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;";

// Rolls back on destruction unless committed: every early return of add() leaves the book as it was.
class Transaction {
 public:
  explicit Transaction(Db& db) : db_(db) {}
  ~Transaction() {
    if (open_) (void)db_.exec("ROLLBACK");
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  [[nodiscard]] sr::Status<std::string> begin() {
    // SQLite: the write lock at once. PostgreSQL: one writer at a time across hubs sharing the book (ids are
    // MAX(id) + 1), under a transaction-scoped advisory lock.
    const char* sql =
        db_.in_database() ? "BEGIN; SELECT pg_advisory_xact_lock(7306915798384911717)" : "BEGIN IMMEDIATE";
    if (auto ok = db_.exec(sql); !ok) return ok;
    open_ = true;
    return {};
  }
  [[nodiscard]] sr::Status<std::string> commit() {
    if (auto ok = db_.exec("COMMIT"); !ok) return ok;
    open_ = false;
    return {};
  }

 private:
  Db& db_;
  bool open_ = false;
};

sr::Status<std::string> migrate_postgresql(Db& db) {
  // The book's version in a table of its own (the replay store's schema_version may share the database), read and
  // changed under the book's lock so that hubs starting at once create the tables once.
  const auto rollback = [&](const std::string& why) -> sr::Status<std::string> {
    (void)db.exec("ROLLBACK");
    return why;
  };
  if (auto ok = db.exec("BEGIN; SELECT pg_advisory_xact_lock(7306915798384911717); CREATE TABLE IF NOT EXISTS "
                        "records_book_version (version BIGINT NOT NULL)");
      !ok) {
    return rollback(ok.error());
  }
  auto version = detail::prepare(db, "SELECT COALESCE(MAX(version), 0) FROM records_book_version");
  if (!version) return rollback(version.error());
  auto found = detail::scalar(db, version.value());
  if (!found) return rollback(found.error());
  if (found.value() > kRecordBookVersion) {
    return rollback("the record book is version " + std::to_string(found.value()) + ", this build knows up to " +
                    std::to_string(kRecordBookVersion) + ": use a newer stackrace-hub");
  }
  if (auto made = db.exec(detail::to_postgres_schema(detail::kSchema).c_str()); !made) {
    return rollback("cannot create the record book's tables: " + made.error());
  }
  if (found.value() < kRecordBookVersion) {
    const std::string set = "DELETE FROM records_book_version; INSERT INTO records_book_version VALUES (" +
                            std::to_string(kRecordBookVersion) + ")";
    if (auto ok = db.exec(set.c_str()); !ok) return rollback(ok.error());
  }
  return db.exec("COMMIT");
}

sr::Status<std::string> migrate(Db& db) {
  if (db.in_database()) return migrate_postgresql(db);
  auto version = detail::prepare(db, "PRAGMA user_version");
  if (!version) return version.error();
  auto found = detail::scalar(db, version.value());
  if (!found) return found.error();
  if (found.value() > kRecordBookVersion) {
    return "the record book is version " + std::to_string(found.value()) + ", this build knows up to " +
           std::to_string(kRecordBookVersion) + ": use a newer stackrace-hub";
  }
  if (auto made = db.exec(detail::kSchema); !made) return "cannot create the record book's tables: " + made.error();
  if (found.value() == kRecordBookVersion) return {};
  return db.exec(("PRAGMA user_version = " + std::to_string(kRecordBookVersion)).c_str());
}

}  // namespace

const char* list_name(ListKind list) { return list == ListKind::kTrusted ? "trusted" : "other"; }

std::optional<ListKind> list_from_name(std::string_view name) {
  if (name == "trusted") return ListKind::kTrusted;
  if (name == "other") return ListKind::kOther;
  return std::nullopt;
}

sr::Result<RecordBook, std::string> RecordBook::open(const std::filesystem::path& file, const TrustList& trust) {
  Db db;
  if (auto opened = db.open(file.string()); !opened) return opened.error();
  const std::string where = db.where();  // never a password
  if (!db.in_database()) {
    if (auto set = db.exec(kPragmas); !set) return "cannot set up " + where + ": " + set.error();
  }
  if (auto migrated = migrate(db); !migrated) return "cannot open " + where + ": " + migrated.error();
  RecordBook book(std::move(db));
  if (auto applied = book.apply_trust(trust); !applied) {
    return "cannot apply the trust list to " + where + ": " + applied.error();
  }
  return book;
}

sr::Status<std::string> RecordBook::apply_trust(const TrustList& trust) {
  auto stored = detail::prepare(db_, "SELECT server_key, name FROM trusted_servers ORDER BY server_key");
  if (!stored) return stored.error();
  std::map<std::string, std::string> had;
  for (;;) {
    const Step step = stored.value().step();
    if (step == Step::kError) return db_.last_error();
    if (step == Step::kDone) break;
    had.emplace(stored.value().text_at(0), stored.value().text_at(1));
  }
  if (had == trust.keys()) return {};

  Transaction t(db_);
  if (auto ok = t.begin(); !ok) return ok;
  if (auto ok = db_.exec("DELETE FROM trusted_servers"); !ok) return ok;
  auto insert = detail::prepare(db_, "INSERT INTO trusted_servers (server_key, name) VALUES (?1, ?2)");
  if (!insert) return insert.error();
  for (const auto& [key, name] : trust.keys()) {
    insert.value().reset();
    insert.value().bind(1, key);
    insert.value().bind(2, name);
    if (auto ok = detail::run(db_, insert.value()); !ok) return ok;
  }
  // Every run to the list the new trust gives, then every best again from the runs.
  if (auto ok = db_.exec(
          "UPDATE runs SET list_kind = CASE WHEN unverified_us = 0 AND server_key IN "
          "(SELECT server_key FROM trusted_servers) THEN 'trusted' ELSE 'other' END;"
          "DELETE FROM bests;"
          "INSERT INTO bests (board, list_kind, player_key, run_id, rank_value) "
          "SELECT board, list_kind, player_key, id, rank_value FROM ("
          "SELECT board, list_kind, player_key, id, rank_value, ROW_NUMBER() OVER "
          "(PARTITION BY board, list_kind, player_key ORDER BY rank_value, id) AS n FROM runs) ranked WHERE n = 1");
      !ok) {
    return ok;
  }
  return t.commit();
}

sr::Result<std::optional<std::string>, std::string> RecordBook::find_replay(const std::string& replay_hash) {
  auto q = detail::prepare(db_, "SELECT game_id FROM submissions WHERE replay_hash = ?1");
  if (!q) return q.error();
  q.value().bind(1, replay_hash);
  const Step step = q.value().step();
  if (step == Step::kError) return db_.last_error();
  if (step == Step::kDone) return std::optional<std::string>();
  return std::optional<std::string>(q.value().text_at(0));
}

sr::Result<std::optional<std::string>, std::string> RecordBook::find_run(const std::string& player_key,
                                                                         const std::string& run_digest) {
  auto q = detail::prepare(db_, "SELECT record FROM runs WHERE player_key = ?1 AND run_digest = ?2");
  if (!q) return q.error();
  q.value().bind(1, player_key);
  q.value().bind(2, run_digest);
  const Step step = q.value().step();
  if (step == Step::kError) return db_.last_error();
  if (step == Step::kDone) return std::optional<std::string>();
  return std::optional<std::string>(q.value().text_at(0));
}

sr::Result<AddResult, std::string> RecordBook::add(const NewSubmission& s) {
  AddResult result;
  Transaction t(db_);
  if (auto ok = t.begin(); !ok) return ok.error();
  // Checked again inside the transaction: another request may have stored the same replay or run meanwhile.
  auto held = find_replay(s.replay_hash);
  if (!held) return held.error();
  if (held.value()) {
    result.duplicate = true;
    result.game_id = *held.value();
    return result;
  }
  std::vector<const NewRun*> fresh;
  for (const NewRun& run : s.runs) {
    auto same = find_run(run.player_key, run.run_digest);
    if (!same) return same.error();
    if (same.value()) {
      result.duplicate_runs.emplace_back(run.racer, *same.value());
    } else {
      fresh.push_back(&run);
    }
  }
  if (fresh.empty()) return result;

  auto server = detail::prepare(
      db_,
      "INSERT INTO servers (server_key, key_id, name, web, first_seen_unix_ms, last_seen_unix_ms, submissions) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?5, 1) ON CONFLICT (server_key) DO UPDATE SET name = excluded.name, "
      "web = excluded.web, last_seen_unix_ms = excluded.last_seen_unix_ms, submissions = servers.submissions + 1");
  if (!server) return server.error();
  const auto server_key = net::from_hex<32>(s.server_key);
  server.value().bind(1, s.server_key);
  server.value().bind(2, server_key ? net::short_key_id(*server_key) : std::string());
  server.value().bind(3, s.server_name);
  server.value().bind(4, s.server_web);
  server.value().bind(5, s.received_unix_ms);
  if (auto ok = detail::run(db_, server.value()); !ok) return ok.error();

  auto next_submission = detail::prepare(db_, "SELECT COALESCE(MAX(id), 0) + 1 FROM submissions");
  if (!next_submission) return next_submission.error();
  auto submission_id = detail::scalar(db_, next_submission.value());
  if (!submission_id) return submission_id.error();
  auto submission = detail::prepare(
      db_,
      "INSERT INTO submissions (id, replay_hash, game_id, server_key, server_name, server_web, server_game, sequence, "
      "received_unix_ms, source) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  if (!submission) return submission.error();
  Statement& ins = submission.value();
  ins.bind(1, submission_id.value());
  ins.bind(2, s.replay_hash);
  ins.bind(3, s.game_id);
  ins.bind(4, s.server_key);
  ins.bind(5, s.server_name);
  ins.bind(6, s.server_web);
  ins.bind(7, s.server_game);
  ins.bind(8, static_cast<std::int64_t>(s.sequence));
  ins.bind(9, s.received_unix_ms);
  ins.bind(10, s.source);
  if (auto ok = detail::run(db_, ins); !ok) return ok.error();

  auto next_run = detail::prepare(db_, "SELECT COALESCE(MAX(id), 0) + 1 FROM runs");
  auto board = detail::prepare(
      db_,
      "INSERT INTO boards (board, mode, limit_kind, limit_value, goal, custom, limit_text) VALUES (?1, ?2, ?3, ?4, ?5, "
      "?6, ?7) ON CONFLICT (board) DO NOTHING");
  auto run = detail::prepare(
      db_,
      "INSERT INTO runs (id, record, submission_id, game_id, racer, board, list_kind, player_key, key_id, player, "
      "run_digest, time_us, score, lines, pieces, rank_value, unverified_us, rules_version, server_key, "
      "played_unix_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
      "?20)");
  // The player's best: this run when there was none or it ranks before the one there (ties keep the earlier run).
  auto best = detail::prepare(
      db_,
      "INSERT INTO bests (board, list_kind, player_key, run_id, rank_value) VALUES (?1, ?2, ?3, ?4, ?5) "
      "ON CONFLICT (board, list_kind, player_key) DO UPDATE SET run_id = excluded.run_id, "
      "rank_value = excluded.rank_value WHERE excluded.rank_value < bests.rank_value");
  auto best_of =
      detail::prepare(db_, "SELECT run_id FROM bests WHERE board = ?1 AND list_kind = ?2 AND player_key = ?3");
  // Among every other player's best: those ranked before it (ties go to the earlier run).
  auto before = detail::prepare(db_,
                                "SELECT COUNT(*) FROM bests WHERE board = ?1 AND list_kind = ?2 AND "
                                "(rank_value, run_id) < (?4, ?5) AND player_key <> ?3");
  if (!next_run || !board || !run || !best || !best_of || !before) return db_.last_error();
  auto run_id = detail::scalar(db_, next_run.value());
  if (!run_id) return run_id.error();
  std::int64_t id = run_id.value();
  for (const NewRun* r : fresh) {
    const std::string list = list_name(r->list);
    const std::int64_t rank = r->rank_value;
    Statement& b = board.value();
    b.reset();
    b.bind(1, r->board.id);
    b.bind(2, std::string(replay::names::name_of(replay::names::kMode, r->board.mode)));
    b.bind(3, std::string(replay::names::name_of(replay::names::kLimit, r->board.limit)));
    b.bind(4, r->board.limit_value);
    b.bind(5, std::string(goal_name(r->board.goal)));
    b.bind(6, r->board.custom ? 1 : 0);
    b.bind(7, r->board.limit_text);
    if (auto ok = detail::run(db_, b); !ok) return ok.error();

    StoredRun stored;
    stored.racer = r->racer;
    stored.record = s.game_id + "-" + std::to_string(r->racer);
    stored.board = r->board.id;
    stored.list = r->list;
    const auto player_key = net::from_hex<32>(r->player_key);
    Statement& q = run.value();
    q.reset();
    q.bind(1, id);
    q.bind(2, stored.record);
    q.bind(3, submission_id.value());
    q.bind(4, s.game_id);
    q.bind(5, static_cast<std::int64_t>(r->racer));
    q.bind(6, r->board.id);
    q.bind(7, list);
    q.bind(8, r->player_key);
    q.bind(9, player_key ? net::short_key_id(*player_key) : std::string());
    q.bind(10, r->player);
    q.bind(11, r->run_digest);
    q.bind(12, r->stats.time_us);
    q.bind(13, r->stats.score);
    q.bind(14, r->stats.lines);
    q.bind(15, r->stats.pieces);
    q.bind(16, rank);
    q.bind(17, r->unverified_us);
    q.bind(18, static_cast<std::int64_t>(s.rules_version));
    q.bind(19, s.server_key);
    q.bind(20, s.played_unix_ms);
    if (auto ok = detail::run(db_, q); !ok) return ok.error();

    Statement& bs = best.value();
    bs.reset();
    bs.bind(1, r->board.id);
    bs.bind(2, list);
    bs.bind(3, r->player_key);
    bs.bind(4, id);
    bs.bind(5, rank);
    if (auto ok = detail::run(db_, bs); !ok) return ok.error();
    Statement& bo = best_of.value();
    bo.reset();
    bo.bind(1, r->board.id);
    bo.bind(2, list);
    bo.bind(3, r->player_key);
    auto holder = detail::scalar(db_, bo);
    if (!holder) return holder.error();
    stored.best = holder.value() == id;
    result.stored.push_back(std::move(stored));
    ++id;
  }
  // The places once every run of the submission is in: a race's racers are placed among each other too.
  for (std::size_t i = 0; i < fresh.size(); ++i) {
    StoredRun& stored = result.stored[i];
    Statement& p = before.value();
    p.reset();
    p.bind(1, stored.board);
    p.bind(2, std::string(list_name(stored.list)));
    p.bind(3, fresh[i]->player_key);
    p.bind(4, fresh[i]->rank_value);
    p.bind(5, run_id.value() + static_cast<std::int64_t>(i));
    auto ahead = detail::scalar(db_, p);
    if (!ahead) return ahead.error();
    stored.place = ahead.value() + 1;
  }
  if (auto ok = t.commit(); !ok) return ok.error();
  return result;
}

}  // namespace sr::hub::records
