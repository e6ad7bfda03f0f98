// RoomForm: every mode and option of a room becomes settings the server accepts, reads back unchanged, and says what
// to fix when something is out of range.
#include "client/lobby/room_form.h"

#include <gtest/gtest.h>

#include "common/protocol/codec.h"
#include "common/protocol/messages.h"

namespace sr::client {
namespace {

using engine::ModeKind;

protocol::RoomSettings settings_of(const RoomForm& f) {
  auto s = f.to_settings();
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? s.value() : protocol::RoomSettings{};
}

// The settings survive the wire (encode, decode) exactly: what the server will read.
void expect_wire_round_trip(const protocol::RoomSettings& s) {
  const protocol::Message m = protocol::CreateRoom{s, protocol::Role::kSpectator};
  const auto decoded = protocol::decode(protocol::encode(m));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(decoded.value(), m);
}

TEST(RoomForm, EveryModeGivesItsPresetWithTheFormsParameters) {
  struct Case {
    ModeKind mode;
    engine::GameConfig expected;
  };
  RoomForm f;
  f.lines = 25;
  f.seconds = 75;
  auto contest = engine::make_contest();
  contest.limit_value = 75;
  auto endless = engine::make_endless();
  const Case cases[] = {
      {ModeKind::kSprint, engine::make_sprint(25)},
      {ModeKind::kUltra, engine::make_ultra(75)},
      {ModeKind::kMarathon, engine::make_marathon()},
      {ModeKind::kMaster, engine::make_master(25)},
      {ModeKind::kEndless, endless},
      {ModeKind::kContest, contest},
  };
  for (const Case& c : cases) {
    f.mode = c.mode;
    const protocol::RoomSettings s = settings_of(f);
    EXPECT_EQ(s.config, c.expected) << engine::mode_name(c.mode);
    expect_wire_round_trip(s);
  }
}

TEST(RoomForm, MarathonGoalAndEndlessLimitsAreOptions) {
  RoomForm f;
  f.mode = ModeKind::kMarathon;
  f.variable_goal = true;
  EXPECT_EQ(settings_of(f).config, engine::make_marathon(engine::GoalSystem::kVariable));

  f.mode = ModeKind::kEndless;
  f.endless = EndlessLimit::kLines;
  f.lines = 150;
  auto c = settings_of(f).config;
  EXPECT_EQ(c.mode, ModeKind::kEndless);
  EXPECT_EQ(c.limit, engine::LimitKind::kLines);
  EXPECT_EQ(c.limit_value, 150);
  f.endless = EndlessLimit::kSeconds;
  f.seconds = 600;
  c = settings_of(f).config;
  EXPECT_EQ(c.limit, engine::LimitKind::kTime);
  EXPECT_EQ(c.limit_value, 600);
}

TEST(RoomForm, RoomOptionsGoIntoTheSettings) {
  RoomForm f;
  f.name = "friday night";
  f.max_racers = 16;
  f.is_private = true;
  f.auto_start = false;
  f.stall_budget_s = 0;
  const protocol::RoomSettings s = settings_of(f);
  EXPECT_EQ(s.name, "friday night");
  EXPECT_EQ(s.max_racers, 16);
  EXPECT_TRUE(s.is_private);
  EXPECT_FALSE(s.auto_start);
  EXPECT_EQ(s.stall_budget_s, 0);
  expect_wire_round_trip(s);
  RoomForm shown;
  shown.from_settings(s);
  EXPECT_EQ(shown.stall_budget_s, 0);
}

TEST(RoomForm, StallBudgetBeyondAMinuteIsRefusedInWords) {
  RoomForm f;
  EXPECT_EQ(f.stall_budget_s, 10);
  f.stall_budget_s = 61;
  EXPECT_EQ(f.to_settings().error(), "the stall budget must be 0..60 seconds");
}

TEST(RoomForm, CustomRoomsCarryEveryRuleWithSequenceAndBoard) {
  RoomForm f;
  f.mode = ModeKind::kCustom;
  f.custom.limit = engine::LimitKind::kPieces;
  f.custom.limit_value = 100;
  f.custom.goal = engine::GoalKind::kLines;
  f.custom.rotation = engine::RotationSystem::kClassic;
  f.custom.allow_180 = false;
  f.custom.generator = engine::GeneratorKind::kFixed;
  f.sequence = "TTIO";
  f.board = "G.GGGGGGGG/GGGG.GGGGG";
  f.custom.hold_enabled = false;
  f.custom.preview = 2;
  f.custom.gravity = engine::Gravity::k20G;
  f.custom.start_level = 7;
  f.custom.level_up = false;
  f.custom.lock_down = engine::LockDown::kTimer;
  f.custom.lock_delay_us = 300'000;
  f.custom.ground_time_cap_us = 1'000'000;
  f.custom.scoring = engine::Scoring::kTetrs;
  f.custom.all_spin = true;
  f.custom.handling.das_us = 1;  // not a room option: each racer has their own
  const protocol::RoomSettings s = settings_of(f);
  EXPECT_EQ(s.config.mode, ModeKind::kCustom);
  EXPECT_EQ(s.config.fixed_sequence,
            (std::vector<engine::Piece>{engine::Piece::kT, engine::Piece::kT, engine::Piece::kI, engine::Piece::kO}));
  ASSERT_EQ(s.config.initial_board.size(), 2u);
  EXPECT_EQ(s.config.initial_board[0][4], engine::Piece::kNone);  // bottom row first
  EXPECT_EQ(s.config.initial_board[1][1], engine::Piece::kNone);
  EXPECT_EQ(s.config.handling, engine::Handling{});
  EXPECT_EQ(s.config.scoring, engine::Scoring::kTetrs);
  expect_wire_round_trip(s);

  // Read back (the room screen shows the room's settings): the same settings again.
  RoomForm shown;
  shown.from_settings(s);
  EXPECT_EQ(shown.mode, ModeKind::kCustom);
  EXPECT_EQ(shown.sequence, "TTIO");
  EXPECT_EQ(shown.board, "G.GGGGGGGG/GGGG.GGGGG");
  EXPECT_EQ(settings_of(shown), s);
}

TEST(RoomForm, ReadingBackEveryModeGivesTheSameSettings) {
  for (int m = 0; m <= static_cast<int>(ModeKind::kContest); ++m) {
    RoomForm f;
    f.mode = static_cast<ModeKind>(m);
    f.lines = 12;
    f.seconds = 45;
    f.variable_goal = true;
    f.endless = EndlessLimit::kSeconds;
    f.max_racers = 3;
    const protocol::RoomSettings s = settings_of(f);
    RoomForm shown;
    shown.from_settings(s);
    EXPECT_EQ(shown.mode, f.mode) << engine::mode_name(f.mode);
    EXPECT_EQ(settings_of(shown), s) << engine::mode_name(f.mode);
  }
}

TEST(RoomForm, AConfigThatIsNoPresetIsShownAsCustom) {
  protocol::RoomSettings s;
  s.name = "odd";
  s.config = engine::make_sprint(40);
  s.config.preview = 1;  // a sprint room made by another client with one preview
  RoomForm shown;
  shown.from_settings(s);
  EXPECT_EQ(shown.mode, ModeKind::kCustom);
  EXPECT_EQ(shown.custom.preview, 1);
}

TEST(RoomForm, SaysWhatToFix) {
  RoomForm f;
  f.lines = 0;
  EXPECT_EQ(f.to_settings().error(), "lines must be 1..10000");
  f = RoomForm{};
  f.mode = ModeKind::kUltra;
  f.seconds = 5;
  EXPECT_EQ(f.to_settings().error(), "seconds must be 10..3600");
  f = RoomForm{};
  f.name = "";
  EXPECT_EQ(f.to_settings().error(), "the room needs a name");
  f = RoomForm{};
  f.max_racers = 17;
  EXPECT_EQ(f.to_settings().error(), "racers at most must be 1..16");
  f = RoomForm{};
  f.mode = ModeKind::kCustom;
  f.custom.generator = engine::GeneratorKind::kFixed;
  f.sequence = "TQ";
  EXPECT_EQ(f.to_settings().error(), "the sequence may only hold I J L O S T Z, not 'Q'");
  f.sequence = "T";
  f.board = "GGGGGGGGGG";  // a full row
  EXPECT_NE(f.to_settings().error().find("initial_board"), std::string::npos);
}

TEST(RoomForm, CommandLineModesAndTheirParameters) {
  auto f = room_form_for_cli("master", 50, std::nullopt, false);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(settings_of(f.value()).config, engine::make_master(50));
  f = room_form_for_cli("contest", std::nullopt, 60, false);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(settings_of(f.value()).config.limit_value, 60);
  EXPECT_EQ(settings_of(f.value()).config.scoring, engine::Scoring::kContest);
  f = room_form_for_cli("endless", std::nullopt, std::nullopt, false);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(settings_of(f.value()).config, engine::make_endless());
  f = room_form_for_cli("marathon", std::nullopt, std::nullopt, true);
  ASSERT_TRUE(f.ok()) << f.error();
  EXPECT_EQ(settings_of(f.value()).config, engine::make_marathon(engine::GoalSystem::kVariable));

  EXPECT_EQ(room_form_for_cli("ultra", 10, std::nullopt, false).error(), "ultra is timed: use --seconds, not --lines");
  EXPECT_EQ(room_form_for_cli("sprint", std::nullopt, 60, false).error(),
            "sprint is a race to a number of lines: use --lines, not --seconds");
  EXPECT_EQ(room_form_for_cli("endless", 10, 60, false).error(),
            "endless takes one limit: --lines or --seconds, not both");
  EXPECT_EQ(room_form_for_cli("sprint", std::nullopt, std::nullopt, true).error(),
            "--variable-goal is for marathon rooms");
  EXPECT_NE(room_form_for_cli("custom", std::nullopt, std::nullopt, false).error().find("Create room"),
            std::string::npos);
  EXPECT_EQ(room_form_for_cli("tetris", std::nullopt, std::nullopt, false).error(),
            "unknown mode \"tetris\" (sprint, ultra, marathon, master, endless, contest)");
}

}  // namespace
}  // namespace sr::client
