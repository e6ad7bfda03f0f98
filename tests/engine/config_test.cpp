// check_config(): every out-of-range field is reported by name; edge values are accepted; presets are valid and
// say what their mode is.
#include "common/engine/config.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "tests/support/status.h"

namespace sr::engine {
namespace {

struct BadField {
  std::string expected_in_message;
  std::function<void(GameConfig&)> edit;
};

template <typename E>
E bad_enum(int v) {
  return static_cast<E>(v);
}

std::vector<BadField> bad_fields() {
  return {
      {"mode", [](GameConfig& c) { c.mode = bad_enum<ModeKind>(7); }},
      {"limit", [](GameConfig& c) { c.limit = bad_enum<LimitKind>(6); }},
      {"goal", [](GameConfig& c) { c.goal = bad_enum<GoalKind>(3); }},
      {"rotation", [](GameConfig& c) { c.rotation = bad_enum<RotationSystem>(4); }},
      {"generator", [](GameConfig& c) { c.generator = bad_enum<GeneratorKind>(4); }},
      {"preview", [](GameConfig& c) { c.preview = 8; }},
      {"das_us", [](GameConfig& c) { c.handling.das_us = -1; }},
      {"das_us", [](GameConfig& c) { c.handling.das_us = 2'000'001; }},
      {"arr_us", [](GameConfig& c) { c.handling.arr_us = -1; }},
      {"arr_us", [](GameConfig& c) { c.handling.arr_us = 1'000'001; }},
      {"sdf", [](GameConfig& c) { c.handling.sdf = -1; }},
      {"sdf", [](GameConfig& c) { c.handling.sdf = 1001; }},
      {"dcd_us", [](GameConfig& c) { c.handling.dcd_us = 1'000'001; }},
      {"are_us", [](GameConfig& c) { c.handling.are_us = 2'000'001; }},
      {"line_clear_delay_us", [](GameConfig& c) { c.handling.line_clear_delay_us = -5; }},
      {"gravity", [](GameConfig& c) { c.gravity = bad_enum<Gravity>(2); }},
      {"start_level", [](GameConfig& c) { c.start_level = 0; }},
      {"start_level", [](GameConfig& c) { c.start_level = 31; }},
      {"goal_system", [](GameConfig& c) { c.goal_system = bad_enum<GoalSystem>(2); }},
      {"lock_down", [](GameConfig& c) { c.lock_down = bad_enum<LockDown>(4); }},
      {"lock_delay_us", [](GameConfig& c) { c.lock_delay_us = 0; }},
      {"lock_delay_us", [](GameConfig& c) { c.lock_delay_us = 10'000'001; }},
      {"max_lock_resets", [](GameConfig& c) { c.max_lock_resets = -1; }},
      {"max_lock_resets", [](GameConfig& c) { c.max_lock_resets = 1001; }},
      {"ground_time_cap_us", [](GameConfig& c) { c.ground_time_cap_us = 0; }},
      {"ground_time_cap_us", [](GameConfig& c) { c.ground_time_cap_us = 60'000'001; }},
      {"scoring", [](GameConfig& c) { c.scoring = bad_enum<Scoring>(3); }},
      {"limit_value", [](GameConfig& c) { c.limit = LimitKind::kLines, c.limit_value = 0; }},
      {"limit_value", [](GameConfig& c) { c.limit = LimitKind::kPieces, c.limit_value = -3; }},
      {"limit_value (seconds)", [](GameConfig& c) { c.limit = LimitKind::kTime, c.limit_value = 0; }},
      {"limit_value (seconds)", [](GameConfig& c) { c.limit = LimitKind::kTime, c.limit_value = 86'401; }},
      {"fixed_sequence", [](GameConfig& c) { c.generator = GeneratorKind::kFixed; }},
      {"fixed_sequence",
       [](GameConfig& c) {
         c.generator = GeneratorKind::kFixed;
         c.fixed_sequence.assign(10'001, Piece::kT);
       }},
      {"fixed_sequence[1]",
       [](GameConfig& c) {
         c.generator = GeneratorKind::kFixed;
         c.fixed_sequence = {Piece::kT, Piece::kGarbage};
       }},
      {"fixed_sequence[0]",
       [](GameConfig& c) {
         c.generator = GeneratorKind::kFixed;
         c.fixed_sequence = {Piece::kNone};
       }},
      {"initial_board rows", [](GameConfig& c) { c.initial_board.assign(41, BoardRow(10, Piece::kNone)); }},
      {"initial_board row 1",
       [](GameConfig& c) {
         c.initial_board.assign(3, BoardRow(10, Piece::kNone));
         c.initial_board[1].pop_back();
       }},
      {"initial_board row 2 is full",
       [](GameConfig& c) {
         c.initial_board.assign(3, BoardRow(10, Piece::kNone));
         c.initial_board[2].assign(10, Piece::kGarbage);
       }},
      {"initial_board row 0 holds an unknown cell value",
       [](GameConfig& c) {
         c.initial_board.assign(1, BoardRow(10, Piece::kNone));
         c.initial_board[0][4] = static_cast<Piece>(9);
       }},
  };
}

TEST(ConfigError, EveryOutOfRangeFieldIsNamed) {
  for (const BadField& bad : bad_fields()) {
    GameConfig c;
    bad.edit(c);
    const auto error = sr::test::problem_of(check_config(c));
    ASSERT_TRUE(error.has_value()) << bad.expected_in_message;
    EXPECT_NE(error->find(bad.expected_in_message), std::string::npos)
        << "message \"" << *error << "\" should name " << bad.expected_in_message;
  }
}

TEST(ConfigError, MessageGivesTheValueAndTheRange) {
  GameConfig c;
  c.handling.das_us = -1;
  EXPECT_EQ(sr::test::problem_of(check_config(c)), "das_us is -1, must be 0..2000000");
}

TEST(ConfigError, EdgeValuesAreValid) {
  GameConfig c;
  c.handling = Handling{2'000'000, 0, 1000, 1'000'000, 2'000'000, 2'000'000, false, false};
  c.preview = 7;
  c.start_level = 30;
  c.lock_delay_us = 1;
  c.max_lock_resets = 0;
  c.ground_time_cap_us = 60'000'000;
  c.limit = LimitKind::kTime;
  c.limit_value = 86'400;
  c.generator = GeneratorKind::kFixed;
  c.fixed_sequence.assign(10'000, Piece::kZ);
  c.initial_board.assign(40, BoardRow(10, Piece::kGarbage));
  for (auto& row : c.initial_board) row[3] = Piece::kNone;
  EXPECT_EQ(sr::test::problem_of(check_config(c)), std::nullopt);
  c.limit = LimitKind::kNone;
  c.limit_value = 0;
  EXPECT_EQ(sr::test::problem_of(check_config(c)), std::nullopt) << "no limit needs no value";
}

TEST(ConfigError, DefaultConfigIsValid) { EXPECT_EQ(sr::test::problem_of(check_config(GameConfig{})), std::nullopt); }

TEST(Presets, AreValidAndDescribeTheirMode) {
  const GameConfig sprint = make_sprint();
  EXPECT_EQ(sr::test::problem_of(check_config(sprint)), std::nullopt);
  EXPECT_EQ(sprint.mode, ModeKind::kSprint);
  EXPECT_EQ(sprint.limit, LimitKind::kLines);
  EXPECT_EQ(sprint.limit_value, 40);
  EXPECT_EQ(sprint.goal, GoalKind::kTime);
  EXPECT_EQ(make_sprint(1000).limit_value, 1000);

  const GameConfig ultra = make_ultra();
  EXPECT_EQ(sr::test::problem_of(check_config(ultra)), std::nullopt);
  EXPECT_EQ(ultra.limit, LimitKind::kTime);
  EXPECT_EQ(ultra.limit_value, 120);
  EXPECT_EQ(ultra.goal, GoalKind::kScore);

  for (GoalSystem goals : {GoalSystem::kFixed, GoalSystem::kVariable}) {
    const GameConfig marathon = make_marathon(goals);
    EXPECT_EQ(sr::test::problem_of(check_config(marathon)), std::nullopt);
    EXPECT_EQ(marathon.limit, LimitKind::kLevel);
    EXPECT_EQ(marathon.limit_value, 15);
    EXPECT_EQ(marathon.goal_system, goals);
  }

  const GameConfig master = make_master();
  EXPECT_EQ(sr::test::problem_of(check_config(master)), std::nullopt);
  EXPECT_EQ(master.gravity, Gravity::k20G);
  EXPECT_EQ(master.limit_value, 100);

  const GameConfig contest = make_contest();
  EXPECT_EQ(sr::test::problem_of(check_config(contest)), std::nullopt);
  EXPECT_EQ(contest.scoring, Scoring::kContest);
  EXPECT_EQ(contest.limit, LimitKind::kTime);
  EXPECT_EQ(contest.limit_value, 90);
  EXPECT_EQ(contest.goal_system, GoalSystem::kFixed);
  EXPECT_EQ(contest.start_level, 1);

  const GameConfig endless = make_endless();
  EXPECT_EQ(sr::test::problem_of(check_config(endless)), std::nullopt);
  EXPECT_EQ(endless.limit, LimitKind::kNone);
  const GameConfig custom = make_custom();
  EXPECT_EQ(sr::test::problem_of(check_config(custom)), std::nullopt);
  EXPECT_EQ(custom.mode, ModeKind::kCustom);
}

TEST(Presets, UseTheGuidelineDefaults) {
  const GameConfig c = make_sprint();
  EXPECT_EQ(c.rotation, RotationSystem::kSrs);
  EXPECT_EQ(c.generator, GeneratorKind::kBag7);
  EXPECT_EQ(c.lock_down, LockDown::kExtended);
  EXPECT_EQ(c.lock_delay_us, 500'000);
  EXPECT_EQ(c.max_lock_resets, 15);
  EXPECT_EQ(c.handling.das_us, 167'000);
  EXPECT_EQ(c.handling.arr_us, 33'000);
  EXPECT_EQ(c.handling.sdf, 20);
  EXPECT_EQ(c.scoring, Scoring::kGuideline);
  EXPECT_EQ(c.gravity, Gravity::kLevelTable);
}

TEST(ModeNames, RoundTrip) {
  for (int m = 0; m <= 6; ++m) {
    const auto mode = static_cast<ModeKind>(m);
    EXPECT_EQ(mode_from_name(mode_name(mode)), mode);
  }
  EXPECT_STREQ(mode_name(ModeKind::kMarathon), "marathon");
  EXPECT_EQ(mode_from_name("Sprint"), std::nullopt);
  EXPECT_EQ(mode_from_name(""), std::nullopt);
  EXPECT_STREQ(mode_name(static_cast<ModeKind>(42)), "unknown");
}

}  // namespace
}  // namespace sr::engine
