// Every puzzle stage (common/engine/puzzles.h) is solvable: a depth-first search over the placements the Ocular
// kicks reach (the bot's PlacementSearch, static model with tucks and spins) finds a sequence that ends in a perfect
// clear, and playing that sequence key by key through Game::update clears the stage.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "common/bot/chooser.h"
#include "common/bot/evaluation.h"
#include "common/bot/input_plan.h"
#include "common/bot/search.h"
#include "common/engine/game.h"
#include "common/engine/puzzles.h"
#include "tests/support/puzzle_solver.h"

namespace sr::bot {
namespace {

using Step = sr::test::PuzzleStep;
using sr::test::button_of;

bool solve(const Bitboard& board, const engine::GameConfig& config, std::size_t next, std::vector<Step>& steps) {
  return sr::test::solve_puzzle(board, config, next, steps);
}

// Plays the steps as taps 1 us apart (soft drop goes to the floor with sdf 0; an auto-shift is taps to the wall).
engine::Game play(engine::GameConfig config, const std::vector<Step>& steps) {
  config.handling.sdf = 0;
  engine::Game game(config, 1);
  engine::TimeUs t = 0;
  std::vector<engine::Event> locks;
  auto tap = [&](engine::Buttons b) {
    for (const engine::Buttons held : {b, engine::Buttons{0}}) {
      const engine::UpdateResult r = game.update(t, held);
      EXPECT_EQ(r.error, engine::UpdateError::kOk);
      for (const engine::Event& e : r.events) {
        if (e.kind == engine::EventKind::kLock) locks.push_back(e);
      }
    }
    ++t;
  };
  (void)game.update(t++);
  for (const Step& step : steps) {
    for (const Action a : step.path) {
      const int repeats = a == Action::kDasLeft || a == Action::kDasRight ? engine::kMatrixWidth : 1;
      for (int i = 0; i < repeats; ++i) tap(button_of(a));
    }
    tap(engine::button::kHardDrop);
    if (locks.empty()) {
      ADD_FAILURE() << "no lock";
      break;
    }
    const engine::Event& lock = locks.back();
    EXPECT_TRUE(same_cells(PieceState{lock.piece, lock.rotation, lock.x, lock.y}, step.state))
        << "the engine locked the piece elsewhere than the search predicted";
  }
  EXPECT_EQ(locks.size(), steps.size());
  return game;
}

TEST(PuzzleStages, EveryStageHasAPerfectClearTheEngineAgreesWith) {
  ASSERT_EQ(engine::puzzle_stages().size(), 24u);
  for (const engine::PuzzleStage& stage : engine::puzzle_stages()) {
    SCOPED_TRACE(std::string(stage.name));
    const engine::GameConfig config = engine::make_puzzle(stage);
    ASSERT_TRUE(engine::check_config(config).ok());
    engine::Game fresh(config, 1);
    const Bitboard board(fresh.matrix());
    std::vector<Step> steps;
    ASSERT_TRUE(solve(board, config, 0, steps));
    const engine::Game game = play(config, steps);
    EXPECT_TRUE(engine::puzzle_cleared(game));
    EXPECT_EQ(game.stats().pieces, static_cast<std::int64_t>(stage.pieces.size()));
  }
}

// The stages show off Ocular: under SRS (with its 180-degree kicks) half of them have no perfect clear at all,
// among them three of the four I-spins, the T-spin triple and its setup, and the final crossover.
TEST(PuzzleStages, HalfOfTheStagesNeedOcular) {
  std::vector<std::string> solvable;
  for (const engine::PuzzleStage& stage : engine::puzzle_stages()) {
    engine::GameConfig config = engine::make_puzzle(stage);
    config.rotation = engine::RotationSystem::kSrs;
    engine::Game fresh(config, 1);
    std::vector<Step> steps;
    if (solve(Bitboard(fresh.matrix()), config, 0, steps)) solvable.emplace_back(stage.name);
  }
  EXPECT_EQ(solvable,
            (std::vector<std::string>{"I-spin II", "S-spin", "S-spin II", "Z-spin galore", "SuZ-spins", "L-spin",
                                      "L/J-spins II", "7-7", "L-turn", "T-spin", "T-spin II", "T-tuck"}));
}

}  // namespace
}  // namespace sr::bot
