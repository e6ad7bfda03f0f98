// A throwaway PostgreSQL database per test, on the server that pg_virtualenv started for the whole suite
// (tests/replays/store_backends/CMakeLists.txt). Without that server the tests fail, saying so: never a silent skip.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include "replays/store/pg_db.h"

namespace sr::replay::testing {

// Connects to the server's maintenance database (PGDATABASE, as pg_virtualenv sets it), or fails the test.
inline std::optional<pg::Conn> pg_admin() {
  if (std::getenv("PGHOST") == nullptr || std::getenv("PGPORT") == nullptr) {
    ADD_FAILURE() << "PGHOST/PGPORT are not set: the PostgreSQL tests need a server. Run them under pg_virtualenv "
                     "(ctest does: test StoreBackends.UnderPgVirtualenv), e.g. pg_virtualenv "
                  << "build/test/tests/replays/store_backends/store_backends_tests";
    return std::nullopt;
  }
  auto conn = pg::Conn::connect("postgresql://");
  if (!conn.ok()) {
    ADD_FAILURE() << conn.error();
    return std::nullopt;
  }
  return std::move(conn).value();
}

// Creates an empty database for one test and drops it (closing whatever is still connected) at the end.
class PgTestDb {
 public:
  PgTestDb() {
    static std::atomic<int> counter{0};
    // A database name cannot be a query parameter; this one is made of digits and letters only.
    name_ = "sr_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
    admin_ = pg_admin();
    if (!admin_) return;
    if (auto made = admin_->exec(("CREATE DATABASE " + name_ + " TEMPLATE template0 ENCODING 'UTF8'").c_str()); !made) {
      ADD_FAILURE() << "cannot create database " << name_ << ": " << made.error();
      admin_.reset();
    }
  }
  ~PgTestDb() {
    if (admin_) (void)admin_->exec(("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)").c_str());
  }
  PgTestDb(const PgTestDb&) = delete;
  PgTestDb& operator=(const PgTestDb&) = delete;

  [[nodiscard]] bool ready() const { return admin_.has_value(); }
  [[nodiscard]] const std::string& name() const { return name_; }
  // The store's locator: the rest (host, port, user, password) comes from pg_virtualenv's environment.
  [[nodiscard]] std::string locator() const { return "postgresql:///" + name_; }
  // A connection of the test's own to the database, to look at or spoil the tables by hand.
  [[nodiscard]] pg::Conn connect() const {
    auto c = pg::Conn::connect(locator());
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error());
    return c.ok() ? std::move(c).value() : pg::Conn{};
  }
  // The maintenance connection (pg_terminate_backend and the like).
  [[nodiscard]] pg::Conn& admin() { return *admin_; }

 private:
  std::string name_;
  std::optional<pg::Conn> admin_;
};

}  // namespace sr::replay::testing
