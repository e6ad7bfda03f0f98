// Internal to the record book: the one database interface its statements run through, on SQLite (a file, the
// default) or on PostgreSQL (stackrace-hub --database). The statements are the book's own SQL (book_sql.h), written
// with SQLite's numbered parameters ?1, ?2, ...; on PostgreSQL they become $1, $2, ... and their values are sent as
// untyped text, which PostgreSQL types from where each one is used. Text columns compare and sort byte by byte on
// both (PostgreSQL's are made COLLATE "C"), so lists come out in the same order.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "replays/store/pg_db.h"
#include "replays/store/sqlite_db.h"

namespace sr::hub::records::detail {

class BookDb;

class BookStatement {
 public:
  using Step = replay::sqlite::Statement::Step;

  explicit BookStatement(replay::sqlite::Statement s) : sqlite_(std::move(s)) {}
  BookStatement(BookDb* db, std::string sql) : db_(db), sql_(std::move(sql)) {}

  // Parameters are numbered from 1 (?1, ?2, ...).
  void bind(int index, std::int64_t value);
  void bind(int index, const std::string& value);
  void bind_null(int index);
  [[nodiscard]] Step step();
  void reset();
  [[nodiscard]] std::int64_t int_at(int column) const;
  [[nodiscard]] std::string text_at(int column) const;

 private:
  void set(int index, replay::pg::Param value);

  std::optional<replay::sqlite::Statement> sqlite_;
  // PostgreSQL: the translated SQL, the values bound, and after the first step() its rows and the current one.
  BookDb* db_ = nullptr;
  std::string sql_;
  std::vector<replay::pg::Param> params_;
  std::optional<replay::pg::Rows> rows_;
  int row_ = -1;
};

class BookDb {
 public:
  BookDb() = default;
  BookDb(BookDb&&) noexcept = default;
  BookDb& operator=(BookDb&&) noexcept = default;

  // The book's file (SQLite), or a postgresql:// locator. # Errors: why not (never a password).
  [[nodiscard]] sr::Status<std::string> open(const std::string& where);
  [[nodiscard]] bool in_database() const { return pg_.has_value(); }
  // Runs statements without results (several allowed). Ok, or the error (also last_error()).
  [[nodiscard]] sr::Status<std::string> exec(const char* sql);
  // A statement to bind and step, or nullopt (see last_error()).
  [[nodiscard]] std::optional<BookStatement> prepare(const char* sql);
  [[nodiscard]] std::string last_error() const;
  // Where the book is, for messages: the file, or "postgresql://HOST:PORT/DB".
  [[nodiscard]] std::string where() const { return where_; }

 private:
  friend class BookStatement;
  // PostgreSQL: the connection, reconnected first if the server dropped it. Ok, or why not (also last_error()).
  [[nodiscard]] sr::Status<std::string> connected();
  sr::Status<std::string> failed(std::string error);

  replay::sqlite::Db sqlite_;
  std::optional<replay::pg::Conn> pg_;
  std::string pg_error_;
  std::string where_;
};

// SQLite's ?N parameters as PostgreSQL's $N (outside quoted text).
[[nodiscard]] std::string to_postgres_parameters(const std::string& sql);
// The book's schema for PostgreSQL: every TEXT column COLLATE "C" (byte order, as SQLite's).
[[nodiscard]] std::string to_postgres_schema(const std::string& sql);

}  // namespace sr::hub::records::detail
