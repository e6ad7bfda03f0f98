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

// The Ocular rotation system, version 3.4: the tetrs engine's default system, published in the tetrs engine
// (github.com/Strophox/tetrs, since renamed tetro-tui; tetrs_engine, "ORS v3.4", 2025-01-02) and unchanged in its
// successor falling-tetromino-engine 1.0.0 to 12.0.0 (src/piece_rotation.rs). The author lists kicks only for O, I,
// S, T and L and derives the rest by mirroring; below is every list written out in our box coordinates (pieces.h):
// docs/HOWTO.md, "The Ocular kick tables", explains the translation, and tests/engine/ocular_kick_test.cpp checks
// every list against the published ones.
struct OcularKicks {
  std::uint8_t count;
  std::array<Cell, 10> tests;
};
// [piece - 1][from][0 clockwise, 1 counter-clockwise, 2 half turn]
using OcularTable = std::array<std::array<std::array<OcularKicks, 3>, 4>, kPieceKinds>;

// clang-format off
constexpr OcularTable kOcular = {{
    {{  // I
        {{  // from 0: cw ->R, ccw ->L, 180 ->2
            {10, {{{0, 1}, {0, 0}, {0, -1}, {1, 1}, {1, 0}, {1, -1}, {0, 2}, {1, 2}, {-1, 1}, {-1, 0}}}},
            {10, {{{0, 1}, {0, 0}, {0, -1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}, {1, 1}, {1, 0}}}},
            {1, {{{0, 1}}}},
        }},
        {{  // from R: cw ->2, ccw ->0, 180 ->L
            {8, {{{1, 0}, {2, 0}, {1, -1}, {2, -1}, {0, 0}, {0, -1}, {-1, 0}, {-1, -1}}}},
            {8, {{{0, -1}, {-1, -1}, {0, -2}, {-1, -2}, {1, -1}, {1, -2}, {2, -1}, {2, -2}}}},
            {1, {{{1, 0}}}},
        }},
        {{  // from 2: cw ->L, ccw ->R, 180 ->0
            {10, {{{1, 0}, {1, -1}, {1, -2}, {2, 0}, {2, -1}, {2, -2}, {1, 1}, {2, 1}, {0, 0}, {0, -1}}}},
            {10, {{{-1, 0}, {-1, -1}, {-1, -2}, {-2, 0}, {-2, -1}, {-2, -2}, {-1, 1}, {-2, 1}, {0, 0}, {0, -1}}}},
            {1, {{{0, -1}}}},
        }},
        {{  // from L: cw ->0, ccw ->2, 180 ->R
            {8, {{{0, -1}, {1, -1}, {0, -2}, {1, -2}, {-1, -1}, {-1, -2}, {-2, -1}, {-2, -2}}}},
            {8, {{{-1, 0}, {-2, 0}, {-1, -1}, {-2, -1}, {0, 0}, {0, -1}, {1, 0}, {1, -1}}}},
            {1, {{{-1, 0}}}},
        }},
    }},
    {{  // J
        {{  // from 0: cw ->R, ccw ->L, 180 ->2
            {6, {{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}, {0, 1}, {-1, 1}}}},
            {6, {{{0, 0}, {0, 1}, {0, 0}, {-1, 1}, {1, 0}, {1, 1}}}},
            {5, {{{0, 0}, {-1, 0}, {1, 0}, {0, 1}, {-1, 1}}}},
        }},
        {{  // from R: cw ->2, ccw ->0, 180 ->L
            {8, {{{0, 0}, {1, 0}, {0, 1}, {-1, 0}, {1, 1}, {-1, 1}, {0, -1}, {1, -1}}}},
            {6, {{{0, 0}, {1, 0}, {0, -1}, {1, -1}, {0, 1}, {1, 1}}}},
            {5, {{{0, 0}, {1, 0}, {0, -1}, {0, 1}, {1, 1}}}},
        }},
        {{  // from 2: cw ->L, ccw ->R, 180 ->0
            {6, {{{0, 0}, {1, 0}, {0, -1}, {1, -1}, {1, 1}, {0, 1}}}},
            {7, {{{0, 0}, {0, -1}, {-1, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}}}},
            {4, {{{0, 0}, {0, -1}, {1, 0}, {1, -1}}}},
        }},
        {{  // from L: cw ->0, ccw ->2, 180 ->R
            {6, {{{0, 0}, {0, -1}, {1, 0}, {1, -1}, {-1, -1}, {-1, 0}}}},
            {6, {{{0, 0}, {-1, 0}, {-1, -1}, {0, -1}, {-1, 1}, {0, 1}}}},
            {4, {{{0, 0}, {0, -1}, {-1, 0}, {-1, -1}}}},
        }},
    }},
    {{  // L
        {{  // from 0: cw ->R, ccw ->L, 180 ->2
            {6, {{{0, 0}, {0, 1}, {0, 0}, {1, 1}, {-1, 0}, {-1, 1}}}},
            {6, {{{0, 0}, {1, 0}, {0, -1}, {1, -1}, {0, 1}, {1, 1}}}},
            {5, {{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {1, 1}}}},
        }},
        {{  // from R: cw ->2, ccw ->0, 180 ->L
            {6, {{{0, 0}, {1, 0}, {1, -1}, {0, -1}, {1, 1}, {0, 1}}}},
            {6, {{{0, 0}, {0, -1}, {-1, 0}, {-1, -1}, {1, -1}, {1, 0}}}},
            {4, {{{0, 0}, {0, -1}, {1, 0}, {1, -1}}}},
        }},
        {{  // from 2: cw ->L, ccw ->R, 180 ->0
            {7, {{{0, 0}, {0, -1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}}}},
            {6, {{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}, {-1, 1}, {0, 1}}}},
            {4, {{{0, 0}, {0, -1}, {-1, 0}, {-1, -1}}}},
        }},
        {{  // from L: cw ->0, ccw ->2, 180 ->R
            {6, {{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}, {0, 1}, {-1, 1}}}},
            {8, {{{0, 0}, {-1, 0}, {0, 1}, {1, 0}, {-1, 1}, {1, 1}, {0, -1}, {-1, -1}}}},
            {5, {{{0, 0}, {-1, 0}, {0, -1}, {0, 1}, {-1, 1}}}},
        }},
    }},
    {{  // O
        {{  // from 0: cw ->R, ccw ->L, 180 ->2
            {4, {{{1, 0}, {1, -1}, {1, 1}, {0, 0}}}},
            {4, {{{-1, 0}, {-1, -1}, {-1, 1}, {0, 0}}}},
            {1, {{{0, 0}}}},
        }},
        {{  // from R: cw ->2, ccw ->0, 180 ->L
            {4, {{{1, 0}, {1, -1}, {1, 1}, {0, 0}}}},
            {4, {{{-1, 0}, {-1, -1}, {-1, 1}, {0, 0}}}},
            {1, {{{0, 0}}}},
        }},
        {{  // from 2: cw ->L, ccw ->R, 180 ->0
            {4, {{{1, 0}, {1, -1}, {1, 1}, {0, 0}}}},
            {4, {{{-1, 0}, {-1, -1}, {-1, 1}, {0, 0}}}},
            {1, {{{0, 0}}}},
        }},
        {{  // from L: cw ->0, ccw ->2, 180 ->R
            {4, {{{1, 0}, {1, -1}, {1, 1}, {0, 0}}}},
            {4, {{{-1, 0}, {-1, -1}, {-1, 1}, {0, 0}}}},
            {1, {{{0, 0}}}},
        }},
    }},
    {{  // S
        {{  // from 0: cw ->R, ccw ->L, 180 ->2
            {5, {{{0, 1}, {0, 0}, {0, 2}, {-1, 1}, {-1, 0}}}},
            {4, {{{0, 1}, {0, 0}, {1, 1}, {-1, 0}}}},
            {2, {{{-1, 0}, {0, 1}}}},
        }},
        {{  // from R: cw ->2, ccw ->0, 180 ->L
            {6, {{{1, 0}, {0, 0}, {1, -1}, {2, 0}, {1, 1}, {0, 1}}}},
            {5, {{{0, -1}, {1, -1}, {0, -2}, {0, 0}, {1, 0}}}},
            {2, {{{2, -1}, {1, 0}}}},
        }},
        {{  // from 2: cw ->L, ccw ->R, 180 ->0
            {5, {{{1, 0}, {1, -1}, {1, 1}, {0, 0}, {0, -1}}}},
            {4, {{{-1, 0}, {-1, -1}, {0, 0}, {-2, -1}}}},
            {2, {{{-1, -2}, {0, -1}}}},
        }},
        {{  // from L: cw ->0, ccw ->2, 180 ->R
            {6, {{{0, -1}, {-1, -1}, {0, -2}, {1, -1}, {0, 0}, {-1, 0}}}},
            {5, {{{-1, 0}, {0, 0}, {-1, -1}, {-1, 1}, {0, 1}}}},
            {2, {{{0, -1}, {-1, 0}}}},
        }},
    }},
    {{  // T
        {{  // from 0: cw ->R, ccw ->L, 180 ->2
            {6, {{{0, 0}, {0, 1}, {1, 0}, {-1, 0}, {1, -1}, {-1, 1}}}},
            {6, {{{0, 0}, {0, 1}, {-1, 0}, {1, 0}, {-1, -1}, {1, 1}}}},
            {2, {{{0, 0}, {0, 1}}}},
        }},
        {{  // from R: cw ->2, ccw ->0, 180 ->L
            {7, {{{0, 0}, {1, 0}, {0, -1}, {1, -1}, {-1, -1}, {0, 1}, {1, 1}}}},
            {6, {{{0, 0}, {0, -1}, {1, 0}, {1, -1}, {0, -2}, {0, 1}}}},
            {3, {{{0, 0}, {1, 0}, {0, -1}}}},
        }},
        {{  // from 2: cw ->L, ccw ->R, 180 ->0
            {6, {{{0, 0}, {1, 0}, {0, -1}, {1, -1}, {0, -2}, {-1, 0}}}},
            {6, {{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}, {0, -2}, {1, 0}}}},
            {3, {{{0, 0}, {0, -1}, {0, -2}}}},
        }},
        {{  // from L: cw ->0, ccw ->2, 180 ->R
            {6, {{{0, 0}, {0, -1}, {-1, 0}, {-1, -1}, {0, -2}, {0, 1}}}},
            {7, {{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}, {0, 1}, {-1, 1}}}},
            {3, {{{0, 0}, {-1, 0}, {0, -1}}}},
        }},
    }},
    {{  // Z
        {{  // from 0: cw ->R, ccw ->L, 180 ->2
            {4, {{{0, 1}, {0, 0}, {-1, 1}, {1, 0}}}},
            {5, {{{0, 1}, {0, 0}, {0, 2}, {1, 1}, {1, 0}}}},
            {2, {{{1, 0}, {0, 1}}}},
        }},
        {{  // from R: cw ->2, ccw ->0, 180 ->L
            {5, {{{1, 0}, {0, 0}, {1, -1}, {1, 1}, {0, 1}}}},
            {6, {{{0, -1}, {1, -1}, {0, -2}, {-1, -1}, {0, 0}, {1, 0}}}},
            {2, {{{0, -1}, {1, 0}}}},
        }},
        {{  // from 2: cw ->L, ccw ->R, 180 ->0
            {4, {{{1, 0}, {1, -1}, {0, 0}, {2, -1}}}},
            {5, {{{-1, 0}, {-1, -1}, {-1, 1}, {0, 0}, {0, -1}}}},
            {2, {{{1, -2}, {0, -1}}}},
        }},
        {{  // from L: cw ->0, ccw ->2, 180 ->R
            {5, {{{0, -1}, {-1, -1}, {0, -2}, {0, 0}, {-1, 0}}}},
            {6, {{{-1, 0}, {0, 0}, {-1, -1}, {-2, 0}, {-1, 1}, {0, 1}}}},
            {2, {{{-2, -1}, {-1, 0}}}},
        }},
    }},

}};
// clang-format on

std::span<const Cell> ocular_kicks(Piece piece, Rotation from, Rotation to) {
  const int turn = to == rotate_cw(from) ? 0 : to == rotate_ccw(from) ? 1 : 2;
  const OcularKicks& k =
      kOcular[static_cast<std::size_t>(piece) - 1][static_cast<std::size_t>(from)][static_cast<std::size_t>(turn)];
  return std::span<const Cell>(k.tests.data(), k.count);
}

}  // namespace

std::span<const Cell> kick_offsets(RotationSystem system, Piece piece, Rotation from, Rotation to) {
  assert(from != to);
  if (system == RotationSystem::kOcular) return ocular_kicks(piece, from, to);
  if (system == RotationSystem::kClassic || piece == Piece::kO) return kInPlace;
  const auto f = static_cast<std::size_t>(from);
  const bool is_i = piece == Piece::kI;
  if (to == rotate_cw(from)) return is_i ? std::span<const Cell>(kICw[f]) : std::span<const Cell>(kJlstzCw[f]);
  if (to == rotate_ccw(from)) return is_i ? std::span<const Cell>(kICcw[f]) : std::span<const Cell>(kJlstzCcw[f]);
  if (system == RotationSystem::kSrsNo180) return kInPlace;
  return is_i ? std::span<const Cell>(kI180[f]) : std::span<const Cell>(kJlstz180[f]);
}

bool piece_turns(RotationSystem system, Piece piece) { return piece != Piece::kO || system == RotationSystem::kOcular; }

std::int8_t kick_record(RotationSystem system, bool half_turn, std::size_t test) {
  const int base = !half_turn ? 0 : system == RotationSystem::kOcular ? 16 : 8;
  return static_cast<std::int8_t>(base + static_cast<int>(test));
}

}  // namespace sr::engine
