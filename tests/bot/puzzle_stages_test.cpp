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

namespace sr::bot {
namespace {

struct Step {
  PieceState state;
  std::vector<Action> path;
};

// A perfect clear needs every piece cell to fill a hole of the stage (the stages have exactly 4 x pieces holes), so
// a placement with a cell at or above the stack's top row cannot be part of one.
bool solve(const Bitboard& board, const engine::GameConfig& config, std::size_t next, std::vector<Step>& steps) {
  if (next == config.fixed_sequence.size()) return board.empty();
  const auto start = spawn_state(board, config.fixed_sequence[next]);
  if (!start) return false;
  SearchOptions options;
  options.rotation = config.rotation;
  options.allow_180 = config.allow_180;
  PlacementSearch search;  // one per level: path() reads this search's state after the deeper levels ran theirs
  const auto found = search.run(board, *start, options);
  const std::vector<Placement> placements(found.begin(), found.end());
  for (const Placement& p : placements) {
    const PieceMask& m = piece_mask(p.state.piece, p.state.rotation);
    if (p.state.y + m.max_y >= board.height()) continue;
    Bitboard after = board;
    (void)lock_piece(after, p.state);
    std::vector<Action> path;
    search.path(p, path);
    steps.push_back(Step{p.state, path});
    if (solve(after, config, next + 1, steps)) return true;
    steps.pop_back();
  }
  return false;
}

engine::Buttons button_of(Action a) {
  switch (a) {
    case Action::kLeft:
    case Action::kDasLeft: return engine::button::kMoveLeft;
    case Action::kRight:
    case Action::kDasRight: return engine::button::kMoveRight;
    case Action::kRotateCw: return engine::button::kRotateCw;
    case Action::kRotateCcw: return engine::button::kRotateCcw;
    case Action::kRotate180: return engine::button::kRotate180;
    case Action::kSoftDrop: return engine::button::kSoftDrop;
    case Action::kHold: return engine::button::kHold;
  }
  return 0;
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
