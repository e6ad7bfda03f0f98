// ReachPlanner (common/bot/reach.h): a suggested placement is reached whenever a person could reach it, at 20G and
// at the fastest level gravity, and the plan it returns does in the real game exactly what it did in the search.
#include "common/bot/reach.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/bot/bot_test_support.h"

namespace sr::bot {
namespace {

using engine::Piece;
using engine::Rotation;
using engine::SpinKind;

// A game on `rows` with the given pieces, at 20G or at a fixed level, with the first piece out.
engine::Game game_on(std::initializer_list<std::string_view> rows, std::vector<Piece> sequence, bool twenty_g,
                     std::int32_t level = 15) {
  engine::GameConfig c = test::config_with(rows, std::move(sequence));
  if (twenty_g) {
    c.gravity = engine::Gravity::k20G;
  } else {
    c.start_level = level;
    c.level_up = false;
  }
  engine::Game g(c, 1);
  (void)g.update(0);
  return g;
}

// Plays the plan on the game and returns the lock it made, with its spin.
struct Lock {
  PieceState state;
  SpinKind spin = SpinKind::kNone;
};
Lock play_to_lock(engine::Game& g, const PlanResult& plan) {
  Lock lock;
  bool locked = false;
  engine::TimeUs last = -1;
  auto feed = [&](engine::TimeUs t, std::optional<engine::Buttons> buttons) {
    const engine::UpdateResult r = g.update(t, buttons);
    EXPECT_EQ(r.error, engine::UpdateError::kOk);
    for (const engine::Event& e : r.events) {
      if (e.kind == engine::EventKind::kLock && !locked) {
        locked = true;
        lock.state = PieceState{e.piece, e.rotation, e.x, e.y};
      }
      if (e.kind == engine::EventKind::kClear && locked) lock.spin = e.spin;
    }
  };
  for (const engine::InputChange& c : plan.inputs) {
    EXPECT_EQ(c.time_us % 1000, 0);
    EXPECT_GT(c.time_us, last);
    last = c.time_us;
    feed(c.time_us, c.buttons);
  }
  if (!locked) feed(plan.lock_us, std::nullopt);  // the lock delay ran out before a hard drop was needed
  EXPECT_TRUE(locked);
  return lock;
}

// A T-spin double slot under an overhang: the T can only get in by turning into it (checked with the guideline
// SRS tables in tbp_tricky.py's search).
const std::initializer_list<std::string_view> kTsd = {
    "..........",  //
    "...#......",  //
    "###...####",  //
    "####.#####",  //
};

TEST(Reach, ATSpinDoubleAtTwentyG) {
  engine::Game g = game_on(kTsd, {Piece::kT, Piece::kI}, true);
  // T south with its flat side up, its stem in the hole: box (3, 0) south covers (3..5, 1) and (4, 0).
  const ReachGoal goal{PieceState{Piece::kT, Rotation::kSouth, 3, 0}, SpinKind::kFull};
  ReachPlanner planner;
  const auto r = planner.plan(g, std::span(&goal, 1), ReachRequest{});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->goal, 0);
  EXPECT_EQ(r->spin, SpinKind::kFull);
  const Lock lock = play_to_lock(g, r->plan);
  EXPECT_TRUE(same_cells(lock.state, goal.state));
  EXPECT_EQ(lock.spin, SpinKind::kFull);
  EXPECT_EQ(g.stats().lines, 2);
}

TEST(Reach, ATSpinDoubleAtLevelFifteen) {
  engine::Game g = game_on(kTsd, {Piece::kT, Piece::kI}, false, 15);
  const ReachGoal goal{PieceState{Piece::kT, Rotation::kSouth, 3, 0}, SpinKind::kFull};
  ReachPlanner planner;
  const auto r = planner.plan(g, std::span(&goal, 1), ReachRequest{});
  ASSERT_TRUE(r.has_value());
  const Lock lock = play_to_lock(g, r->plan);
  EXPECT_EQ(lock.spin, SpinKind::kFull);
  EXPECT_EQ(g.stats().lines, 2);
}

// A T-spin triple that only the fifth kick test of a turn gets into (found, and its kick checked, with the guideline
// SRS tables in a search like tbp_tricky.py's).
TEST(Reach, AKickedTSpinTripleAtTwentyGAndAtLevelFifteen) {
  for (const bool twenty_g : {true, false}) {
    engine::Game g = game_on(
        {
            "..#.......",  //
            ".#........",  //
            "##.#######",  //
            "##..######",  //
            "##.#######",  //
        },
        {Piece::kT, Piece::kI}, twenty_g);
    // T east, pointing right, in the column-2 shaft: box (1, 0) east covers (2, 0..2) and (3, 1).
    const ReachGoal goal{PieceState{Piece::kT, Rotation::kEast, 1, 0}, SpinKind::kFull};
    ReachPlanner planner;
    const auto r = planner.plan(g, std::span(&goal, 1), ReachRequest{});
    ASSERT_TRUE(r.has_value()) << (twenty_g ? "20G" : "level 15");
    EXPECT_EQ(r->spin, SpinKind::kFull);
    const Lock lock = play_to_lock(g, r->plan);
    EXPECT_TRUE(same_cells(lock.state, goal.state));
    EXPECT_EQ(lock.spin, SpinKind::kFull);
    EXPECT_EQ(g.stats().lines, 3) << (twenty_g ? "20G" : "level 15");
  }
}

TEST(Reach, ATuckUnderAnOverhangAtLevelFifteen) {
  // An O can slide under the roof on the left only along the floor.
  engine::Game g = game_on(
      {
          "..........",  //
          "####......",  //
          "..........",  //
          "..........",  //
      },
      {Piece::kO, Piece::kI}, false, 15);
  const ReachGoal goal{PieceState{Piece::kO, Rotation::kNorth, 0, 0}, SpinKind::kNone};
  ReachPlanner planner;
  const auto r = planner.plan(g, std::span(&goal, 1), ReachRequest{});
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(same_cells(play_to_lock(g, r->plan).state, goal.state));
}

TEST(Reach, AFarPlacementOverATallStackAtLevelFifteen) {
  // The wall on the left is 17 rows high: the I must get over it before gravity takes it down.
  std::initializer_list<std::string_view> tall = {
      "..........", "#.........", "#.........", "#.........", "#.........", "#.........",
      "#.........", "#.........", "#.........", "#.........", "#.........", "#.........",
      "#.........", "#.........", "#.........", "#.........", "#.........", "#.........",
  };
  engine::Game g = game_on(tall, {Piece::kI, Piece::kO}, false, 15);
  // I east in column 9, on the floor.
  const ReachGoal goal{PieceState{Piece::kI, Rotation::kEast, 7, 0}, SpinKind::kNone};
  ReachPlanner planner;
  const auto r = planner.plan(g, std::span(&goal, 1), ReachRequest{});
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(same_cells(play_to_lock(g, r->plan).state, goal.state));
}

TEST(Reach, TriesTheGoalsInOrderAndSkipsWhatCannotBeReached) {
  engine::Game g = game_on(kTsd, {Piece::kT, Piece::kI}, true);
  const std::vector<ReachGoal> goals = {
      {PieceState{Piece::kT, Rotation::kNorth, 3, 10}, SpinKind::kNone},  // floating in mid-air
      {PieceState{Piece::kI, Rotation::kNorth, 0, 5}, SpinKind::kNone},   // another piece, not the hold one either
      {PieceState{Piece::kT, Rotation::kNorth, 7, 1}, SpinKind::kNone},   // on the right shelf: reachable
      {PieceState{Piece::kT, Rotation::kSouth, 3, 0}, SpinKind::kFull},   // reachable too, but later in the list
  };
  ReachPlanner planner;
  const auto r = planner.plan(g, goals, ReachRequest{});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->goal, 2);
  EXPECT_TRUE(same_cells(play_to_lock(g, r->plan).state, goals[2].state));
}

TEST(Reach, ForfeitsOnlyWhenNoGoalCanBeReached) {
  // The slot is sealed: a T would fit in it, resting on the floor, but cannot get there.
  engine::Game g = game_on({"..........", "#########.", "###...####", "####.#####"}, {Piece::kT, Piece::kI}, true);
  const std::vector<ReachGoal> goals = {
      {PieceState{Piece::kT, Rotation::kNorth, 3, 10}, SpinKind::kNone},  // floating
      {PieceState{Piece::kT, Rotation::kSouth, 3, 0}, SpinKind::kFull},   // sealed in
  };
  ReachPlanner planner;
  EXPECT_FALSE(planner.plan(g, goals, ReachRequest{}).has_value());
}

TEST(Reach, TheSameCellsWithAnotherSpinAreALastResort) {
  engine::Game g = game_on(kTsd, {Piece::kT, Piece::kI}, true);
  // Asked without a spin, but a T can only get into the slot by turning into it.
  const ReachGoal goal{PieceState{Piece::kT, Rotation::kSouth, 3, 0}, SpinKind::kNone};
  ReachPlanner planner;
  const auto r = planner.plan(g, std::span(&goal, 1), ReachRequest{});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->spin, SpinKind::kFull);
  EXPECT_EQ(play_to_lock(g, r->plan).spin, SpinKind::kFull);
}

TEST(Reach, HoldsForTheOtherPiece) {
  engine::Game g = game_on(kTsd, {Piece::kI, Piece::kT}, true);
  const ReachGoal goal{PieceState{Piece::kT, Rotation::kSouth, 3, 0}, SpinKind::kFull};
  ReachPlanner planner;
  const auto r = planner.plan(g, std::span(&goal, 1), ReachRequest{});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(play_to_lock(g, r->plan).spin, SpinKind::kFull);
  EXPECT_EQ(g.hold(), Piece::kI);
}

TEST(Reach, SameGameAndGoalsGiveTheSameInputs) {
  const ReachGoal goal{PieceState{Piece::kT, Rotation::kSouth, 3, 0}, SpinKind::kFull};
  ReachPlanner a, b;
  const engine::Game g = game_on(kTsd, {Piece::kT, Piece::kI}, false);
  const auto ra = a.plan(g, std::span(&goal, 1), ReachRequest{});
  const auto rb = b.plan(g, std::span(&goal, 1), ReachRequest{});
  ASSERT_TRUE(ra && rb);
  EXPECT_EQ(ra->plan.inputs, rb->plan.inputs);
}

}  // namespace
}  // namespace sr::bot
