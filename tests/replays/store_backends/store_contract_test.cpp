// One suite, two backends: every test here runs on a folder store (files + SQLite) and on a PostgreSQL store, so
// the two cannot drift apart (same StoredGame, StoredResult and BestResult values, same order, same filters).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/replay/codec.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
#include "tests/replays/store_backends/pg_test_db.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

struct FolderBackend {
  explicit FolderBackend(const std::string& tag = "")
      : dir(std::filesystem::temp_directory_path() /
            ("sr_store_contract_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + tag)) {
    std::filesystem::remove_all(dir);
  }
  ~FolderBackend() { std::filesystem::remove_all(dir); }
  [[nodiscard]] bool ready() const { return true; }
  [[nodiscard]] std::string locator() const { return dir.string(); }
  std::filesystem::path dir;
};

struct PgBackend {
  [[nodiscard]] bool ready() const { return db.ready(); }
  [[nodiscard]] std::string locator() const { return db.locator(); }
  testing::PgTestDb db;
};

RacerKey key_counting_from(std::uint8_t first) {
  RacerKey k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(first + i);
  return k;
}

Replay golden(const char* file) {
  Result<Replay> r = load_replay_file(testing::data_dir() / file);
  EXPECT_TRUE(r.ok()) << file;
  return r.ok() ? r.value() : Replay{};
}

// Everything but the file's path (a folder's own).
void expect_same(const std::vector<StoredGame>& a, const std::vector<StoredGame>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].id, b[i].id);
    EXPECT_EQ(a[i].created_unix_ms, b[i].created_unix_ms);
    EXPECT_EQ(a[i].place, b[i].place);
    EXPECT_EQ(a[i].mode, b[i].mode);
    EXPECT_EQ(a[i].limit, b[i].limit);
    EXPECT_EQ(a[i].limit_value, b[i].limit_value);
    EXPECT_EQ(a[i].goal, b[i].goal);
    EXPECT_EQ(a[i].rules_version, b[i].rules_version);
    EXPECT_EQ(a[i].verified, b[i].verified);
    EXPECT_EQ(a[i].verify_note, b[i].verify_note);
    ASSERT_EQ(a[i].results.size(), b[i].results.size()) << a[i].id;
    for (std::size_t r = 0; r < a[i].results.size(); ++r) {
      const StoredResult& x = a[i].results[r];
      const StoredResult& y = b[i].results[r];
      EXPECT_EQ(x.racer, y.racer);
      EXPECT_EQ(x.player, y.player);
      EXPECT_EQ(x.status, y.status);
      EXPECT_EQ(x.top_out, y.top_out);
      EXPECT_EQ(x.time_us, y.time_us);
      EXPECT_EQ(x.lines, y.lines);
      EXPECT_EQ(x.score, y.score);
      EXPECT_EQ(x.pieces, y.pieces);
      EXPECT_EQ(x.key_id, y.key_id);
      EXPECT_EQ(x.name_shared, y.name_shared);
    }
  }
}

void expect_same(const std::vector<BestResult>& a, const std::vector<BestResult>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].mode, b[i].mode);
    EXPECT_EQ(a[i].limit, b[i].limit);
    EXPECT_EQ(a[i].limit_value, b[i].limit_value);
    EXPECT_EQ(a[i].goal, b[i].goal);
    EXPECT_EQ(a[i].player, b[i].player);
    EXPECT_EQ(a[i].game_id, b[i].game_id);
    EXPECT_EQ(a[i].created_unix_ms, b[i].created_unix_ms);
    EXPECT_EQ(a[i].time_us, b[i].time_us);
    EXPECT_EQ(a[i].score, b[i].score);
    EXPECT_EQ(a[i].lines, b[i].lines);
    EXPECT_EQ(a[i].key_id, b[i].key_id);
    EXPECT_EQ(a[i].name_shared, b[i].name_shared);
  }
}

template <class Backend>
class StoreContract : public ::testing::Test {
 protected:
  ReplayStore open() {
    EXPECT_TRUE(backend_.ready());
    Result<ReplayStore> store = ReplayStore::open(backend_.locator(), true);
    EXPECT_TRUE(store.ok()) << (store.ok() ? "" : store.error().describe());
    if (!store.ok()) std::abort();  // nothing below can run; the message above says why
    return std::move(store).value();
  }
  Backend backend_;
};

struct BackendNames {
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, FolderBackend> ? "Folder" : "PostgreSql";
  }
};

using Backends = ::testing::Types<FolderBackend, PgBackend>;
TYPED_TEST_SUITE(StoreContract, Backends, BackendNames);

TYPED_TEST(StoreContract, AddStoresAReplayOnceAndLoadsItsBytes) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  const Replay sprint = golden("mode_sprint.srr");
  Result<std::string> id = store.add(sprint);
  ASSERT_TRUE(id.ok()) << id.error().describe();
  EXPECT_EQ(id.value(), content_id(encode_binary(sprint)));
  EXPECT_EQ(store.add(sprint).value(), id.value());
  const std::vector<StoredGame> games = store.recent({}).value();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].id, id.value());
  EXPECT_TRUE(games[0].verified);
  ASSERT_EQ(games[0].results.size(), 1u);
  EXPECT_EQ(games[0].results[0].player, "sprinter");
  Result<std::vector<std::uint8_t>> bytes = store.load(id.value());
  ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
  EXPECT_EQ(decode_binary(bytes.value()).value(), sprint);
  EXPECT_FALSE(store.load("0123456789abcdef").ok());
  // Opened again (a restart): the same game.
  ReplayStore again = this->open();
  EXPECT_EQ(again.recent({}).value().size(), 1u);
}

// A caller that has just verified the replay (the records hub) hands the store its verdict: the store indexes that
// verdict, note and all, and does not re-simulate (so an edited verdict shows: this one says the game failed).
TYPED_TEST(StoreContract, AddIndexesTheVerdictItIsGiven) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  const Replay sprint = golden("mode_sprint.srr");
  VerifyReport given = verify(sprint);
  ASSERT_EQ(given.verdict, Verdict::kVerified);
  given.verdict = Verdict::kMismatch;
  given.message = "the caller's verdict";
  ASSERT_TRUE(store.add(sprint, &given).ok());
  const std::vector<StoredGame> games = store.recent({}).value();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].verified);
  EXPECT_EQ(games[0].verify_note, "the caller's verdict");
  EXPECT_TRUE(store.best({}).value().empty()) << "an unverified game counts for no best";
}

TYPED_TEST(StoreContract, PagesStartAfterTheGameNamed) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  for (const char* f :
       {"mode_sprint.srr", "race_sprint.srr", "mode_ultra.srr", "mode_contest.srr", "tspin.srr", "mode_marathon.srr"}) {
    ASSERT_TRUE(store.add(golden(f)).ok()) << f;
  }
  const std::vector<StoredGame> all = store.recent({}).value();
  ASSERT_EQ(all.size(), 6u);
  for (std::size_t i = 1; i < all.size(); ++i) {
    EXPECT_TRUE(all[i - 1].created_unix_ms > all[i].created_unix_ms ||
                (all[i - 1].created_unix_ms == all[i].created_unix_ms && all[i - 1].id < all[i].id));
  }
  StoreQuery page;
  page.limit = 2;
  page.after_id = all[1].id;
  const std::vector<StoredGame> next = store.recent(page).value();
  ASSERT_EQ(next.size(), 2u);
  EXPECT_EQ(next[0].id, all[2].id);
  EXPECT_EQ(next[1].id, all[3].id);
  page.after_id = all[5].id;
  EXPECT_TRUE(store.recent(page).value().empty());
  page.after_id = "0123456789abcdef";
  EXPECT_TRUE(store.recent(page).value().empty());
}

TYPED_TEST(StoreContract, QueriesByModeAndPlayerAndBest) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  for (const char* f : {"mode_sprint.srr", "race_sprint.srr", "mode_ultra.srr", "mode_contest.srr"}) {
    ASSERT_TRUE(store.add(golden(f)).ok());
  }
  StoreQuery only_sprints;
  only_sprints.mode = engine::ModeKind::kSprint;
  EXPECT_EQ(store.recent(only_sprints).value().size(), 2u);
  StoreQuery only_ada;
  only_ada.player = "ada";
  const std::vector<StoredGame> ada = store.recent(only_ada).value();
  ASSERT_EQ(ada.size(), 1u);
  EXPECT_EQ(ada[0].results.size(), 3u);
  const engine::TimeUs fastest = std::min(golden("race_sprint.srr").racers[0].result.stats.time_us,
                                          golden("mode_sprint.srr").racers[0].result.stats.time_us);
  bool saw_sprint = false;
  const std::vector<BestResult> best = store.best({}).value();
  for (const BestResult& b : best) {
    if (b.mode != engine::ModeKind::kSprint) continue;
    saw_sprint = true;
    EXPECT_EQ(b.time_us, fastest);
  }
  EXPECT_TRUE(saw_sprint);
  StoreQuery only_sprinter;
  only_sprinter.player = "sprinter";
  const std::vector<BestResult> mine = store.best(only_sprinter).value();
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].player, "sprinter");
}

TYPED_TEST(StoreContract, ATopOutIsABestOnlyWhereTheGameHasNoTimeLimit) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  const Replay ultra = testing::topped_out_game(engine::make_ultra(120), "clumsy");
  const Replay marathon = testing::topped_out_game(engine::make_marathon(), "clumsy");
  ASSERT_TRUE(store.add(ultra).ok());
  ASSERT_TRUE(store.add(marathon).ok());
  const std::vector<BestResult> best = store.best({}).value();
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].mode, engine::ModeKind::kMarathon);
  EXPECT_EQ(best[0].score, marathon.racers[0].result.stats.score);
}

TYPED_TEST(StoreContract, UnverifiedReplaysAreListedButNeverBest) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  Replay fake = golden("mode_sprint.srr");
  fake.racers[0].result.stats.time_us -= 5'000'000;  // claims a finish five seconds faster
  ASSERT_TRUE(store.add(fake).ok());
  const std::vector<StoredGame> games = store.recent({}).value();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].verified);
  EXPECT_FALSE(games[0].verify_note.empty());
  EXPECT_TRUE(store.best({}).value().empty());
  StoreQuery verified;
  verified.verified = true;
  EXPECT_TRUE(store.recent(verified).value().empty());
  verified.verified = false;
  EXPECT_EQ(store.recent(verified).value().size(), 1u);
}

// Two players raced as "sprinter" with different keys: their rows say which key, and only then is the key shown
// beside the name. A row without a key is never "shared".
TYPED_TEST(StoreContract, ResultsCarryTheKeysShortIdAndShowItWhereTwoKeysSharedAName) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  Replay first = golden("mode_sprint.srr");
  first.racers[0].key = key_counting_from(0);  // short id cb2f5160
  first.created_unix_ms = 1'000;
  Replay keyless = golden("mode_sprint.srr");
  keyless.created_unix_ms = 2'000;
  ASSERT_TRUE(store.add(first).ok());
  ASSERT_TRUE(store.add(keyless).ok());
  std::vector<StoredGame> games = store.recent({}).value();
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].results[0].key_id, "");
  EXPECT_EQ(games[1].results[0].key_id, "cb2f5160");
  for (const StoredGame& g : games) EXPECT_EQ(shown_name(g.results[0]), "sprinter");
  Replay other = golden("mode_sprint.srr");
  other.racers[0].key = key_counting_from(100);  // short id bdf247bd
  other.created_unix_ms = 3'000;
  ASSERT_TRUE(store.add(other).ok());
  games = store.recent({}).value();
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(shown_name(games[0].results[0]), "sprinter #bdf247bd");
  EXPECT_EQ(shown_name(games[1].results[0]), "sprinter");
  EXPECT_EQ(shown_name(games[2].results[0]), "sprinter #cb2f5160");
  const std::vector<BestResult> best = store.best({}).value();
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].created_unix_ms, 1'000);
  EXPECT_EQ(shown_name(best[0]), "sprinter #cb2f5160");
}

// Both stores, filled alike, answer every query alike: the guard against one backend's SQL drifting from the other's.
TYPED_TEST(StoreContract, AnswersEveryQueryAsTheFolderStoreDoes) {
  ASSERT_TRUE(this->backend_.ready());
  ReplayStore store = this->open();
  const FolderBackend reference_dir("_reference");
  Result<ReplayStore> reference = ReplayStore::open(reference_dir.dir, true);
  ASSERT_TRUE(reference.ok());
  std::vector<Replay> replays;
  for (const auto& f : testing::golden_files()) replays.push_back(load_replay_file(f).value());
  replays.push_back(testing::topped_out_game(engine::make_marathon(), "clumsy"));
  replays.push_back(testing::topped_out_game(engine::make_ultra(120), "clumsy"));
  Replay fake = golden("mode_sprint.srr");
  fake.racers[0].result.stats.time_us -= 5'000'000;
  replays.push_back(fake);
  // Keys: two under "sprinter" (shown with their short ids), one alone.
  for (std::uint8_t k : {0, 100}) {
    Replay keyed = golden("mode_sprint.srr");
    keyed.racers[0].key = key_counting_from(k);
    keyed.created_unix_ms += k + 1;
    replays.push_back(keyed);
  }
  Replay race = golden("race_sprint.srr");
  race.racers[1].key = key_counting_from(50);
  replays.push_back(race);
  for (const Replay& r : replays) {
    ASSERT_EQ(store.add(r).value(), reference.value().add(r).value());
  }
  std::vector<StoreQuery> queries(1);
  queries.emplace_back().limit = 3;
  queries.emplace_back().mode = engine::ModeKind::kSprint;
  queries.emplace_back().player = "clumsy";
  queries.emplace_back().player = "sprinter";
  queries.emplace_back().status = ResultStatus::kToppedOut;
  queries.emplace_back().verified = false;
  queries.emplace_back().since_unix_ms = 1;
  queries.emplace_back().until_unix_ms = 1;
  const std::vector<StoredGame> all = reference.value().recent({}).value();
  ASSERT_GE(all.size(), 10u);
  queries.emplace_back().after_id = all[4].id;
  queries.emplace_back().id = all[2].id;
  StoreQuery window;
  window.since_unix_ms = all[6].created_unix_ms;
  window.until_unix_ms = all[1].created_unix_ms;
  window.status = ResultStatus::kFinished;
  queries.push_back(window);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    SCOPED_TRACE("query " + std::to_string(i));
    expect_same(store.recent(queries[i]).value(), reference.value().recent(queries[i]).value());
    expect_same(store.best(queries[i]).value(), reference.value().best(queries[i]).value());
  }
}

}  // namespace
}  // namespace sr::replay
