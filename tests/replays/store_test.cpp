#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <set>

#include "common/replay/codec.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
#include "replays/store/sqlite_db.h"
#include "tests/replays/test_support.h"
#include "tests/support/status.h"

namespace sr::replay {
namespace {

class ReplayStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("sr_store_test_" + std::to_string(::getpid()) + "_" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Replay golden(const char* file) {
    Result<Replay> r = load_replay_file(testing::data_dir() / file);
    EXPECT_TRUE(r.ok());
    return r.ok() ? r.value() : Replay{};
  }

  std::filesystem::path dir_;
};

TEST_F(ReplayStoreTest, AddWritesTheFileAndIndexesIt) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok()) << store.error().describe();
  const Replay sprint = golden("mode_sprint.srr");
  Result<std::string> id = store.value().add(sprint);
  ASSERT_TRUE(id.ok()) << id.error().describe();
  EXPECT_EQ(id.value().size(), 16u);
  Result<Replay> back = load_replay_file(dir_ / (id.value() + ".srr"));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), sprint);
  // Same replay again: same id, still one game.
  EXPECT_EQ(store.value().add(sprint).value(), id.value());
  Result<std::vector<StoredGame>> games = store.value().recent({});
  ASSERT_TRUE(games.ok());
  ASSERT_EQ(games.value().size(), 1u);
  const StoredGame& g = games.value()[0];
  EXPECT_EQ(g.id, id.value());
  EXPECT_TRUE(g.verified);
  EXPECT_EQ(g.mode, engine::ModeKind::kSprint);
  ASSERT_EQ(g.results.size(), 1u);
  EXPECT_EQ(g.results[0].player, "sprinter");
  EXPECT_EQ(g.results[0].time_us, sprint.racers[0].result.stats.time_us);
  // No temporary files left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  }
}

// Paging by the last game seen: the store finds its place, so a deep page costs no more than the first.
TEST_F(ReplayStoreTest, PagesStartAfterTheGameNamed) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok());
  for (const char* f :
       {"mode_sprint.srr", "race_sprint.srr", "mode_ultra.srr", "mode_contest.srr", "tspin.srr", "mode_marathon.srr"}) {
    ASSERT_TRUE(store.value().add(golden(f)).ok()) << f;
  }
  const std::vector<StoredGame> all = store.value().recent({}).value();
  ASSERT_EQ(all.size(), 6u);
  StoreQuery page;
  page.limit = 2;
  page.after_id = all[1].id;
  const std::vector<StoredGame> next = store.value().recent(page).value();
  ASSERT_EQ(next.size(), 2u);
  EXPECT_EQ(next[0].id, all[2].id);
  EXPECT_EQ(next[1].id, all[3].id);
  page.after_id = all[5].id;
  EXPECT_TRUE(store.value().recent(page).value().empty());
  page.after_id = "0123456789abcdef";  // no such game: nothing, rather than the first page again
  EXPECT_TRUE(store.value().recent(page).value().empty());
}

TEST_F(ReplayStoreTest, QueriesByModeAndPlayerAndBest) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok());
  for (const char* f : {"mode_sprint.srr", "race_sprint.srr", "mode_ultra.srr", "mode_contest.srr"}) {
    ASSERT_TRUE(store.value().add(golden(f)).ok());
  }
  StoreQuery only_sprints;
  only_sprints.mode = engine::ModeKind::kSprint;
  Result<std::vector<StoredGame>> sprints = store.value().recent(only_sprints);
  ASSERT_TRUE(sprints.ok());
  EXPECT_EQ(sprints.value().size(), 2u);
  StoreQuery only_ada;
  only_ada.player = "ada";
  Result<std::vector<StoredGame>> ada = store.value().recent(only_ada);
  ASSERT_TRUE(ada.ok());
  ASSERT_EQ(ada.value().size(), 1u);
  EXPECT_EQ(ada.value()[0].results.size(), 3u);

  Result<std::vector<BestResult>> best = store.value().best({});
  ASSERT_TRUE(best.ok());
  const Replay race = golden("race_sprint.srr");
  const Replay solo = golden("mode_sprint.srr");
  const engine::TimeUs fastest = std::min(race.racers[0].result.stats.time_us, solo.racers[0].result.stats.time_us);
  bool saw_sprint = false, saw_ultra = false;
  for (const BestResult& b : best.value()) {
    if (b.mode == engine::ModeKind::kSprint) {
      saw_sprint = true;
      EXPECT_EQ(b.time_us, fastest);
    }
    if (b.mode == engine::ModeKind::kUltra) {
      saw_ultra = true;
      EXPECT_EQ(b.score, golden("mode_ultra.srr").racers[0].result.stats.score);
    }
  }
  EXPECT_TRUE(saw_sprint);
  EXPECT_TRUE(saw_ultra);

  StoreQuery only_sprinter;
  only_sprinter.player = "sprinter";
  Result<std::vector<BestResult>> mine = store.value().best(only_sprinter);
  ASSERT_TRUE(mine.ok());
  ASSERT_EQ(mine.value().size(), 1u);
  EXPECT_EQ(mine.value()[0].player, "sprinter");
}

// A top-out ends a marathon (its score counts) but loses an ultra (it does not: the time was not played out).
TEST_F(ReplayStoreTest, ATopOutIsABestOnlyWhereTheGameHasNoTimeLimit) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok());
  const Replay ultra = testing::topped_out_game(engine::make_ultra(120), "clumsy");
  const Replay marathon = testing::topped_out_game(engine::make_marathon(), "clumsy");
  for (const Replay* r : {&ultra, &marathon}) {
    ASSERT_EQ(r->racers[0].result.status, ResultStatus::kToppedOut);
    ASSERT_GT(r->racers[0].result.stats.score, 0);
    ASSERT_TRUE(store.value().add(*r).ok());
  }
  const std::vector<BestResult> best = store.value().best({}).value();
  ASSERT_EQ(best.size(), 1u);
  EXPECT_EQ(best[0].mode, engine::ModeKind::kMarathon);
  EXPECT_EQ(best[0].score, marathon.racers[0].result.stats.score);
}

TEST_F(ReplayStoreTest, ReindexRebuildsTheIndexFromTheFiles) {
  std::filesystem::create_directories(dir_);
  for (const char* f : {"mode_sprint.srr", "tspin.srr"}) {
    std::filesystem::copy_file(testing::data_dir() / f, dir_ / f);
  }
  const std::vector<std::uint8_t> junk = {'j', 'u', 'n', 'k'};
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(dir_ / "broken.srr", junk)), std::nullopt);
  Result<ReplayStore> store = ReplayStore::open(dir_);
  ASSERT_TRUE(store.ok());
  Result<ReindexReport> report = store.value().reindex();
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report.value().indexed, 2u);
  EXPECT_EQ(report.value().verified, 2u);
  ASSERT_EQ(report.value().unreadable.size(), 1u);
  EXPECT_EQ(report.value().unreadable[0].rfind("broken.srr: ", 0), 0u);
  // Deleting the index loses nothing.
  std::filesystem::remove(dir_ / ReplayStore::kIndexFile);
  Result<ReplayStore> again = ReplayStore::open(dir_);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again.value().recent({}).value().empty());
  ASSERT_TRUE(again.value().reindex().ok());
  Result<std::vector<StoredGame>> games = again.value().recent({});
  ASSERT_EQ(games.value().size(), 2u);
  EXPECT_EQ(games.value()[0].id == "mode_sprint" || games.value()[1].id == "mode_sprint", true);
}

RacerKey key_counting_from(std::uint8_t first) {
  RacerKey k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(first + i);
  return k;
}

// Two players raced as "sprinter" with different keys: their rows say which key, and only then is the key shown
// beside the name. A row without a key (a game recorded before keys) is never "shared".
TEST_F(ReplayStoreTest, ResultsCarryTheKeysShortIdAndShowItWhereTwoKeysSharedAName) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok()) << store.error().describe();
  Replay first = golden("mode_sprint.srr");
  first.racers[0].key = key_counting_from(0);  // short id cb2f5160: BLAKE2b-256 of bytes 0..31, first 4 bytes
  first.created_unix_ms = 1'000;
  Replay keyless = golden("mode_sprint.srr");
  keyless.created_unix_ms = 2'000;
  ASSERT_TRUE(store.value().add(first).ok());
  ASSERT_TRUE(store.value().add(keyless).ok());
  std::vector<StoredGame> games = store.value().recent({}).value();
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].results[0].key_id, "");
  EXPECT_EQ(games[1].results[0].key_id, "cb2f5160");
  for (const StoredGame& g : games) {
    EXPECT_FALSE(g.results[0].name_shared);
    EXPECT_EQ(shown_name(g.results[0]), "sprinter");
  }

  Replay other = golden("mode_sprint.srr");
  other.racers[0].key = key_counting_from(100);  // short id bdf247bd
  other.created_unix_ms = 3'000;
  ASSERT_TRUE(store.value().add(other).ok());
  games = store.value().recent({}).value();
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(shown_name(games[0].results[0]), "sprinter #bdf247bd");
  EXPECT_EQ(shown_name(games[1].results[0]), "sprinter");  // no key recorded
  EXPECT_EQ(shown_name(games[2].results[0]), "sprinter #cb2f5160");
  const std::vector<BestResult> best = store.value().best({}).value();
  ASSERT_EQ(best.size(), 1u);  // one sprint time, three times the same game: the first played holds it
  EXPECT_EQ(best[0].created_unix_ms, 1'000);
  EXPECT_EQ(shown_name(best[0]), "sprinter #cb2f5160");
}

// An index written before index versions has no key_id column: open() adds it, every row reads as keyless, and new
// games index their keys. An index of a newer build is refused, untouched.
TEST_F(ReplayStoreTest, AnOlderIndexGainsTheKeyColumnAndANewerOneIsRefused) {
  std::filesystem::create_directories(dir_);
  std::filesystem::copy_file(testing::data_dir() / "mode_sprint.srr", dir_ / "mode_sprint.srr");
  {
    sqlite::Db db;
    ASSERT_TRUE(db.open(dir_ / ReplayStore::kIndexFile).ok());
    ASSERT_TRUE(db.exec(R"sql(
      CREATE TABLE games (id TEXT PRIMARY KEY, file TEXT NOT NULL, created_unix_ms INTEGER NOT NULL,
        place TEXT NOT NULL, mode TEXT NOT NULL, limit_kind TEXT NOT NULL, limit_value INTEGER NOT NULL,
        goal TEXT NOT NULL, rules_version INTEGER NOT NULL, racers INTEGER NOT NULL, verified INTEGER NOT NULL,
        verify_note TEXT NOT NULL);
      CREATE TABLE results (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, racer INTEGER NOT NULL,
        player TEXT NOT NULL, status TEXT NOT NULL, top_out TEXT NOT NULL, time_us INTEGER NOT NULL,
        lines INTEGER NOT NULL, score INTEGER NOT NULL, pieces INTEGER NOT NULL, PRIMARY KEY (game_id, racer));
      INSERT INTO games VALUES ('mode_sprint', 'mode_sprint.srr', 5, 'local', 'sprint', 'lines', 40, 'time', 1, 1,
        1, 'verified 1 racer');
      INSERT INTO results VALUES ('mode_sprint', 0, 'sprinter', 'finished', 'none', 35540000, 40, 0, 100);
    )sql")
                    .ok());
  }
  {
    Result<ReplayStore> store = ReplayStore::open(dir_);
    ASSERT_TRUE(store.ok()) << store.error().describe();
    std::vector<StoredGame> games = store.value().recent({}).value();
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].results[0].player, "sprinter");
    EXPECT_EQ(games[0].results[0].key_id, "");
    Replay keyed = golden("mode_sprint.srr");
    keyed.racers[0].key = key_counting_from(0);
    ASSERT_TRUE(store.value().add(keyed).ok());
    games = store.value().recent({}).value();
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].results[0].key_id, "cb2f5160");
  }
  // Opening again changes nothing (the index is at the current version).
  ASSERT_TRUE(ReplayStore::open(dir_).ok());
  {
    sqlite::Db db;
    ASSERT_TRUE(db.open(dir_ / ReplayStore::kIndexFile).ok());
    ASSERT_TRUE(db.exec("PRAGMA user_version = 7").ok());
  }
  Result<ReplayStore> newer = ReplayStore::open(dir_);
  ASSERT_FALSE(newer.ok());
  EXPECT_EQ(newer.error().message, "cannot open the index " + (dir_ / ReplayStore::kIndexFile).string() +
                                       ": the index is version 7, this build knows up to 1: use a newer stackrace, "
                                       "or delete the index and run stackrace-replay reindex (the replay files are "
                                       "the truth)");
}

TEST_F(ReplayStoreTest, UnverifiedReplaysAreIndexedButNeverBest) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok());
  Replay fake = golden("mode_sprint.srr");
  fake.racers[0].result.stats.time_us -= 5'000'000;  // claims a finish five seconds faster
  ASSERT_TRUE(store.value().add(fake).ok());
  Result<std::vector<StoredGame>> games = store.value().recent({});
  ASSERT_EQ(games.value().size(), 1u);
  EXPECT_FALSE(games.value()[0].verified);
  EXPECT_TRUE(store.value().best({}).value().empty());
}

// Every entry of the store's directory, by name.
std::set<std::string> entries(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// Resets the injected faults even when an assertion returns early.
struct FaultGuard {
  explicit FaultGuard(IoFaults f) { set_io_faults(f); }
  ~FaultGuard() { set_io_faults({}); }
};

TEST_F(ReplayStoreTest, ReconcileMakesTheIndexAgreeWithTheFilesAndClearsLeftovers) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok());
  const std::string kept = store.value().add(golden("mode_sprint.srr")).value();
  const std::string lost = store.value().add(golden("mode_ultra.srr")).value();
  // A crash after the file but before the row; a file removed by hand; writes interrupted by a crash of an earlier
  // process with this process's id (a container's server is often pid 1) and of a process that is gone.
  std::filesystem::copy_file(testing::data_dir() / "tspin.srr", dir_ / "tspin.srr");
  std::filesystem::remove(dir_ / (lost + ".srr"));
  const std::vector<std::uint8_t> half = {'S', 'R'};
  const std::string mine = ".0123456789abcdef.srr.tmp-" + std::to_string(::getpid());
  const std::string gone = ".fedcba9876543210.srr.tmp-999999999";
  const std::string alive = ".1111111111111111.srr.tmp-" + std::to_string(::getppid());
  for (const std::string& name : {mine, gone, alive}) {
    ASSERT_EQ(sr::test::problem_of(write_file_atomic(dir_ / name, half)), std::nullopt);
  }

  Result<ReconcileReport> report = store.value().reconcile();
  ASSERT_TRUE(report.ok()) << report.error().describe();
  EXPECT_EQ(report.value().temp_files_removed, 2u);
  EXPECT_EQ(report.value().rows_removed, 1u);
  EXPECT_EQ(report.value().files_indexed, 1u);
  EXPECT_TRUE(report.value().unreadable.empty());
  EXPECT_EQ(report.value().summary(),
            "removed 2 temporary files, removed 1 index rows without a file, indexed 1 files");
  // A live writer's temporary file is its own business.
  EXPECT_EQ(entries(dir_), (std::set<std::string>{ReplayStore::kIndexFile, kept + ".srr", "tspin.srr", alive}));
  std::set<std::string> ids;
  const Result<std::vector<StoredGame>> games = store.value().recent({});
  ASSERT_TRUE(games.ok());
  for (const StoredGame& g : games.value()) ids.insert(g.id);
  EXPECT_EQ(ids, (std::set<std::string>{kept, "tspin"}));

  Result<ReconcileReport> again = store.value().reconcile();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.value().summary(), "files and index agree");
}

TEST_F(ReplayStoreTest, ReindexRemovesLeftoverTemporaryFiles) {
  std::filesystem::create_directories(dir_);
  const std::string gone = ".fedcba9876543210.srr.tmp-999999999";
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(dir_ / gone, std::vector<std::uint8_t>{'S'})), std::nullopt);
  Result<ReplayStore> store = ReplayStore::open(dir_);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE(store.value().reindex().ok());
  EXPECT_EQ(entries(dir_), (std::set<std::string>{ReplayStore::kIndexFile}));
}

TEST_F(ReplayStoreTest, AFullDiskLeavesNeitherAFileNorARow) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok());
  {
    const FaultGuard full({0, ENOSPC});
    Result<std::string> id = store.value().add(golden("mode_sprint.srr"));
    ASSERT_FALSE(id.ok());
    EXPECT_NE(id.error().message.find("No space left on device"), std::string::npos) << id.error().message;
  }
  EXPECT_EQ(entries(dir_), (std::set<std::string>{ReplayStore::kIndexFile}));
  EXPECT_TRUE(store.value().recent({}).value().empty());
}

TEST_F(ReplayStoreTest, AnIndexThatCannotTakeTheRowTakesTheFileAwayToo) {
  Result<ReplayStore> store = ReplayStore::open(dir_, true);
  ASSERT_TRUE(store.ok());
  // Another connection breaks the index under the store: its next insert fails, as on a full disk.
  {
    sqlite::Db other;
    ASSERT_EQ(sr::test::problem_of(other.open(dir_ / ReplayStore::kIndexFile)), std::nullopt);
    ASSERT_EQ(sr::test::problem_of(other.exec("DROP TABLE results")), std::nullopt);
  }
  Result<std::string> id = store.value().add(golden("mode_sprint.srr"));
  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.error().message.rfind("cannot index ", 0), 0u) << id.error().message;
  EXPECT_EQ(entries(dir_), (std::set<std::string>{ReplayStore::kIndexFile}));
}

TEST_F(ReplayStoreTest, AMissingDirectoryThatCannotBeMadeSaysWhy) {
  std::filesystem::create_directories(dir_);
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(dir_ / "file", std::vector<std::uint8_t>{1})), std::nullopt);
  Result<ReplayStore> store = ReplayStore::open(dir_ / "file" / "store", true);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.error().message.rfind("cannot create the directory " + (dir_ / "file" / "store").string() + ": ", 0),
            0u)
      << store.error().message;
  Result<ReplayStore> missing = ReplayStore::open(dir_ / "nowhere", false);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, (dir_ / "nowhere").string() + " does not exist");
  Result<ReplayStore> file = ReplayStore::open(dir_ / "file", false);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.error().message, (dir_ / "file").string() + " is not a directory");
}

TEST_F(ReplayStoreTest, AReadOnlyDirectoryIsNamedAsSuch) {
  std::filesystem::create_directories(dir_);
  EXPECT_EQ(sr::test::problem_of(check_writable(dir_)), std::nullopt);
  {
    const FaultGuard read_only({EROFS, 0});
    EXPECT_EQ(sr::test::problem_of(check_writable(dir_)), dir_.string() + " is on a read-only file system");
  }
  {
    const FaultGuard denied({EACCES, 0});
    EXPECT_EQ(sr::test::problem_of(check_writable(dir_)),
              dir_.string() + " is not writable by this user (Permission denied)");
  }
  EXPECT_EQ(entries(dir_), std::set<std::string>{}) << "the probe file is removed";
}

// The real thing, without the seam: only a user other than root is refused by a directory's mode.
TEST_F(ReplayStoreTest, AChmodReadOnlyDirectoryIsNotWritable) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes through a read-only mode (the seam's tests cover this)";
  std::filesystem::create_directories(dir_);
  ASSERT_EQ(::chmod(dir_.c_str(), 0555), 0);
  const auto problem = sr::test::problem_of(check_writable(dir_));
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);
  EXPECT_EQ(problem, dir_.string() + " is not writable by this user (Permission denied)");
}

TEST(FileIo, NamesOfTemporaryFiles) {
  EXPECT_EQ(temp_file_pid(".0123456789abcdef.srr.tmp-42"), 42);
  EXPECT_EQ(temp_file_pid(".write-probe.tmp-7"), 7);
  EXPECT_EQ(temp_file_pid("0123456789abcdef.srr"), 0);
  EXPECT_EQ(temp_file_pid(".x.srr.tmp-"), 0);
  EXPECT_EQ(temp_file_pid(".x.srr.tmp-4a"), 0);
  EXPECT_EQ(temp_file_pid("x.srr.tmp-42"), 0) << "not hidden: not one of ours";
}

TEST(FileIo, WritesAtomicallyAndReadsBack) {
  const auto path = std::filesystem::temp_directory_path() / ("sr_file_io_" + std::to_string(::getpid()));
  const std::vector<std::uint8_t> bytes = {1, 2, 3};
  ASSERT_EQ(sr::test::problem_of(write_file_atomic(path, bytes)), std::nullopt);
  Result<std::vector<std::uint8_t>> back = read_file(path);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), bytes);
  Result<std::vector<std::uint8_t>> capped = read_file(path, 2);
  EXPECT_FALSE(capped.ok());
  std::filesystem::remove(path);
  EXPECT_EQ(read_file(path).error().kind, ErrorKind::kIo);
  EXPECT_FALSE(write_file_atomic("/nonexistent-dir/x.srr", bytes).ok());
}

}  // namespace
}  // namespace sr::replay
