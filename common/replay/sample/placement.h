// A small placement search for the scripted players: every rotation and column a piece can be hard-dropped into
// from the top of the matrix, scored by a fixed integer evaluation (aggregate height, holes, bumpiness, lines).
// Deterministic: ties go to the first candidate in (rotation, x) order. Not a bot: common/bot is that.
#pragma once

#include <optional>

#include "common/engine/matrix.h"
#include "common/engine/types.h"

namespace sr::replay::sample {

struct Target {
  engine::Rotation rotation = engine::Rotation::kNorth;
  int x = 0;      // box x (pieces.h)
  int y = 0;      // box y it lands at
  int score = 0;  // higher is better
};

// The best hard-drop placement of `piece`, or nullopt when it fits nowhere.
[[nodiscard]] std::optional<Target> best_placement(const engine::Matrix& matrix, engine::Piece piece);

// The n-th reachable placement (n taken modulo their count), for players that choose at random.
[[nodiscard]] std::optional<Target> nth_placement(const engine::Matrix& matrix, engine::Piece piece, unsigned n);

}  // namespace sr::replay::sample
