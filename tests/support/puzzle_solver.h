// A puzzle stage's solution for tests: a depth-first search over the placements the stage's rotation system reaches
// (the bot's PlacementSearch, with tucks and spins) that ends in a perfect clear, with each placement's key path.
// tests/bot/puzzle_stages_test.cpp proves every stage with it; tests/client/puzzle_replay_test.cpp plays one.
#pragma once

#include <cstddef>
#include <vector>

#include "common/bot/search.h"
#include "common/engine/config.h"
#include "common/engine/input.h"

namespace sr::test {

struct PuzzleStep {
  bot::PieceState state;
  std::vector<bot::Action> path;
};

// A perfect clear needs every piece cell to fill a hole of the stage (the stages have exactly 4 x pieces holes), so
// a placement with a cell at or above the stack's top row cannot be part of one. True when `steps` holds a solution.
inline bool solve_puzzle(const bot::Bitboard& board, const engine::GameConfig& config, std::size_t next,
                         std::vector<PuzzleStep>& steps) {
  if (next == config.fixed_sequence.size()) return board.empty();
  const auto start = bot::spawn_state(board, config.fixed_sequence[next]);
  if (!start) return false;
  bot::SearchOptions options;
  options.rotation = config.rotation;
  options.allow_180 = config.allow_180;
  bot::PlacementSearch search;  // one per level: path() reads this search's state after the deeper levels ran theirs
  const auto found = search.run(board, *start, options);
  const std::vector<bot::Placement> placements(found.begin(), found.end());
  for (const bot::Placement& p : placements) {
    const bot::PieceMask& m = bot::piece_mask(p.state.piece, p.state.rotation);
    if (p.state.y + m.max_y >= board.height()) continue;
    bot::Bitboard after = board;
    (void)bot::lock_piece(after, p.state);
    std::vector<bot::Action> path;
    search.path(p, path);
    steps.push_back(PuzzleStep{p.state, path});
    if (solve_puzzle(after, config, next + 1, steps)) return true;
    steps.pop_back();
  }
  return false;
}

// The button an action of a key path taps (an auto-shift is taps to the wall).
inline engine::Buttons button_of(bot::Action a) {
  switch (a) {
    case bot::Action::kLeft:
    case bot::Action::kDasLeft: return engine::button::kMoveLeft;
    case bot::Action::kRight:
    case bot::Action::kDasRight: return engine::button::kMoveRight;
    case bot::Action::kRotateCw: return engine::button::kRotateCw;
    case bot::Action::kRotateCcw: return engine::button::kRotateCcw;
    case bot::Action::kRotate180: return engine::button::kRotate180;
    case bot::Action::kSoftDrop: return engine::button::kSoftDrop;
    case bot::Action::kHold: return engine::button::kHold;
  }
  return 0;
}

}  // namespace sr::test
