// A thin RAII layer over SQLite (connections and prepared statements), used by the replay store and by the server's
// contest ladder (server/ladder_store.h). Errors come back as messages; nothing here throws.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "common/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace sr::replay::sqlite {

class Statement {
 public:
  enum class Step : std::uint8_t { kRow, kDone, kError };

  Statement() = default;
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& o) noexcept : db_(o.db_), stmt_(std::exchange(o.stmt_, nullptr)) {}
  Statement& operator=(Statement&& o) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameters are numbered from 1, as in SQL (?1, ?2, ...).
  void bind(int index, std::int64_t value);
  void bind(int index, const std::string& value);
  void bind_null(int index);
  [[nodiscard]] Step step();
  // Ready for another run with new bindings.
  void reset();
  [[nodiscard]] std::int64_t int_at(int column) const;
  [[nodiscard]] std::string text_at(int column) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

class Db {
 public:
  Db() = default;
  Db(Db&& o) noexcept : db_(std::exchange(o.db_, nullptr)) {}
  Db& operator=(Db&& o) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  // Opens or creates the database file. Returns ok, or an error message on failure.
  [[nodiscard]] sr::Status<std::string> open(const std::filesystem::path& path);
  // Runs one or more statements without results. Returns ok, or an error message on failure.
  [[nodiscard]] sr::Status<std::string> exec(const char* sql);
  // A prepared statement, or nullopt (see last_error()).
  [[nodiscard]] std::optional<Statement> prepare(const char* sql);
  [[nodiscard]] std::string last_error() const;

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace sr::replay::sqlite
