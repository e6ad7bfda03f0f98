// A thin RAII layer over libpq (a connection and its results), used by the replay store's PostgreSQL backend
// (pg_store.h). Errors come back as messages; nothing here throws.
//
// # Values
// Every value reaches the server as a parameter of PQexecParams ($1, $2, ...), never spliced into SQL text. Text
// values are sent as text, byte strings (bytea) in binary format; results come back as text.
//
// # The library
// libpq is loaded (dlopen) when the first connection is made, so a program that never opens a database does not pay
// for loading it and the libraries it needs at every start. Without it, connect() says so:
// "cannot connect to the database at URI: the PostgreSQL client library libpq.so.5 cannot be loaded (...); on Debian
// it is the package libpq5".
//
// # Passwords
// No message from here names a password: connect() and describe() show HOST:PORT/DB only, and every libpq message
// has the locator's password (if any) cut out before it is returned.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/result.h"

struct pg_conn;
struct pg_result;

namespace sr::replay::pg {

// The name connect() loads libpq by.
inline constexpr const char* kLibpqName = "libpq.so.5";

// Loads libpq as `soname` and finds every function used here: "" if that works, else connect()'s reason (for tests;
// connect() loads kLibpqName once per process).
[[nodiscard]] std::string libpq_load_error(const char* soname);

// True for "postgresql://..." and "postgres://..." (libpq's URI forms): a store in a database, not a folder.
[[nodiscard]] bool is_locator(std::string_view locator);

// The locator as given with its password (user:PASSWORD@ or ?password=) replaced by ***, for logs.
[[nodiscard]] std::string redact_locator(std::string locator);

// One parameter of a query: NULL (nullopt), text, or bytes (bytea, sent in binary).
struct Param {
  std::optional<std::string> value;
  bool binary = false;

  Param() = default;
  Param(std::string text) : value(std::move(text)) {}            // NOLINT: a text parameter reads as a string
  Param(const char* text) : value(text) {}                       // NOLINT
  Param(std::int64_t number) : value(std::to_string(number)) {}  // NOLINT
  [[nodiscard]] static Param bytes(const std::vector<std::uint8_t>& b) {
    Param p;
    p.value = std::string(b.begin(), b.end());
    p.binary = true;
    return p;
  }
  template <class T>
  [[nodiscard]] static Param maybe(const std::optional<T>& v) {
    return v ? Param(*v) : Param();
  }
};

// The rows of one query (text format). Row and column numbers start at 0.
class Rows {
 public:
  Rows() = default;
  explicit Rows(pg_result* r) : r_(r) {}
  Rows(Rows&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
  Rows& operator=(Rows&& o) noexcept;
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  ~Rows();

  [[nodiscard]] int size() const;
  // The number of rows an INSERT, UPDATE or DELETE touched.
  [[nodiscard]] std::int64_t affected() const;
  [[nodiscard]] bool null_at(int row, int column) const;
  [[nodiscard]] std::string text_at(int row, int column) const;
  // 0 for a NULL or a value that is not a whole number.
  [[nodiscard]] std::int64_t int_at(int row, int column) const;
  // "t" is true (PostgreSQL's text form of a boolean).
  [[nodiscard]] bool bool_at(int row, int column) const;
  // A bytea column; nullopt if its text does not unescape.
  [[nodiscard]] std::optional<std::vector<std::uint8_t>> bytes_at(int row, int column) const;

 private:
  pg_result* r_ = nullptr;
};

class Conn {
 public:
  Conn() = default;
  Conn(Conn&& o) noexcept : c_(std::exchange(o.c_, nullptr)), password_(std::move(o.password_)) {}
  Conn& operator=(Conn&& o) noexcept;
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;
  ~Conn();

  // Connects to a postgresql:// URI (missing parts come from PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, as for
  // psql). Waits at most 10 s unless the URI says connect_timeout. With `max_wait_ms` > 0, the connection attempt
  // gives up after max(2 s, that) and every query on the connection after that long (statement_timeout), and a
  // server that stops answering drops the connection after that long (tcp_user_timeout).
  // # Errors
  // "cannot connect to the database at HOST:PORT/DB: <libpq's reason>" (no password).
  [[nodiscard]] static sr::Result<Conn, std::string> connect(const std::string& uri, std::int64_t max_wait_ms = 0);

  // Runs SQL without parameters (several statements allowed: migrations, BEGIN, COMMIT). Returns ok or the error.
  [[nodiscard]] sr::Status<std::string> exec(const char* sql);
  // Runs one statement with parameters $1..$n. Returns its rows (none for a statement without results).
  [[nodiscard]] sr::Result<Rows, std::string> query(const char* sql, const std::vector<Param>& params);

  // False once the server is gone (a dropped connection, a terminated backend).
  [[nodiscard]] bool alive() const;
  // Reconnects with the same settings (after alive() turned false). Returns ok or why not.
  [[nodiscard]] sr::Status<std::string> reset();
  // "HOST:PORT/DB" of this connection, for messages and logs.
  [[nodiscard]] std::string describe() const;

 private:
  [[nodiscard]] std::string error_message() const;
  [[nodiscard]] std::string scrub(std::string message) const;

  pg_conn* c_ = nullptr;
  std::string password_;  // the locator's password, only to cut it out of messages
};

// A schema kept at a version by numbered migrations: `version_table` holds one row, the version made so far, and
// migrations[v - 1] takes the schema from version v - 1 to v (so version migrations.size() is current).
struct Schema {
  std::int64_t lock = 0;  // the advisory lock the migrations run under, one number per schema
  const char* version_table = "";
  std::span<const char* const> migrations;
};

// Why migrate() did not bring a schema to its current version.
struct MigrateError {
  std::int64_t newer_version = 0;  // > 0: the database's schema is this version, newer than this build knows
  std::string why;                 // otherwise the database's reason ("migration to version 2: ...")
};

// Brings `schema` to its current version in one transaction under its advisory lock, so that servers starting
// together against a new database create it once: creates the version table if missing, applies the migrations the
// database lacks and records the version. Anything that fails is rolled back; a schema newer than this build's is
// left as it is.
[[nodiscard]] sr::Status<MigrateError> migrate(Conn& conn, const Schema& schema);

}  // namespace sr::replay::pg
