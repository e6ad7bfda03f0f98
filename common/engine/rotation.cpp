#include "common/engine/rotation.h"

#include <array>
#include <cassert>

namespace sr::engine {
namespace {

using Kicks5 = std::array<Cell, 5>;
using Kicks6 = std::array<Cell, 6>;

// Index by the turn's starting orientation; clockwise and counter-clockwise turns are separate tables.
// JLSTZ clockwise: 0->R, R->2, 2->L, L->0.
constexpr std::array<Kicks5, 4> kJlstzCw = {{
    {{{0, 0}, {-1, 0}, {-1, +1}, {0, -2}, {-1, -2}}},  // 0->R
    {{{0, 0}, {+1, 0}, {+1, -1}, {0, +2}, {+1, +2}}},  // R->2
    {{{0, 0}, {+1, 0}, {+1, +1}, {0, -2}, {+1, -2}}},  // 2->L
    {{{0, 0}, {-1, 0}, {-1, -1}, {0, +2}, {-1, +2}}},  // L->0
}};
// JLSTZ counter-clockwise: 0->L, R->0, 2->R, L->2.
constexpr std::array<Kicks5, 4> kJlstzCcw = {{
    {{{0, 0}, {+1, 0}, {+1, +1}, {0, -2}, {+1, -2}}},  // 0->L
    {{{0, 0}, {+1, 0}, {+1, -1}, {0, +2}, {+1, +2}}},  // R->0
    {{{0, 0}, {-1, 0}, {-1, +1}, {0, -2}, {-1, -2}}},  // 2->R
    {{{0, 0}, {-1, 0}, {-1, -1}, {0, +2}, {-1, +2}}},  // L->2
}};
constexpr std::array<Kicks5, 4> kICw = {{
    {{{0, 0}, {-2, 0}, {+1, 0}, {-2, -1}, {+1, +2}}},  // 0->R
    {{{0, 0}, {-1, 0}, {+2, 0}, {-1, +2}, {+2, -1}}},  // R->2
    {{{0, 0}, {+2, 0}, {-1, 0}, {+2, +1}, {-1, -2}}},  // 2->L
    {{{0, 0}, {+1, 0}, {-2, 0}, {+1, -2}, {-2, +1}}},  // L->0
}};
constexpr std::array<Kicks5, 4> kICcw = {{
    {{{0, 0}, {-1, 0}, {+2, 0}, {-1, +2}, {+2, -1}}},  // 0->L
    {{{0, 0}, {+2, 0}, {-1, 0}, {+2, +1}, {-1, -2}}},  // R->0
    {{{0, 0}, {+1, 0}, {-2, 0}, {+1, -2}, {-2, +1}}},  // 2->R
    {{{0, 0}, {-2, 0}, {+1, 0}, {-2, -1}, {+1, +2}}},  // L->2
}};
// 180-degree turns ("SRS+"): 0->2, R->L, 2->0, L->R.
constexpr std::array<Kicks6, 4> kJlstz180 = {{
    {{{0, 0}, {0, +1}, {+1, +1}, {-1, +1}, {+1, 0}, {-1, 0}}},  // 0->2
    {{{0, 0}, {+1, 0}, {+1, +2}, {+1, +1}, {0, +2}, {0, +1}}},  // R->L
    {{{0, 0}, {0, -1}, {-1, -1}, {+1, -1}, {-1, 0}, {+1, 0}}},  // 2->0
    {{{0, 0}, {-1, 0}, {-1, +2}, {-1, +1}, {0, +2}, {0, +1}}},  // L->R
}};
constexpr std::array<std::array<Cell, 2>, 4> kI180 = {{
    {{{0, 0}, {0, +1}}},  // 0->2
    {{{0, 0}, {+1, 0}}},  // R->L
    {{{0, 0}, {0, -1}}},  // 2->0
    {{{0, 0}, {-1, 0}}},  // L->R
}};
constexpr std::array<Cell, 1> kInPlace = {{{0, 0}}};

}  // namespace

std::span<const Cell> kick_offsets(RotationSystem system, Piece piece, Rotation from, Rotation to) {
  assert(from != to);
  if (system == RotationSystem::kClassic || piece == Piece::kO) return kInPlace;
  const auto f = static_cast<std::size_t>(from);
  const bool is_i = piece == Piece::kI;
  if (to == rotate_cw(from)) return is_i ? std::span<const Cell>(kICw[f]) : std::span<const Cell>(kJlstzCw[f]);
  if (to == rotate_ccw(from)) return is_i ? std::span<const Cell>(kICcw[f]) : std::span<const Cell>(kJlstzCcw[f]);
  if (system == RotationSystem::kSrsNo180) return kInPlace;
  return is_i ? std::span<const Cell>(kI180[f]) : std::span<const Cell>(kJlstz180[f]);
}

}  // namespace sr::engine
