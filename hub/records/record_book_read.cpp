// The record book's reads (record_book.h): boards, lists, places, runs and players.
#include "hub/records/record_book.h"

#include "common/replay/names.h"
#include "hub/records/detail/book_sql.h"
#include "net/identity/key_id.h"
#include "net/identity/submission.h"

namespace sr::hub::records {
namespace detail {

using Db = detail::BookDb;
using Statement = detail::BookStatement;
using Step = Statement::Step;

sr::Result<Statement, std::string> prepare(Db& db, const char* sql) {
  std::optional<Statement> s = db.prepare(sql);
  if (!s) return db.last_error();
  return std::move(*s);
}

sr::Status<std::string> run(Db& db, Statement& s) {
  for (;;) {
    const Step step = s.step();
    if (step == Step::kError) return db.last_error();
    if (step == Step::kDone) return {};
  }
}

sr::Result<std::int64_t, std::string> scalar(Db& db, Statement& s) {
  const Step step = s.step();
  if (step == Step::kError) return db.last_error();
  return step == Step::kRow ? s.int_at(0) : 0;
}

Board read_board(const Statement& s, int first) {
  namespace names = replay::names;
  Board b;
  b.id = s.text_at(first);
  b.mode = static_cast<engine::ModeKind>(names::index_of(names::kMode, s.text_at(first + 1)).value_or(0));
  b.limit = static_cast<engine::LimitKind>(names::index_of(names::kLimit, s.text_at(first + 2)).value_or(0));
  b.limit_value = s.int_at(first + 3);
  b.goal = static_cast<engine::GoalKind>(names::index_of(names::kGoal, s.text_at(first + 4)).value_or(0));
  b.custom = s.int_at(first + 5) != 0;
  b.limit_text = s.text_at(first + 6);
  return b;
}

EntryRow read_entry(const Statement& s) {
  EntryRow row;
  Entry& e = row.entry;
  e.record = s.text_at(0);
  e.list = list_from_name(s.text_at(2)).value_or(ListKind::kOther);
  e.player = s.text_at(3);
  e.key = s.text_at(4);
  e.key_id = s.text_at(5);
  e.time_us = s.int_at(6);
  e.score = s.int_at(7);
  e.lines = s.int_at(8);
  e.pieces = s.int_at(9);
  e.unverified_us = s.int_at(10);
  e.rules_version = static_cast<std::uint32_t>(s.int_at(11));
  e.racer = static_cast<std::uint32_t>(s.int_at(12));
  e.server_name = s.text_at(13);
  e.server_key = s.text_at(14);
  if (const auto key = net::from_hex<32>(e.server_key)) e.server_key_id = net::short_key_id(*key);
  e.server_web = s.text_at(15);
  e.played_unix_ms = s.int_at(16);
  e.submitted_unix_ms = s.int_at(17);
  e.game_id = s.text_at(18);
  e.board = read_board(s, 18);  // the board's columns follow r.game_id: its id is r.board (column 1)
  e.board.id = s.text_at(1);
  row.run_id = s.int_at(25);
  row.rank_value = s.int_at(26);
  return row;
}

}  // namespace detail

using Statement = detail::BookStatement;
using Step = Statement::Step;

sr::Result<std::int64_t, std::string> RecordBook::place_of_best(const std::string& board, ListKind list,
                                                                std::int64_t rank_value, std::int64_t run_id) {
  auto q = detail::prepare(db_,
                           "SELECT COUNT(*) FROM bests WHERE board = ?1 AND list_kind = ?2 AND "
                           "(rank_value, run_id) < (?3, ?4)");
  if (!q) return q.error();
  q.value().bind(1, board);
  q.value().bind(2, std::string(list_name(list)));
  q.value().bind(3, rank_value);
  q.value().bind(4, run_id);
  auto before = detail::scalar(db_, q.value());
  if (!before) return before.error();
  return before.value() + 1;
}

sr::Status<std::string> RecordBook::fill_best(Entry& e, std::int64_t run_id, std::int64_t rank_value) {
  auto q = detail::prepare(db_,
                           "SELECT b.run_id, r.record FROM bests b JOIN runs r ON r.id = b.run_id "
                           "WHERE b.board = ?1 AND b.list_kind = ?2 AND b.player_key = ?3");
  if (!q) return q.error();
  q.value().bind(1, e.board.id);
  q.value().bind(2, std::string(list_name(e.list)));
  q.value().bind(3, e.key);
  const Step step = q.value().step();
  if (step == Step::kError) return db_.last_error();
  if (step == Step::kDone) return {};
  e.best = q.value().int_at(0) == run_id;
  e.best_record = q.value().text_at(1);
  if (e.best) {
    auto place = place_of_best(e.board.id, e.list, rank_value, run_id);
    if (!place) return place.error();
    e.place = place.value();
  }
  return {};
}

sr::Result<std::vector<BoardSummary>, std::string> RecordBook::boards() {
  auto q = detail::prepare(
      db_,
      "SELECT bd.board, bd.mode, bd.limit_kind, bd.limit_value, bd.goal, bd.custom, bd.limit_text, "
      "(SELECT COUNT(*) FROM bests b WHERE b.board = bd.board AND b.list_kind = 'trusted'), "
      "(SELECT COUNT(*) FROM bests b WHERE b.board = bd.board AND b.list_kind = 'other') FROM boards bd "
      "ORDER BY bd.board");
  if (!q) return q.error();
  std::vector<BoardSummary> out;
  for (;;) {
    const Step step = q.value().step();
    if (step == Step::kError) return db_.last_error();
    if (step == Step::kDone) break;
    out.push_back(BoardSummary{detail::read_board(q.value(), 0), q.value().int_at(7), q.value().int_at(8)});
  }
  return out;
}

sr::Result<std::optional<BoardPage>, std::string> RecordBook::board(const std::string& id, ListKind list,
                                                                    std::int64_t offset, std::int64_t limit) {
  auto info = detail::prepare(db_,
                              "SELECT board, mode, limit_kind, limit_value, goal, custom, limit_text, "
                              "(SELECT COUNT(*) FROM bests b WHERE b.board = ?1 AND b.list_kind = ?2) "
                              "FROM boards WHERE board = ?1");
  if (!info) return info.error();
  info.value().bind(1, id);
  info.value().bind(2, std::string(list_name(list)));
  const Step found = info.value().step();
  if (found == Step::kError) return db_.last_error();
  if (found == Step::kDone) return std::optional<BoardPage>();
  BoardPage page;
  page.board = detail::read_board(info.value(), 0);
  page.total = info.value().int_at(7);

  const std::string sql = std::string("SELECT ") + detail::kEntryColumns + detail::kEntryFrom +
                          " JOIN bests b ON b.run_id = r.id WHERE b.board = ?1 AND b.list_kind = ?2 "
                          "ORDER BY b.rank_value, b.run_id LIMIT ?3 OFFSET ?4";
  auto q = detail::prepare(db_, sql.c_str());
  if (!q) return q.error();
  q.value().bind(1, id);
  q.value().bind(2, std::string(list_name(list)));
  q.value().bind(3, limit);
  q.value().bind(4, offset);
  for (;;) {
    const Step step = q.value().step();
    if (step == Step::kError) return db_.last_error();
    if (step == Step::kDone) break;
    detail::EntryRow row = detail::read_entry(q.value());
    row.entry.best = true;
    row.entry.best_record = row.entry.record;
    row.entry.place = offset + static_cast<std::int64_t>(page.entries.size()) + 1;
    page.entries.push_back(std::move(row.entry));
  }
  return std::optional<BoardPage>(std::move(page));
}

sr::Result<std::optional<Place>, std::string> RecordBook::place(const std::string& board, ListKind list,
                                                                std::int64_t rank_value) {
  auto q = detail::prepare(db_,
                           "SELECT (SELECT COUNT(*) FROM bests b WHERE b.board = ?1 AND b.list_kind = ?2 AND "
                           "b.rank_value <= ?3), (SELECT COUNT(*) FROM bests b WHERE b.board = ?1 AND "
                           "b.list_kind = ?2) FROM boards WHERE board = ?1");
  if (!q) return q.error();
  q.value().bind(1, board);
  q.value().bind(2, std::string(list_name(list)));
  q.value().bind(3, rank_value);
  const Step step = q.value().step();
  if (step == Step::kError) return db_.last_error();
  if (step == Step::kDone) return std::optional<Place>();
  return std::optional<Place>(Place{q.value().int_at(0) + 1, q.value().int_at(1)});
}

sr::Result<std::optional<Entry>, std::string> RecordBook::run(const std::string& record) {
  const std::string sql = std::string("SELECT ") + detail::kEntryColumns + detail::kEntryFrom + " WHERE r.record = ?1";
  auto q = detail::prepare(db_, sql.c_str());
  if (!q) return q.error();
  q.value().bind(1, record);
  const Step step = q.value().step();
  if (step == Step::kError) return db_.last_error();
  if (step == Step::kDone) return std::optional<Entry>();
  detail::EntryRow row = detail::read_entry(q.value());
  if (auto ok = fill_best(row.entry, row.run_id, row.rank_value); !ok) return ok.error();
  return std::optional<Entry>(std::move(row.entry));
}

sr::Result<std::optional<PlayerRecords>, std::string> RecordBook::player(const std::string& key_hex) {
  auto names = detail::prepare(
      db_, "SELECT player, MIN(id) AS first FROM runs WHERE player_key = ?1 GROUP BY player ORDER BY first, player");
  if (!names) return names.error();
  names.value().bind(1, key_hex);
  PlayerRecords p;
  p.key = key_hex;
  for (;;) {
    const Step step = names.value().step();
    if (step == Step::kError) return db_.last_error();
    if (step == Step::kDone) break;
    p.names.push_back(names.value().text_at(0));
  }
  if (p.names.empty()) return std::optional<PlayerRecords>();
  if (const auto key = net::from_hex<32>(key_hex)) p.key_id = net::short_key_id(*key);

  const std::string sql = std::string("SELECT ") + detail::kEntryColumns + detail::kEntryFrom +
                          " JOIN bests b ON b.run_id = r.id WHERE b.player_key = ?1 ORDER BY b.board, b.list_kind";
  auto q = detail::prepare(db_, sql.c_str());
  if (!q) return q.error();
  q.value().bind(1, key_hex);
  std::vector<detail::EntryRow> rows;
  for (;;) {
    const Step step = q.value().step();
    if (step == Step::kError) return db_.last_error();
    if (step == Step::kDone) break;
    rows.push_back(detail::read_entry(q.value()));
  }
  for (detail::EntryRow& row : rows) {
    row.entry.best = true;
    row.entry.best_record = row.entry.record;
    auto place = place_of_best(row.entry.board.id, row.entry.list, row.rank_value, row.run_id);
    if (!place) return place.error();
    row.entry.place = place.value();
    p.records.push_back(std::move(row.entry));
  }
  return std::optional<PlayerRecords>(std::move(p));
}

sr::Result<std::vector<std::string>, std::string> RecordBook::keys_with_id(const std::string& key_id) {
  auto q = detail::prepare(db_, "SELECT DISTINCT player_key FROM runs WHERE key_id = ?1 ORDER BY player_key");
  if (!q) return q.error();
  q.value().bind(1, key_id);
  std::vector<std::string> out;
  for (;;) {
    const Step step = q.value().step();
    if (step == Step::kError) return db_.last_error();
    if (step == Step::kDone) break;
    out.push_back(q.value().text_at(0));
  }
  return out;
}

sr::Result<std::int64_t, std::string> RecordBook::server_count() {
  auto q = detail::prepare(db_, "SELECT COUNT(*) FROM servers");
  if (!q) return q.error();
  return detail::scalar(db_, q.value());
}

}  // namespace sr::hub::records
