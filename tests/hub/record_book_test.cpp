// hub/records/record_book.h: ranking (one best per key, lower rank first, ties to the earlier run), the two lists,
// places, duplicates, reads by record and player, persistence across reopening, the trust list changing, and a book
// of a newer build refused. Built twice: on SQLite (hub_tests) and, with STACKRACE_BOOK_ON_POSTGRESQL, on a throwaway
// PostgreSQL database per test (hub_pg_tests, run under pg_virtualenv: stackrace-hub --database).
#include "hub/records/record_book.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "net/identity/key_id.h"
#include "net/identity/submission.h"
#include "replays/store/sqlite_db.h"
#ifdef STACKRACE_BOOK_ON_POSTGRESQL
#include "tests/replays/store_backends/pg_test_db.h"
#endif

namespace sr::hub::records {
namespace {

// A key of 64 hex digits made of one repeated digit: "1111...".
std::string key(char digit) { return std::string(64, digit); }

class RecordBookTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("stackrace-book-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    open();
  }
  void TearDown() override {
    book_.reset();
    std::filesystem::remove_all(dir_);
  }
  // Where the book is: the file, or the test's database.
  [[nodiscard]] std::filesystem::path where() const {
#ifdef STACKRACE_BOOK_ON_POSTGRESQL
    return db_.locator();
#else
    return dir_ / RecordBook::kFile;
#endif
  }
  void open(const TrustList& trust = {}) {
    book_.reset();
    auto b = RecordBook::open(where(), trust);
    ASSERT_TRUE(b) << b.error();
    book_.emplace(std::move(b).value());
  }

  // One submission of a sprint-40l (or `board`) run per (player key, time) given, from server key 'e'.
  AddResult add(const std::vector<std::pair<std::string, std::int64_t>>& runs, ListKind list = ListKind::kOther,
                const engine::GameConfig& config = engine::make_sprint(40)) {
    NewSubmission s;
    ++games_;
    s.replay_hash = std::string(60, '0') + std::to_string(1000 + games_);
    char id[17];
    std::snprintf(id, sizeof id, "%016x", games_);
    s.game_id = id;
    s.server_key = key('e');
    s.server_name = "Ada's server";
    s.server_web = "http://example.org/";
    s.sequence = static_cast<std::uint64_t>(games_);
    s.received_unix_ms = 1'000'000 + games_;
    s.source = "127.0.0.1";
    s.rules_version = 1;
    s.played_unix_ms = 900'000 + games_;
    std::uint32_t racer = 0;
    for (const auto& [player, time] : runs) {
      NewRun r;
      r.racer = racer++;
      r.board = board_of(config).value();
      r.rank_value = rank_value(r.board, time);
      r.list = list;
      r.player_key = player;
      r.player = "player " + player.substr(0, 1);
      char digest[65];
      std::snprintf(digest, sizeof digest, "%064x", games_ * 100 + r.racer);
      r.run_digest = digest;
      r.stats.time_us = time;
      r.stats.score = time;
      r.stats.lines = 40;
      r.stats.pieces = 100;
      s.runs.push_back(r);
    }
    auto added = book_->add(s);
    EXPECT_TRUE(added) << added.error();
    return added ? added.value() : AddResult{};
  }

  std::vector<std::string> order(const std::string& board = "sprint-40l", ListKind list = ListKind::kOther) {
    auto page = book_->board(board, list, 0, 100);
    EXPECT_TRUE(page && page.value());
    std::vector<std::string> out;
    if (!page || !page.value()) return out;
    for (const Entry& e : page.value()->entries) {
      out.push_back(e.key.substr(0, 1) + "@" + std::to_string(e.time_us) + "#" + std::to_string(e.place));
    }
    return out;
  }

  std::filesystem::path dir_;
#ifdef STACKRACE_BOOK_ON_POSTGRESQL
  replay::testing::PgTestDb db_;
#endif
  std::optional<RecordBook> book_;
  unsigned games_ = 0;
};

TEST_F(RecordBookTest, OneBestPerKeyLowerTimeFirst) {
  AddResult first = add({{key('1'), 42'000'000}, {key('2'), 41'000'000}});
  ASSERT_EQ(first.stored.size(), 2u);
  EXPECT_EQ(first.stored[0].record, "0000000000000001-0");
  EXPECT_EQ(first.stored[0].place, 2);  // placed once the whole submission is in: after the other racer
  EXPECT_TRUE(first.stored[0].best);
  EXPECT_EQ(first.stored[1].place, 1);
  EXPECT_EQ(order(), (std::vector<std::string>{"2@41000000#1", "1@42000000#2"}));

  AddResult better = add({{key('1'), 40'000'000}});
  ASSERT_EQ(better.stored.size(), 1u);
  EXPECT_TRUE(better.stored[0].best);
  EXPECT_EQ(better.stored[0].place, 1);
  EXPECT_EQ(order(), (std::vector<std::string>{"1@40000000#1", "2@41000000#2"}));

  AddResult worse = add({{key('1'), 45'000'000}, {key('3'), 43'000'000}});
  ASSERT_EQ(worse.stored.size(), 2u);
  EXPECT_FALSE(worse.stored[0].best);
  EXPECT_EQ(worse.stored[0].place, 3) << "after 2 at 41 s and 3 at 43 s (stored after it, in the same submission)";
  EXPECT_TRUE(worse.stored[1].best);
  EXPECT_EQ(worse.stored[1].place, 3);
  EXPECT_EQ(order(), (std::vector<std::string>{"1@40000000#1", "2@41000000#2", "3@43000000#3"}));

  auto page = book_->board("sprint-40l", ListKind::kOther, 1, 1);
  ASSERT_TRUE(page && page.value());
  EXPECT_EQ(page.value()->total, 3);
  ASSERT_EQ(page.value()->entries.size(), 1u);
  EXPECT_EQ(page.value()->entries[0].key, key('2'));
  EXPECT_EQ(page.value()->entries[0].place, 2);
}

TEST_F(RecordBookTest, TiesGoToTheEarlierRun) {
  add({{key('1'), 41'000'000}});
  AddResult tie = add({{key('2'), 41'000'000}});
  EXPECT_EQ(tie.stored.at(0).place, 2);
  EXPECT_EQ(order(), (std::vector<std::string>{"1@41000000#1", "2@41000000#2"}));
  AddResult same = add({{key('1'), 41'000'000}, {key('3'), 40'000'000}});
  EXPECT_FALSE(same.stored.at(0).best) << "an equal time does not replace the earlier best";
  EXPECT_EQ(order(), (std::vector<std::string>{"3@40000000#1", "1@41000000#2", "2@41000000#3"}));
}

TEST_F(RecordBookTest, ScoreBoardsRankHigherFirst) {
  add({{key('1'), 5000}, {key('2'), 9000}}, ListKind::kOther, engine::make_ultra(120));
  auto page = book_->board("ultra-120s", ListKind::kOther, 0, 10);
  ASSERT_TRUE(page && page.value());
  ASSERT_EQ(page.value()->entries.size(), 2u);
  EXPECT_EQ(page.value()->entries[0].score, 9000);
  EXPECT_EQ(page.value()->entries[1].score, 5000);
  auto place = book_->place("ultra-120s", ListKind::kOther, -7000);
  ASSERT_TRUE(place && place.value());
  EXPECT_EQ(place.value()->place, 2);
  EXPECT_EQ(place.value()->of, 2);
}

TEST_F(RecordBookTest, TrustedAndOtherAreSeparateLists) {
  add({{key('1'), 42'000'000}}, ListKind::kTrusted);
  add({{key('1'), 40'000'000}, {key('2'), 39'000'000}}, ListKind::kOther);
  EXPECT_EQ(order("sprint-40l", ListKind::kTrusted), (std::vector<std::string>{"1@42000000#1"}));
  EXPECT_EQ(order("sprint-40l", ListKind::kOther), (std::vector<std::string>{"2@39000000#1", "1@40000000#2"}));
  auto boards = book_->boards();
  ASSERT_TRUE(boards);
  ASSERT_EQ(boards.value().size(), 1u);
  EXPECT_EQ(boards.value()[0].board.id, "sprint-40l");
  EXPECT_EQ(boards.value()[0].trusted, 1);
  EXPECT_EQ(boards.value()[0].other, 2);
}

TEST_F(RecordBookTest, PlacesOfResults) {
  add({{key('1'), 40'000'000}, {key('2'), 42'000'000}, {key('3'), 44'000'000}});
  const auto place = [&](std::int64_t t) {
    auto p = book_->place("sprint-40l", ListKind::kOther, t);
    EXPECT_TRUE(p && p.value());
    return p && p.value() ? p.value()->place : -1;
  };
  EXPECT_EQ(place(39'999'999), 1);
  EXPECT_EQ(place(40'000'000), 2) << "a tie places after the result already there";
  EXPECT_EQ(place(43'000'000), 3);
  EXPECT_EQ(place(50'000'000), 4);
  auto none = book_->place("sprint-20l", ListKind::kOther, 1);
  ASSERT_TRUE(none);
  EXPECT_FALSE(none.value());
  auto trusted = book_->place("sprint-40l", ListKind::kTrusted, 1);
  ASSERT_TRUE(trusted && trusted.value());
  EXPECT_EQ(trusted.value()->place, 1);
  EXPECT_EQ(trusted.value()->of, 0);
}

TEST_F(RecordBookTest, DuplicateReplaysAndRunsAreNotStoredTwice) {
  NewSubmission s;
  s.replay_hash = std::string(64, 'f');
  s.game_id = "00000000000000ff";
  s.server_key = key('e');
  s.server_name = "srv";
  NewRun r;
  r.board = board_of(engine::make_sprint(40)).value();
  r.rank_value = 40'000'000;
  r.player_key = key('1');
  r.player = "ada";
  r.run_digest = std::string(64, 'd');
  r.stats.time_us = 40'000'000;
  s.runs = {r};
  auto first = book_->add(s);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first.value().stored.size(), 1u);
  auto again = book_->add(s);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again.value().duplicate);
  EXPECT_EQ(again.value().game_id, "00000000000000ff");
  auto held = book_->find_replay(std::string(64, 'f'));
  ASSERT_TRUE(held && held.value());
  EXPECT_EQ(*held.value(), "00000000000000ff");

  s.replay_hash = std::string(64, 'a');  // another replay holding the same run
  s.game_id = "00000000000000fe";
  auto same_run = book_->add(s);
  ASSERT_TRUE(same_run);
  EXPECT_FALSE(same_run.value().duplicate);
  EXPECT_TRUE(same_run.value().stored.empty());
  ASSERT_EQ(same_run.value().duplicate_runs.size(), 1u);
  EXPECT_EQ(same_run.value().duplicate_runs[0].second, "00000000000000ff-0");
  auto not_held = book_->find_replay(std::string(64, 'a'));
  ASSERT_TRUE(not_held);
  EXPECT_FALSE(not_held.value()) << "a submission with no run left is not stored";
}

TEST_F(RecordBookTest, RunsAndPlayersReadBack) {
  add({{key('1'), 42'000'000}, {key('2'), 41'000'000}});
  add({{key('1'), 40'000'000}});
  auto best = book_->run("0000000000000002-0");
  ASSERT_TRUE(best && best.value());
  const Entry& b = *best.value();
  EXPECT_TRUE(b.best);
  EXPECT_EQ(b.place, 1);
  EXPECT_EQ(b.best_record, "0000000000000002-0");
  EXPECT_EQ(b.board.id, "sprint-40l");
  EXPECT_EQ(b.board.goal, engine::GoalKind::kTime);
  EXPECT_FALSE(b.board.custom);
  EXPECT_EQ(b.player, "player 1");
  EXPECT_EQ(b.key, key('1'));
  EXPECT_EQ(b.key_id, net::short_key_id(*net::from_hex<32>(key('1'))));
  EXPECT_EQ(b.server_name, "Ada's server");
  EXPECT_EQ(b.server_key, key('e'));
  EXPECT_EQ(b.server_key_id.size(), 8u);
  EXPECT_EQ(b.played_unix_ms, 900'002);
  EXPECT_EQ(b.submitted_unix_ms, 1'000'002);
  EXPECT_EQ(b.game_id, "0000000000000002");
  EXPECT_EQ(b.time_us, 40'000'000);
  EXPECT_EQ(b.lines, 40);
  EXPECT_EQ(b.pieces, 100);

  auto old = book_->run("0000000000000001-0");
  ASSERT_TRUE(old && old.value());
  EXPECT_FALSE(old.value()->best);
  EXPECT_EQ(old.value()->place, 0);
  EXPECT_EQ(old.value()->best_record, "0000000000000002-0");
  auto none = book_->run("0000000000000009-0");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none.value());

  auto p = book_->player(key('1'));
  ASSERT_TRUE(p && p.value());
  EXPECT_EQ(p.value()->names, std::vector<std::string>{"player 1"});
  ASSERT_EQ(p.value()->records.size(), 1u);
  EXPECT_EQ(p.value()->records[0].record, "0000000000000002-0");
  EXPECT_EQ(p.value()->records[0].place, 1);
  auto two = book_->player(key('2'));
  ASSERT_TRUE(two && two.value());
  EXPECT_EQ(two.value()->records.at(0).place, 2);
  auto keys = book_->keys_with_id(b.key_id);
  ASSERT_TRUE(keys);
  EXPECT_EQ(keys.value(), std::vector<std::string>{key('1')});
  auto nobody = book_->player(key('9'));
  ASSERT_TRUE(nobody);
  EXPECT_FALSE(nobody.value());
}

TEST_F(RecordBookTest, EverythingIsThereAfterReopening) {
  add({{key('1'), 42'000'000}, {key('2'), 41'000'000}});
  open();
  EXPECT_EQ(order(), (std::vector<std::string>{"2@41000000#1", "1@42000000#2"}));
  add({{key('3'), 40'000'000}});
  EXPECT_EQ(order(), (std::vector<std::string>{"3@40000000#1", "2@41000000#2", "1@42000000#3"}));
  auto servers = book_->server_count();
  ASSERT_TRUE(servers);
  EXPECT_EQ(servers.value(), 1);
}

TEST_F(RecordBookTest, ANewTrustListMovesTheRunsItConcerns) {
  add({{key('1'), 42'000'000}, {key('2'), 41'000'000}}, ListKind::kOther);
  TrustList trust;
  ASSERT_TRUE(trust.add(key('e'), "Ada"));
  open(trust);
  EXPECT_EQ(order("sprint-40l", ListKind::kTrusted), (std::vector<std::string>{"2@41000000#1", "1@42000000#2"}));
  auto other = book_->board("sprint-40l", ListKind::kOther, 0, 10);
  ASSERT_TRUE(other && other.value());
  EXPECT_EQ(other.value()->total, 0);
  open();  // trust withdrawn
  EXPECT_EQ(order("sprint-40l", ListKind::kOther), (std::vector<std::string>{"2@41000000#1", "1@42000000#2"}));
}

TEST_F(RecordBookTest, ABookOfANewerBuildIsRefused) {
  book_.reset();
#ifdef STACKRACE_BOOK_ON_POSTGRESQL
  replay::pg::Conn c = db_.connect();
  ASSERT_TRUE(c.exec("UPDATE records_book_version SET version = 2"));
  const std::string shown = "postgresql://" + c.describe();
#else
  {
    replay::sqlite::Db db;
    ASSERT_TRUE(db.open(dir_ / RecordBook::kFile));
    ASSERT_TRUE(db.exec("PRAGMA user_version = 2"));
  }
  const std::string shown = (dir_ / RecordBook::kFile).string();
#endif
  auto b = RecordBook::open(where(), {});
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error(), "cannot open " + shown +
                           ": the record book is version 2, this build knows up to 1: use a newer stackrace-hub");
}

#ifdef STACKRACE_BOOK_ON_POSTGRESQL
// The database dropped the book's connection (a restart, a failover): the request that finds out fails with the
// database's reason (the hub answers it 503, and the server sends it again), and the next one is served on a new
// connection, with nothing lost.
TEST_F(RecordBookTest, ADroppedConnectionFailsOneRequestAndTheNextReconnects) {
  add({{key('1'), 42'000'000}});
  ASSERT_TRUE(db_.admin()
                  .query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> "
                         "pg_backend_pid()",
                         {db_.name()})
                  .ok());
  const auto first = book_->board("sprint-40l", ListKind::kOther, 0, 10);
  const auto again = first ? first : book_->board("sprint-40l", ListKind::kOther, 0, 10);
  ASSERT_TRUE(again) << again.error();
  ASSERT_TRUE(again.value());
  EXPECT_EQ(again.value()->total, 1);
  EXPECT_EQ(add({{key('2'), 41'000'000}}).stored.size(), 1u);
  EXPECT_EQ(order("sprint-40l", ListKind::kOther), (std::vector<std::string>{"2@41000000#1", "1@42000000#2"}));
}
#endif

}  // namespace
}  // namespace sr::hub::records
