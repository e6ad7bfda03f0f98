// Puzzle stages: a fixed board and a fixed piece sequence whose goal is a perfect clear, showing off what the Ocular
// rotation system (RotationSystem::kOcular) can do.
//
// The stages are the 24 of the tetrs puzzle mode (github.com/Strophox/tetro-tui, src/game_modes/game_modifiers/
// puzzle.rs, as of commit a38fbf59), as data: their boards and pieces are facts, the rules around them are ours.
// tests/bot/puzzle_stages_test.cpp proves every stage solvable by a search over the placements the Ocular kicks
// reach, and plays each solution through Game::update.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/game.h"

namespace sr::engine {

struct PuzzleStage {
  std::string_view name;
  std::vector<std::string_view> rows;  // top row first, 10 cells each: '.' empty, 'G' garbage; no row is full
  std::string_view pieces;             // the whole sequence, in order, as letters ("TLJ")
};

// One retry per stage, as in the tetrs README: a stage may be played twice before it counts as failed.
inline constexpr int kPuzzleAttempts = 2;

// The stages in play order. The same list every call, in every build.
[[nodiscard]] std::span<const PuzzleStage> puzzle_stages();

// The game of one stage: Ocular rotation, the stage's board and pieces (kFixed), no hold, no preview, tetrs scoring,
// level 1 gravity, and a limit of exactly the stage's piece count, so the game finishes when the last piece locks.
// Mode kCustom (a stage is a custom game with a preset). check_config() accepts it.
[[nodiscard]] GameConfig make_puzzle(const PuzzleStage& stage);

// Whether a game of make_puzzle() cleared its stage: it finished (every piece locked, no top out) with the matrix
// empty.
[[nodiscard]] bool puzzle_cleared(const Game& game);

}  // namespace sr::engine
