// Puzzle mode's rules (client/solo/puzzle_progress.h) and its file, puzzles.json (client/settings/
// puzzle_progress_io.h): which stages are playable, how attempts end and what they record, and loading, saving and
// damaged files.
#include "client/solo/puzzle_progress.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "client/settings/puzzle_progress_io.h"
#include "common/engine/puzzles.h"

namespace sr::client {
namespace {

namespace fs = std::filesystem;
using O = StageOutcome;

TEST(PuzzleProgress, OnlyTheFirstStageIsPlayableAtFirst) {
  const PuzzleProgress p;
  ASSERT_EQ(p.stage_count(), 24u);
  EXPECT_EQ(p.next_stage(), 0u);
  EXPECT_TRUE(p.playable(0));
  EXPECT_FALSE(p.playable(1));
  EXPECT_FALSE(p.playable(24)) << "out of range";
  EXPECT_EQ(p.cleared_count(), 0u);
}

TEST(PuzzleProgress, EveryStageUpToTheFirstNotClearedIsPlayable) {
  PuzzleProgress p;
  EXPECT_TRUE(p.record(0, O::kClearedSecond));
  EXPECT_TRUE(p.record(1, O::kClearedFirst));
  EXPECT_TRUE(p.record(2, O::kFailed));
  EXPECT_EQ(p.next_stage(), 2u);
  EXPECT_TRUE(p.playable(0)) << "cleared stages may be replayed";
  EXPECT_TRUE(p.playable(2)) << "a failed stage may be tried again";
  EXPECT_FALSE(p.playable(3));
  EXPECT_EQ(p.cleared_count(), 2u);
}

TEST(PuzzleProgress, AStageKeepsItsBestOutcome) {
  PuzzleProgress p;
  EXPECT_TRUE(p.record(0, O::kFailed));
  EXPECT_TRUE(p.record(0, O::kClearedSecond));
  EXPECT_FALSE(p.record(0, O::kFailed));
  EXPECT_FALSE(p.record(0, O::kNotTried));
  EXPECT_EQ(p.outcome(0), O::kClearedSecond);
  EXPECT_TRUE(p.record(0, O::kClearedFirst));
  EXPECT_FALSE(p.record(0, O::kClearedSecond));
  EXPECT_EQ(p.outcome(0), O::kClearedFirst);
  EXPECT_FALSE(p.record(99, O::kClearedFirst));
}

TEST(PuzzleProgress, AllClearedLeavesNoNextStage) {
  const PuzzleProgress p(std::vector<O>(24, O::kClearedFirst));
  EXPECT_EQ(p.next_stage(), 24u);
  EXPECT_TRUE(p.playable(23));
  EXPECT_EQ(p.cleared_count(), 24u);
  EXPECT_EQ(PuzzleProgress(std::vector<O>{O::kFailed}).stage_count(), 24u) << "padded to the stage count";
}

TEST(PuzzleAttempts, TwoAttemptsThenFailed) {
  ASSERT_EQ(engine::kPuzzleAttempts, 2);
  EXPECT_EQ(judge_attempt(1, true), AttemptEnd::kCleared);
  EXPECT_EQ(judge_attempt(2, true), AttemptEnd::kCleared);
  EXPECT_EQ(judge_attempt(1, false), AttemptEnd::kRetryLeft);
  EXPECT_EQ(judge_attempt(2, false), AttemptEnd::kFailed);
  EXPECT_EQ(outcome_of(AttemptEnd::kCleared, 1), O::kClearedFirst);
  EXPECT_EQ(outcome_of(AttemptEnd::kCleared, 2), O::kClearedSecond);
  EXPECT_EQ(outcome_of(AttemptEnd::kRetryLeft, 1), O::kNotTried) << "the try goes on: nothing recorded yet";
  EXPECT_EQ(outcome_of(AttemptEnd::kFailed, 2), O::kFailed);
  EXPECT_EQ(outcome_text(O::kClearedSecond), "cleared (attempt 2)");
  EXPECT_EQ(puzzle_place(2), "puzzle 3: I-spin III");
}

class PuzzleFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("stackrace-puzzles-test-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path path() const { return dir_ / "stackrace" / "puzzles.json"; }
  void write(const std::string& text) {
    fs::create_directories(path().parent_path());
    std::ofstream(path()) << text;
  }
  std::string read() const {
    std::ifstream in(path());
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

TEST_F(PuzzleFile, AMissingFileIsNoProgressAndNoProblem) {
  const auto load = load_puzzle_progress(path());
  EXPECT_EQ(load.problem, "");
  EXPECT_EQ(load.progress.outcomes(), PuzzleProgress().outcomes());
  EXPECT_FALSE(fs::exists(path()));
}

TEST_F(PuzzleFile, SavedProgressLoadsBackTheSame) {
  PuzzleProgress p;
  p.record(0, O::kClearedFirst);
  p.record(1, O::kClearedSecond);
  p.record(2, O::kFailed);
  ASSERT_TRUE(save_puzzle_progress(path(), p).ok());
  EXPECT_NE(read().find("\"I-spin II\": \"cleared_attempt_2\""), std::string::npos) << read();
  const auto load = load_puzzle_progress(path());
  EXPECT_EQ(load.problem, "");
  EXPECT_EQ(load.progress.outcomes(), p.outcomes());
  EXPECT_FALSE(fs::exists(path().string() + ".damaged"));
}

TEST_F(PuzzleFile, ABadEntryIsDroppedAloneAndTheFileKept) {
  write(R"({"version": 1, "stages": {"I-spin": "cleared_attempt_1", "I-spin II": "won", "No such": "failed",
            "S-spin": 3, "L-spin": "failed"}})");
  const auto load = load_puzzle_progress(path());
  EXPECT_EQ(load.reset, (std::vector<std::string>{"\"I-spin II\" has no known outcome (not tried, failed or cleared)",
                                                  "\"No such\" names no stage",
                                                  "\"S-spin\" has no known outcome (not tried, failed or cleared)"}));
  EXPECT_EQ(load.progress.outcome(0), O::kClearedFirst);
  EXPECT_EQ(load.progress.outcome(1), O::kNotTried);
  EXPECT_EQ(load.progress.outcome(10), O::kFailed);  // L-spin
  EXPECT_NE(load.problem.find("3 entries were ignored"), std::string::npos) << load.problem;
  EXPECT_TRUE(fs::exists(path().string() + ".damaged"));
  EXPECT_EQ(load_puzzle_progress(path()).problem, "") << "rewritten as used";
  EXPECT_EQ(load_puzzle_progress(path()).progress.outcomes(), load.progress.outcomes());
}

TEST_F(PuzzleFile, ADamagedFileStartsAfreshAndIsKeptBeside) {
  const std::vector<std::string> damaged = {
      "",
      "not json",
      "[1, 2]",
      R"({"stages": {}})",
      R"({"version": "1", "stages": {}})",
      R"({"version": 2, "stages": {}})",
      R"({"version": 1})",
      R"({"version": 1, "stages": ["I-spin"]})",
      std::string(100000, '[') + std::string(100000, ']'),
      R"({"version": 1, "stages": {"I-spin": "failed"})",
  };
  for (const auto& text : damaged) {
    SCOPED_TRACE(text.substr(0, 60));
    fs::remove_all(dir_);
    write(text);
    const auto load = load_puzzle_progress(path());
    EXPECT_NE(load.problem.find("is damaged"), std::string::npos) << load.problem;
    EXPECT_NE(load.problem.find("settings are not affected"), std::string::npos) << load.problem;
    EXPECT_EQ(load.progress.outcomes(), PuzzleProgress().outcomes());
    EXPECT_TRUE(fs::exists(path().string() + ".damaged"));
    EXPECT_EQ(load_puzzle_progress(path()).problem, "") << "a fresh file replaced it";
  }
}

TEST_F(PuzzleFile, TheSettingsFileBesideIsNotTouched) {
  write("garbage");
  std::ofstream(path().parent_path() / "settings.json") << "{\"version\": 4}";
  (void)load_puzzle_progress(path());
  std::ifstream in(path().parent_path() / "settings.json");
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), "{\"version\": 4}");
}

// The label under the board says how many pieces the stage has and which one is in play.
TEST(PuzzleBoardName, CountsThePiecesOfTheStage) {
  const auto stages = engine::puzzle_stages();
  ASSERT_GE(stages.size(), 2u);
  const std::string name(stages[1].name);
  const std::string total = std::to_string(stages[1].pieces.size());
  EXPECT_EQ(puzzle_board_name(1, 1, 0),
            "Stage 2: " + name + " \xC2\xB7 piece 1 of " + total + " \xC2\xB7 attempt 1 of 2");
  EXPECT_EQ(puzzle_board_name(1, 2, 1),
            "Stage 2: " + name + " \xC2\xB7 piece 2 of " + total + " \xC2\xB7 attempt 2 of 2");
  // After the last piece has locked, still the last.
  EXPECT_EQ(puzzle_board_name(1, 1, 99),
            "Stage 2: " + name + " \xC2\xB7 piece " + total + " of " + total + " \xC2\xB7 attempt 1 of 2");
  EXPECT_EQ(puzzle_board_name(999, 1, 0), "Stage 1000");
}

}  // namespace
}  // namespace sr::client
