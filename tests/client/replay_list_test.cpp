// The replay browser's local list: the store's games, newest first, filtered by mode and by player.
#include "client/replay/replay_list.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "client/replay/replay_link.h"
#include "client/solo/puzzle_progress.h"
#include "common/engine/puzzles.h"

namespace sr::client {
namespace {

namespace fs = std::filesystem;

class ReplayList : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("stackrace-replay-list-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  // A short game (two hard drops) of `config` by `player`, played at `unix_ms`.
  void save(const engine::GameConfig& config, const std::string& player, std::int64_t unix_ms,
            const fs::path& in = {}) {
    ReplayLink link(in.empty() ? dir : in);
    engine::RacerRun run(config, 5);
    for (const engine::InputChange c : std::vector<engine::InputChange>{
             {0, engine::button::kHardDrop}, {100'000, 0}, {200'000, engine::button::kHardDrop}, {300'000, 0}}) {
      ASSERT_EQ(run.press(c.time_us, c.buttons).error, engine::UpdateError::kOk);
    }
    (void)run.advance(1'000'000);
    const SoloRecord r{run, player, unix_ms, "local", false, std::nullopt};
    const SaveOutcome saved = link.save(r);
    ASSERT_EQ(saved.error, "");
  }
  // Hard drops until the game tops out.
  void save_topped_out(const engine::GameConfig& config, const std::string& player, std::int64_t unix_ms) {
    ReplayLink link(dir);
    engine::RacerRun run(config, 5);
    for (engine::TimeUs t = 0; !run.game().over() && t < 60'000'000; t += 200'000) {
      ASSERT_EQ(run.press(t, engine::button::kHardDrop).error, engine::UpdateError::kOk);
      ASSERT_EQ(run.press(t + 100'000, 0).error, engine::UpdateError::kOk);
    }
    ASSERT_TRUE(run.game().over());
    const SoloRecord r{run, player, unix_ms, "local", false, std::nullopt};
    ASSERT_EQ(link.save(r).error, "");
  }
  static std::vector<std::string> players(const ReplayListing& l) {
    std::vector<std::string> out;
    for (const auto& g : l.games) out.push_back(g.results.at(0).player + " " + engine::mode_name(g.mode));
    return out;
  }
  fs::path dir;
};

TEST_F(ReplayList, NoStoreYetIsAnEmptyListNotAnError) {
  const ReplayListing l = list_local_replays(dir, std::nullopt, "");
  EXPECT_TRUE(l.games.empty());
  EXPECT_EQ(l.error, "");
}

TEST_F(ReplayList, FiltersByModeAndPlayerNewestFirst) {
  save(engine::make_sprint(40), "ann", 1'000);
  save(engine::make_ultra(120), "bob", 2'000);
  save(engine::make_sprint(20), "bob", 3'000);
  EXPECT_EQ(players(list_local_replays(dir, std::nullopt, "")),
            (std::vector<std::string>{"bob sprint", "bob ultra", "ann sprint"}));
  EXPECT_EQ(players(list_local_replays(dir, engine::ModeKind::kSprint, "")),
            (std::vector<std::string>{"bob sprint", "ann sprint"}));
  EXPECT_EQ(players(list_local_replays(dir, std::nullopt, "bob")),
            (std::vector<std::string>{"bob sprint", "bob ultra"}));
  EXPECT_EQ(players(list_local_replays(dir, engine::ModeKind::kSprint, "ann")),
            (std::vector<std::string>{"ann sprint"}));
  EXPECT_TRUE(list_local_replays(dir, engine::ModeKind::kMarathon, "").games.empty());
  for (const auto& g : list_local_replays(dir, std::nullopt, "").games) {
    EXPECT_TRUE(g.verified) << g.verify_note;
    EXPECT_TRUE(fs::exists(g.file)) << g.file;
  }
}

// --data-dir given relative: the listed file is the one to open as it is (the browser once joined the directory a
// second time, and "Watch" failed).
TEST_F(ReplayList, AListedFileOpensAsItIsWhenTheDirectoryIsRelative) {
  const fs::path cwd = fs::current_path();
  fs::create_directories(dir);
  fs::current_path(dir);
  const fs::path relative = fs::path("data") / "replays";
  save(engine::make_sprint(40), "ann", 1'000, relative);
  const ReplayListing l = list_local_replays(relative, std::nullopt, "");
  ASSERT_EQ(l.games.size(), 1u) << l.error;
  EXPECT_TRUE(l.games[0].file.is_relative());
  EXPECT_EQ(l.games[0].file.parent_path(), relative);
  EXPECT_TRUE(fs::exists(l.games[0].file)) << l.games[0].file;
  fs::current_path(cwd);
}

TEST_F(ReplayList, GamesGivenUpCanBeHidden) {
  save(engine::make_sprint(40), "gave-up", 1'000);  // two hard drops, then left: forfeited
  save_topped_out(engine::make_sprint(40), "topped", 2'000);
  EXPECT_EQ(players(list_local_replays(dir, std::nullopt, "")),
            (std::vector<std::string>{"topped sprint", "gave-up sprint"}));
  EXPECT_EQ(players(list_local_replays(dir, std::nullopt, "", true)), (std::vector<std::string>{"topped sprint"}));
}

TEST(ReplayResultText, SaysHowTheGameEndedInWords) {
  replay::StoredGame g;
  g.goal = engine::GoalKind::kTime;
  replay::StoredResult r;
  r.status = replay::ResultStatus::kFinished;
  r.time_us = 42'117'000;
  r.lines = 40;
  EXPECT_EQ(result_text(g, r), "0:42.117");
  r.status = replay::ResultStatus::kToppedOut;
  r.time_us = 14'722'000;
  r.lines = 12;
  EXPECT_EQ(result_text(g, r), "topped out at 0:14.722, 12 lines");
  r.status = replay::ResultStatus::kForfeited;
  EXPECT_EQ(result_text(g, r), "gave up at 0:14.722, 12 lines");
  r.status = replay::ResultStatus::kDisconnected;
  EXPECT_EQ(result_text(g, r), "disconnected at 0:14.722, 12 lines");
  r.status = replay::ResultStatus::kUnfinished;
  EXPECT_EQ(result_text(g, r), "unfinished at 0:14.722, 12 lines");
  g.goal = engine::GoalKind::kScore;
  r.score = 12'345;
  r.lines = 87;
  r.status = replay::ResultStatus::kFinished;
  EXPECT_EQ(result_text(g, r), "12,345 (87 lines)");
  // An ultra that topped out says so, and when: its score alone would read like a result.
  r.status = replay::ResultStatus::kToppedOut;
  r.time_us = 62'500'000;
  EXPECT_EQ(result_text(g, r), "12,345 (87 lines), topped out at 1:02.500");
}

// A puzzle attempt says whether it cleared the board, and how many of the stage's pieces it used.
TEST(ReplayResultText, APuzzleAttemptSaysWhetherItClearedTheBoard) {
  // Stage 2, "I-spin II": 4 rows with 32 garbage cells ("GGGGG..GGG" and so on), pieces "IJ": 40 cells, 4 lines.
  const std::size_t stage = 1;
  ASSERT_EQ(engine::puzzle_stages()[stage].pieces, "IJ");
  replay::StoredGame g;
  g.goal = engine::GoalKind::kScore;
  g.place = puzzle_place(stage);
  ASSERT_EQ(puzzle_stage_of(g.place), stage);
  replay::StoredResult r;
  r.status = replay::ResultStatus::kFinished;
  r.pieces = 2;
  r.lines = 4;
  EXPECT_EQ(result_text(g, r), "perfect clear, 2 of 2 pieces");
  r.lines = 3;
  EXPECT_EQ(result_text(g, r), "not cleared after 2 of 2 pieces");
  r.status = replay::ResultStatus::kForfeited;
  r.pieces = 1;
  r.lines = 0;
  EXPECT_EQ(result_text(g, r), "gave up after 1 of 2 pieces");
  EXPECT_FALSE(puzzle_stage_of("puzzle 99: nothing").has_value());
  EXPECT_FALSE(puzzle_stage_of("local").has_value());
}

// The board-cleared rule on every stage: its garbage and its whole sequence make whole rows exactly when it can be
// solved, and one line short is never a clear.
TEST(PuzzleBoardCleared, CountsEveryCell) {
  const auto stages = engine::puzzle_stages();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    std::int64_t cells = 4 * static_cast<std::int64_t>(stages[i].pieces.size());
    for (std::string_view row : stages[i].rows) cells += std::count(row.begin(), row.end(), 'G');
    ASSERT_EQ(cells % 10, 0) << stages[i].name << ": a stage whose cells make no whole rows cannot be cleared";
    const auto pieces = static_cast<std::int64_t>(stages[i].pieces.size());
    EXPECT_TRUE(puzzle_board_cleared(i, cells / 10, pieces)) << stages[i].name;
    EXPECT_FALSE(puzzle_board_cleared(i, cells / 10 - 1, pieces)) << stages[i].name;
  }
}

}  // namespace
}  // namespace sr::client
