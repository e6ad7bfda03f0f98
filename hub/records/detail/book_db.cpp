#include "hub/records/detail/book_db.h"

#include <cstdlib>

namespace sr::hub::records::detail {

namespace pg = replay::pg;

std::string to_postgres_parameters(const std::string& sql) {
  std::string out;
  out.reserve(sql.size());
  bool quoted = false;
  for (char c : sql) {
    if (c == '\'') quoted = !quoted;
    out.push_back(!quoted && c == '?' ? '$' : c);
  }
  return out;
}

std::string to_postgres_schema(const std::string& sql) {
  std::string out;
  const std::string text = " TEXT";
  std::size_t from = 0;
  for (;;) {
    const std::size_t at = sql.find(text, from);
    if (at == std::string::npos) break;
    const std::size_t end = at + text.size();
    out.append(sql, from, end - from);
    // A column type (followed by a blank, a comma or a closing parenthesis), not a word that starts with TEXT.
    if (end < sql.size() && (sql[end] == ' ' || sql[end] == ',' || sql[end] == '\n' || sql[end] == ')')) {
      out += " COLLATE \"C\"";
    }
    from = end;
  }
  out.append(sql, from, std::string::npos);
  return out;
}

sr::Status<std::string> BookDb::open(const std::string& where) {
  if (pg::is_locator(where)) {
    auto conn = pg::Conn::connect(where);
    if (!conn.ok()) return conn.error();
    pg_.emplace(std::move(conn).value());
    where_ = "postgresql://" + pg_->describe();
    return {};
  }
  where_ = where;
  return sqlite_.open(where);
}

sr::Status<std::string> BookDb::failed(std::string error) {
  pg_error_ = error;
  return error;
}

sr::Status<std::string> BookDb::connected() {
  if (pg_->alive()) return {};
  if (auto reset = pg_->reset(); !reset) return failed(reset.error());
  return {};
}

sr::Status<std::string> BookDb::exec(const char* sql) {
  if (!pg_) return sqlite_.exec(sql);
  if (auto ok = connected(); !ok) return ok;
  if (auto ok = pg_->exec(sql); !ok) return failed(ok.error());
  return {};
}

std::optional<BookStatement> BookDb::prepare(const char* sql) {
  if (!pg_) {
    std::optional<replay::sqlite::Statement> s = sqlite_.prepare(sql);
    if (!s) return std::nullopt;
    return BookStatement(std::move(*s));
  }
  return BookStatement(this, to_postgres_parameters(sql));
}

std::string BookDb::last_error() const { return pg_ ? pg_error_ : sqlite_.last_error(); }

void BookStatement::set(int index, pg::Param value) {
  if (index < 1) return;
  if (params_.size() < static_cast<std::size_t>(index)) params_.resize(static_cast<std::size_t>(index));
  params_[static_cast<std::size_t>(index) - 1] = std::move(value);
}

void BookStatement::bind(int index, std::int64_t value) {
  if (sqlite_) return sqlite_->bind(index, value);
  set(index, pg::Param(value));
}

void BookStatement::bind(int index, const std::string& value) {
  if (sqlite_) return sqlite_->bind(index, value);
  set(index, pg::Param(value));
}

void BookStatement::bind_null(int index) {
  if (sqlite_) return sqlite_->bind_null(index);
  set(index, pg::Param());
}

BookStatement::Step BookStatement::step() {
  if (sqlite_) return sqlite_->step();
  if (!rows_) {
    if (!db_->connected()) return Step::kError;
    auto rows = db_->pg_->query(sql_.c_str(), params_);
    if (!rows.ok()) {
      (void)db_->failed(rows.error());
      return Step::kError;
    }
    rows_.emplace(std::move(rows).value());
    row_ = -1;
  }
  ++row_;
  return row_ < rows_->size() ? Step::kRow : Step::kDone;
}

void BookStatement::reset() {
  if (sqlite_) return sqlite_->reset();
  rows_.reset();
  row_ = -1;
}

std::int64_t BookStatement::int_at(int column) const {
  if (sqlite_) return sqlite_->int_at(column);
  return rows_ && row_ >= 0 && row_ < rows_->size() ? rows_->int_at(row_, column) : 0;
}

std::string BookStatement::text_at(int column) const {
  if (sqlite_) return sqlite_->text_at(column);
  return rows_ && row_ >= 0 && row_ < rows_->size() ? rows_->text_at(row_, column) : std::string();
}

}  // namespace sr::hub::records::detail
