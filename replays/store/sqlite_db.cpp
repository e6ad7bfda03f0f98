#include "replays/store/sqlite_db.h"

#include <sqlite3.h>

namespace sr::replay::sqlite {

Statement& Statement::operator=(Statement&& o) noexcept {
  if (this != &o) {
    if (stmt_) sqlite3_finalize(stmt_);
    db_ = o.db_;
    stmt_ = std::exchange(o.stmt_, nullptr);
  }
  return *this;
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

void Statement::bind(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }

void Statement::bind(int index, const std::string& value) {
  sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

void Statement::bind_null(int index) { sqlite3_bind_null(stmt_, index); }

Statement::Step Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return Step::kRow;
  if (rc == SQLITE_DONE) return Step::kDone;
  return Step::kError;
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::int64_t Statement::int_at(int column) const { return sqlite3_column_int64(stmt_, column); }

std::string Statement::text_at(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  const int n = sqlite3_column_bytes(stmt_, column);
  return text ? std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(n)) : std::string();
}

Db& Db::operator=(Db&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close(db_);
    db_ = std::exchange(o.db_, nullptr);
  }
  return *this;
}

Db::~Db() {
  if (db_) sqlite3_close(db_);
}

sr::Status<std::string> Db::open(const std::filesystem::path& path) {
  if (db_) sqlite3_close(db_);
  db_ = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    std::string e = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    return "cannot open " + path.string() + ": " + e;
  }
  sqlite3_busy_timeout(db_, 5000);
  return {};
}

sr::Status<std::string> Db::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string e = message ? message : "unknown SQLite error";
    sqlite3_free(message);
    return e;
  }
  return {};
}

std::optional<Statement> Db::prepare(const char* sql) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) return std::nullopt;
  return Statement(db_, stmt);
}

std::string Db::last_error() const { return db_ ? sqlite3_errmsg(db_) : "no database"; }

}  // namespace sr::replay::sqlite
