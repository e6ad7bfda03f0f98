#include "common/bot/input_plan.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/bot/chooser.h"
#include "common/bot/search.h"
#include "tests/bot/bot_test_support.h"

namespace sr::bot {
namespace {

using engine::Piece;
using engine::Rotation;
namespace button = engine::button;

// A game whose first piece is out, on the given board with a fixed sequence.
engine::Game started(const engine::GameConfig& config) {
  engine::Game g(config, 1);
  EXPECT_EQ(g.update(0).error, engine::UpdateError::kOk);
  EXPECT_TRUE(g.active().has_value());
  return g;
}

struct Planned {
  std::optional<PlanResult> result;
  std::vector<Action> actions;
};

// Plans the placement of the active piece at `target` found by the search with `options`.
Planned plan_to(const engine::Game& g, const PieceState& target, const SearchOptions& options,
                const Timing& timing = {}, engine::TimeUs not_before = 0) {
  const BotView view = view_of(g);
  PlacementSearch search;
  const auto ps = search.run(view.board, view.active, options);
  Planned out;
  for (const Placement& p : ps) {
    if (!same_cells(p.state, target)) continue;
    std::vector<PieceState> states;
    search.path(p, out.actions);
    search.path_states(p, states);
    PlanRequest request;
    request.actions = out.actions;
    request.expected = states;
    request.target = p.state;
    request.lock_not_before_us = not_before;
    engine::Random rng(5);
    out.result = plan_inputs(g, request, timing, rng);
    return out;
  }
  ADD_FAILURE() << "target not among the search's placements";
  return out;
}

// Feeds a plan to the game and returns where the piece locked.
std::optional<PieceState> play(engine::Game& g, const PlanResult& plan) {
  std::optional<PieceState> locked;
  for (const engine::InputChange& e : plan.inputs) {
    const auto r = g.update(e.time_us, e.buttons);
    EXPECT_EQ(r.error, engine::UpdateError::kOk);
    for (const engine::Event& ev : r.events) {
      if (ev.kind == engine::EventKind::kLock && !locked) locked = PieceState{ev.piece, ev.rotation, ev.x, ev.y};
    }
  }
  if (!locked && plan.lock_us > g.now()) {
    for (const engine::Event& ev : g.update(plan.lock_us).events) {
      if (ev.kind == engine::EventKind::kLock && !locked) locked = PieceState{ev.piece, ev.rotation, ev.x, ev.y};
    }
  }
  return locked;
}

TEST(InputPlan, LandsWhereItAimsAndLeavesTheGameAlone) {
  engine::Game g = started(test::config_with({}, {Piece::kT, Piece::kO}));
  const std::uint64_t before = g.state_hash();
  const PieceState target{Piece::kT, Rotation::kEast, -1, 0};  // upright at the left wall
  const Planned p = plan_to(g, target, SearchOptions{});
  ASSERT_TRUE(p.result);
  EXPECT_EQ(g.state_hash(), before);  // planning plays on a copy
  EXPECT_EQ(play(g, *p.result), std::optional(target));
}

TEST(InputPlan, KeepsTheTimingRules) {
  engine::Game g = started(test::config_with({}, {Piece::kJ, Piece::kO}));
  const Timing timing{30, 60, 15, 30};
  const Planned p = plan_to(g, PieceState{Piece::kJ, Rotation::kSouth, 5, 0}, SearchOptions{}, timing);
  ASSERT_TRUE(p.result);
  const auto& in = p.result->inputs;
  ASSERT_GE(in.size(), 4u);
  engine::Buttons held = 0;
  std::array<engine::TimeUs, 8> down{};
  engine::TimeUs last = -1;
  for (const engine::InputChange& e : in) {
    EXPECT_EQ(e.time_us % 1000, 0) << "off the 1 ms grid";
    EXPECT_GT(e.time_us, last);
    last = e.time_us;
    for (int b = 0; b < 8; ++b) {
      const bool was = held & (1u << b), is = e.buttons & (1u << b);
      if (!was && is) down[static_cast<std::size_t>(b)] = e.time_us;
      if (was && !is) {
        const engine::TimeUs held_us = e.time_us - down[static_cast<std::size_t>(b)];
        EXPECT_GE(held_us, 30'000) << "button bit " << b;
        EXPECT_LE(held_us, 61'000) << "button bit " << b;  // a release may slip a millisecond to keep order
      }
    }
    held = e.buttons;
  }
  // The plan ends with the hard drop pressed; the next plan releases it.
  EXPECT_EQ(in.back().buttons, button::kHardDrop);
  EXPECT_EQ(p.result->carry.buttons, button::kHardDrop);
  EXPECT_GE(p.result->carry.release_us - in.back().time_us, 30'000);
}

TEST(InputPlan, AutoShiftIsUsedForTheWall) {
  engine::Game g = started(test::config_with({}, {Piece::kO, Piece::kO}));
  const Planned p = plan_to(g, PieceState{Piece::kO, Rotation::kNorth, 8, 0}, SearchOptions{});
  ASSERT_TRUE(p.result);
  EXPECT_EQ(p.actions, std::vector<Action>{Action::kDasRight});
  // Right is held through DAS and the repeats: one column on the press, one at 167 ms, two more 33 ms apart.
  engine::TimeUs pressed = -1, released = -1;
  for (const engine::InputChange& e : p.result->inputs) {
    if ((e.buttons & button::kMoveRight) && pressed < 0) pressed = e.time_us;
    if (!(e.buttons & button::kMoveRight) && pressed >= 0 && released < 0) released = e.time_us;
  }
  EXPECT_GE(released - pressed, 167'000 + 2 * 33'000);
  EXPECT_EQ(play(g, *p.result), std::optional(PieceState{Piece::kO, Rotation::kNorth, 8, 0}));
}

TEST(InputPlan, SoftDropTuckPlaysOutInTheEngine) {
  engine::Game g = started(test::config_with(
      {
          "###.......",
          "..........",
      },
      {Piece::kI, Piece::kO}));
  const PieceState tucked{Piece::kI, Rotation::kNorth, 0, -2};
  const Planned p = plan_to(g, tucked, SearchOptions{});
  ASSERT_TRUE(p.result);
  EXPECT_EQ(play(g, *p.result), std::optional(tucked));
}

TEST(InputPlan, WaitsForThePace) {
  engine::Game g = started(test::config_with({}, {Piece::kT, Piece::kO}));
  const Planned p = plan_to(g, PieceState{Piece::kT, Rotation::kNorth, 3, -1}, SearchOptions{}, Timing{}, 700'000);
  ASSERT_TRUE(p.result);
  EXPECT_GE(p.result->inputs.back().time_us, 700'000);
  EXPECT_EQ(p.result->lock_us, p.result->inputs.back().time_us);
}

TEST(InputPlan, RefusesAPlanThatGravitySpoils) {
  // 20G: the T is on the floor at once. A path that would carry it over the tower from the sky (as the static model
  // sees it) cannot play out, and the planner says so instead of locking it somewhere else.
  engine::GameConfig c = test::config_with(
      {
          ".......#..",
          ".......#..",
          ".......#..",
      },
      {Piece::kT, Piece::kO});
  c.gravity = engine::Gravity::k20G;
  engine::Game g = started(c);
  const std::vector<Action> actions = {Action::kDasRight};
  const std::vector<PieceState> expected = {PieceState{Piece::kT, Rotation::kNorth, 7, 18}};
  PlanRequest request;
  request.actions = actions;
  request.expected = expected;
  request.target = PieceState{Piece::kT, Rotation::kNorth, 7, 2};  // on top of the tower
  engine::Random rng(1);
  EXPECT_FALSE(plan_inputs(g, request, Timing{}, rng).has_value());
}

TEST(InputPlan, HardDropFallbackAlwaysLocks) {
  engine::Game g = started(test::config_with({}, {Piece::kZ, Piece::kO}));
  const PlanResult r = plan_hard_drop(g, -1, Carry{});
  ASSERT_FALSE(r.inputs.empty());
  EXPECT_TRUE(play(g, r).has_value());
}

TEST(SameCells, MatchesEquivalentOrientations) {
  EXPECT_TRUE(same_cells(PieceState{Piece::kS, Rotation::kNorth, 2, 3}, PieceState{Piece::kS, Rotation::kSouth, 2, 4}));
  EXPECT_FALSE(
      same_cells(PieceState{Piece::kT, Rotation::kNorth, 2, 3}, PieceState{Piece::kT, Rotation::kSouth, 2, 4}));
}

}  // namespace
}  // namespace sr::bot
