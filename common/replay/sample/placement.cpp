#include "common/replay/sample/placement.h"

#include <bit>
#include <cstdlib>
#include <vector>

#include "common/engine/pieces.h"

namespace sr::replay::sample {
namespace {

// The row a piece starts its drop from: the spawn row, less the guideline's one-row drop.
int drop_start_y(engine::Piece piece) { return engine::spawn_position(piece).y - 1; }

int rotations_of(engine::Piece piece) {
  switch (piece) {
    case engine::Piece::kO: return 1;
    case engine::Piece::kI:
    case engine::Piece::kS:
    case engine::Piece::kZ: return 2;
    default: return 4;
  }
}

// Integer version of a well-known linear evaluation (weights x 1000).
int evaluate(const engine::Matrix& m, int lines) {
  int heights[engine::kMatrixWidth] = {};
  int holes = 0;
  for (int x = 0; x < engine::kMatrixWidth; ++x) {
    bool covered = false;
    for (int y = engine::kMatrixHeight - 1; y >= 0; --y) {
      if (m.occupied(x, y)) {
        if (!covered) heights[x] = y + 1;
        covered = true;
      } else if (covered) {
        ++holes;
      }
    }
  }
  int aggregate = 0, bumpiness = 0;
  for (int x = 0; x < engine::kMatrixWidth; ++x) {
    aggregate += heights[x];
    if (x > 0) bumpiness += std::abs(heights[x] - heights[x - 1]);
  }
  return -510 * aggregate + 760 * lines - 357 * holes - 184 * bumpiness;
}

std::vector<Target> candidates(const engine::Matrix& matrix, engine::Piece piece) {
  std::vector<Target> out;
  const int top = drop_start_y(piece);
  const int spawn_x = engine::spawn_position(piece).x;
  for (int r = 0; r < rotations_of(piece); ++r) {
    const auto rot = static_cast<engine::Rotation>(r);
    if (matrix.collides(piece, rot, spawn_x, top)) continue;
    for (int x = -2; x < engine::kMatrixWidth; ++x) {
      // Reachable if the piece can slide along the top row from its spawn column.
      bool path = true;
      for (int step = spawn_x; step != x && path; step += (x > spawn_x ? 1 : -1)) {
        path = !matrix.collides(piece, rot, step + (x > spawn_x ? 1 : -1), top);
      }
      if (!path || matrix.collides(piece, rot, x, top)) continue;
      int y = top;
      while (!matrix.collides(piece, rot, x, y - 1)) --y;
      engine::Matrix after = matrix;
      after.place(piece, rot, x, y);
      const int lines = std::popcount(after.clear_full_rows());
      out.push_back(Target{rot, x, y, evaluate(after, lines)});
    }
  }
  return out;
}

}  // namespace

std::optional<Target> best_placement(const engine::Matrix& matrix, engine::Piece piece) {
  std::optional<Target> best;
  for (const Target& t : candidates(matrix, piece)) {
    if (!best || t.score > best->score) best = t;
  }
  return best;
}

std::optional<Target> nth_placement(const engine::Matrix& matrix, engine::Piece piece, unsigned n) {
  const std::vector<Target> all = candidates(matrix, piece);
  if (all.empty()) return std::nullopt;
  return all[n % all.size()];
}

}  // namespace sr::replay::sample
