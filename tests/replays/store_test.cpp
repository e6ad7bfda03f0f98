#include <gtest/gtest.h>
#include <unistd.h>

#include "common/replay/codec.h"
#include "replays/store/file_io.h"
#include "replays/store/replay_store.h"
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
  Result<std::vector<StoredGame>> sprints =
      store.value().recent({engine::ModeKind::kSprint, std::nullopt, 20, std::nullopt});
  ASSERT_TRUE(sprints.ok());
  EXPECT_EQ(sprints.value().size(), 2u);
  Result<std::vector<StoredGame>> ada = store.value().recent({std::nullopt, std::string("ada"), 20, std::nullopt});
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

  Result<std::vector<BestResult>> mine = store.value().best({std::nullopt, std::string("sprinter"), 20, std::nullopt});
  ASSERT_TRUE(mine.ok());
  ASSERT_EQ(mine.value().size(), 1u);
  EXPECT_EQ(mine.value()[0].player, "sprinter");
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
