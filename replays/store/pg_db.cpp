#include "replays/store/pg_db.h"

#include <dlfcn.h>
#include <libpq-fe.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <type_traits>

namespace sr::replay::pg {
namespace {

// libpq is loaded when the first connection is made, not at start-up: most runs of the programs that link the store
// (every `stackrace-replay verify`, say) never open a database, and mapping libpq with the 20 libraries it needs
// (TLS, Kerberos, LDAP) and resolving their symbols cost each of them 3.4 ms of start-up (0.8 ms -> 4.2 ms).

// Every libpq function used here, in name order (a missing one is reported as the first not found).
#define SR_LIBPQ_FUNCTIONS(X) \
  X(PQclear)                  \
  X(PQcmdTuples)              \
  X(PQconnectdbParams)        \
  X(PQconninfoFree)           \
  X(PQconninfoParse)          \
  X(PQdb)                     \
  X(PQerrorMessage)           \
  X(PQexec)                   \
  X(PQexecParams)             \
  X(PQfinish)                 \
  X(PQfreemem)                \
  X(PQgetisnull)              \
  X(PQgetlength)              \
  X(PQgetvalue)               \
  X(PQhost)                   \
  X(PQntuples)                \
  X(PQport)                   \
  X(PQreset)                  \
  X(PQresultStatus)           \
  X(PQsetNoticeProcessor)     \
  X(PQstatus)                 \
  X(PQunescapeBytea)

struct Libpq {
#define SR_LIBPQ_MEMBER(name) decltype(&::name) name = nullptr;
  SR_LIBPQ_FUNCTIONS(SR_LIBPQ_MEMBER)
#undef SR_LIBPQ_MEMBER
};

struct LoadedLibpq {
  Libpq fns;
  std::string error;  // empty once every function was found
};

LoadedLibpq load(const char* soname) {
  LoadedLibpq l;
  void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = ::dlerror();
    l.error = std::string("the PostgreSQL client library ") + soname + " cannot be loaded (" + (why ? why : "?") +
              "); on Debian it is the package libpq5";
    return l;
  }
  // Found in order until one is missing.
  const auto take = [&](const char* name, auto& fn) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handle, name));
    if (!fn) l.error = std::string("the PostgreSQL client library ") + soname + " has no " + name;
    return fn != nullptr;
  };
  Libpq& f = l.fns;
#define SR_LIBPQ_TAKE(name) &&take(#name, f.name)
  (void)(true SR_LIBPQ_FUNCTIONS(SR_LIBPQ_TAKE));
#undef SR_LIBPQ_TAKE
  // The library stays loaded for the life of the process: results and connections may outlive any one caller.
  return l;
}

const LoadedLibpq& loaded() {
  static const LoadedLibpq l = load(kLibpqName);
  return l;
}

// Only called where a connection or a result exists, which proves the library was loaded.
const Libpq& lib() { return loaded().fns; }

// libpq's messages end with a newline; ours are one line.
std::string one_line(const std::string& s) {
  std::string out;
  for (char c : s) {
    const bool space = c == '\n' || c == '\t' || c == ' ';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The locator's password (from the URI, or PGPASSWORD), or "" if none: cut out of every message.
std::string password_of(const std::string& uri) {
  char* err = nullptr;
  PQconninfoOption* opts = lib().PQconninfoParse(uri.c_str(), &err);
  if (err) lib().PQfreemem(err);
  std::string password;
  if (opts) {
    for (PQconninfoOption* o = opts; o->keyword; ++o) {
      if (std::string_view(o->keyword) == "password" && o->val) password = o->val;
    }
    lib().PQconninfoFree(opts);
  }
  return password;
}

// The server's notices ("relation ... already exists, skipping") are not errors: not printed on stderr.
void ignore_notice(void* /*arg*/, const char* /*message*/) {}

std::string at(pg_conn* c) {
  if (!c) return "?";
  const char* host = lib().PQhost(c);
  const char* port = lib().PQport(c);
  const char* db = lib().PQdb(c);
  return std::string(host && *host ? host : "?") + ":" + (port && *port ? port : "?") + "/" + (db ? db : "?");
}

}  // namespace

std::string libpq_load_error(const char* soname) { return load(soname).error; }

bool is_locator(std::string_view locator) {
  return locator.starts_with("postgresql://") || locator.starts_with("postgres://");
}

std::string redact_locator(std::string locator) {
  const std::size_t scheme = locator.find("://");
  if (scheme == std::string::npos) return locator;
  const std::size_t start = scheme + 3;
  const std::size_t end = std::min(locator.find_first_of("/?", start), locator.size());
  const std::size_t at = locator.rfind('@', end - 1);
  if (at != std::string::npos && at >= start) {
    const std::size_t colon = locator.find(':', start);
    if (colon != std::string::npos && colon < at) locator.replace(colon + 1, at - colon - 1, "***");
  }
  for (std::size_t p = locator.find("password=", start); p != std::string::npos; p = locator.find("password=", p + 1)) {
    if (p == 0 || (locator[p - 1] != '?' && locator[p - 1] != '&')) continue;
    const std::size_t value = p + 9;
    const std::size_t stop = std::min(locator.find('&', value), locator.size());
    locator.replace(value, stop - value, "***");
  }
  return locator;
}

Rows& Rows::operator=(Rows&& o) noexcept {
  if (this != &o) {
    if (r_) lib().PQclear(r_);
    r_ = std::exchange(o.r_, nullptr);
  }
  return *this;
}

Rows::~Rows() {
  if (r_) lib().PQclear(r_);
}

int Rows::size() const { return r_ ? lib().PQntuples(r_) : 0; }

std::int64_t Rows::affected() const {
  if (!r_) return 0;
  const char* n = lib().PQcmdTuples(r_);
  return n && *n ? std::strtoll(n, nullptr, 10) : 0;
}

bool Rows::null_at(int row, int column) const { return !r_ || lib().PQgetisnull(r_, row, column) != 0; }

std::string Rows::text_at(int row, int column) const {
  if (null_at(row, column)) return {};
  return std::string(lib().PQgetvalue(r_, row, column), static_cast<std::size_t>(lib().PQgetlength(r_, row, column)));
}

std::int64_t Rows::int_at(int row, int column) const {
  if (null_at(row, column)) return 0;
  return std::strtoll(lib().PQgetvalue(r_, row, column), nullptr, 10);
}

bool Rows::bool_at(int row, int column) const { return text_at(row, column) == "t"; }

std::optional<std::vector<std::uint8_t>> Rows::bytes_at(int row, int column) const {
  if (null_at(row, column)) return std::nullopt;
  std::size_t n = 0;
  unsigned char* raw =
      lib().PQunescapeBytea(reinterpret_cast<const unsigned char*>(lib().PQgetvalue(r_, row, column)), &n);
  if (!raw) return std::nullopt;
  std::vector<std::uint8_t> out(raw, raw + n);
  lib().PQfreemem(raw);
  return out;
}

Conn& Conn::operator=(Conn&& o) noexcept {
  if (this != &o) {
    if (c_) lib().PQfinish(c_);
    c_ = std::exchange(o.c_, nullptr);
    password_ = std::move(o.password_);
  }
  return *this;
}

Conn::~Conn() {
  if (c_) lib().PQfinish(c_);
}

sr::Result<Conn, std::string> Conn::connect(const std::string& uri, std::int64_t max_wait_ms) {
  // Ours first: a value in the URI (expanded from dbname) comes later and wins.
  std::vector<const char*> keywords = {"connect_timeout", "application_name"};
  const std::string timeout_s =
      max_wait_ms > 0 ? std::to_string(std::max<std::int64_t>(2, (max_wait_ms + 999) / 1000)) : std::string("10");
  std::vector<const char*> values = {timeout_s.c_str(), "stackrace"};
  const std::string statement = "-c statement_timeout=" + std::to_string(max_wait_ms);
  const std::string tcp = std::to_string(max_wait_ms);
  if (max_wait_ms > 0) {
    keywords.insert(keywords.end(), {"options", "tcp_user_timeout"});
    values.insert(values.end(), {statement.c_str(), tcp.c_str()});
  }
  keywords.insert(keywords.end(), {"dbname", nullptr});
  values.insert(values.end(), {uri.c_str(), nullptr});
  if (const std::string& why = loaded().error; !why.empty()) {
    return sr::fail("cannot connect to the database at " + redact_locator(uri) + ": " + why);
  }
  Conn conn;
  conn.password_ = password_of(uri);
  if (const char* env = std::getenv("PGPASSWORD"); env && conn.password_.empty()) conn.password_ = env;
  conn.c_ = lib().PQconnectdbParams(keywords.data(), values.data(), 1);
  if (!conn.c_) return sr::fail(std::string("cannot connect to the database: out of memory"));
  lib().PQsetNoticeProcessor(conn.c_, &ignore_notice, nullptr);
  if (lib().PQstatus(conn.c_) != CONNECTION_OK) {
    return sr::fail("cannot connect to the database at " + conn.scrub(at(conn.c_)) + ": " + conn.error_message());
  }
  return conn;
}

std::string Conn::scrub(std::string message) const {
  if (password_.empty()) return message;
  for (std::size_t pos = message.find(password_); pos != std::string::npos; pos = message.find(password_, pos + 3)) {
    message.replace(pos, password_.size(), "***");
  }
  return message;
}

std::string Conn::error_message() const { return scrub(one_line(c_ ? lib().PQerrorMessage(c_) : "not connected")); }

std::string Conn::describe() const { return scrub(at(c_)); }

bool Conn::alive() const { return c_ && lib().PQstatus(c_) == CONNECTION_OK; }

sr::Status<std::string> Conn::reset() {
  if (!c_) return std::string("not connected");
  lib().PQreset(c_);
  if (lib().PQstatus(c_) != CONNECTION_OK) {
    return "cannot reconnect to the database at " + describe() + ": " + error_message();
  }
  return {};
}

sr::Status<std::string> Conn::exec(const char* sql) {
  if (!c_) return std::string("not connected");
  std::unique_ptr<pg_result, decltype(lib().PQclear)> r(lib().PQexec(c_, sql), lib().PQclear);
  const ExecStatusType st = r ? lib().PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return error_message();
  return {};
}

sr::Result<Rows, std::string> Conn::query(const char* sql, const std::vector<Param>& params) {
  if (!c_) return sr::fail(std::string("not connected"));
  std::vector<const char*> values;
  std::vector<int> lengths;
  std::vector<int> formats;
  for (const Param& p : params) {
    values.push_back(p.value ? p.value->data() : nullptr);
    lengths.push_back(p.value ? static_cast<int>(p.value->size()) : 0);
    formats.push_back(p.binary ? 1 : 0);
  }
  pg_result* r = lib().PQexecParams(c_, sql, static_cast<int>(params.size()), nullptr, values.data(), lengths.data(),
                                    formats.data(), 0);
  Rows rows(r);  // owns the result (and frees it) whatever its status
  const ExecStatusType st = r ? lib().PQresultStatus(r) : PGRES_FATAL_ERROR;
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) return sr::fail(error_message());
  return rows;
}

sr::Status<MigrateError> migrate(Conn& c, const Schema& schema) {
  const auto rollback = [&](const std::string& why) -> sr::Status<MigrateError> {
    (void)c.exec("ROLLBACK");
    return MigrateError{0, why};
  };
  const std::string table = schema.version_table;
  const auto current_version = static_cast<std::int64_t>(schema.migrations.size());
  // The lock is the transaction's: released at COMMIT or ROLLBACK, or when the connection dies.
  if (auto begun = c.exec("BEGIN"); !begun) return rollback(begun.error());
  if (auto locked = c.query("SELECT pg_advisory_xact_lock($1::bigint)", {schema.lock}); !locked.ok()) {
    return rollback(locked.error());
  }
  if (auto made = c.exec(("CREATE TABLE IF NOT EXISTS " + table + " (version INTEGER NOT NULL)").c_str()); !made) {
    return rollback(made.error());
  }
  auto current = c.query(("SELECT max(version) FROM " + table).c_str(), {});
  if (!current.ok()) return rollback(current.error());
  const std::int64_t version = current.value().int_at(0, 0);
  if (version > current_version) {
    (void)c.exec("ROLLBACK");
    return MigrateError{version, {}};
  }
  for (std::int64_t v = version; v < current_version; ++v) {
    if (auto migrated = c.exec(schema.migrations[static_cast<std::size_t>(v)]); !migrated) {
      return rollback("migration to version " + std::to_string(v + 1) + ": " + migrated.error());
    }
  }
  if (version < current_version) {
    if (auto del = c.exec(("DELETE FROM " + table).c_str()); !del) return rollback(del.error());
    if (auto set = c.query(("INSERT INTO " + table + " (version) VALUES ($1::integer)").c_str(), {current_version});
        !set.ok()) {
      return rollback(set.error());
    }
  }
  if (auto committed = c.exec("COMMIT"); !committed) return rollback(committed.error());
  return {};
}

}  // namespace sr::replay::pg
