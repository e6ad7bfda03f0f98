// The Ocular rotation system (RotationSystem::kOcular) against its published description.
//
// Source: the tetrs engine's "Ocular Rotation System" v3.4 (github.com/Strophox/tetrs, renamed tetro-tui, file
// tetrs_engine/src/piece_rotation.rs, commit b484aa89 "ORS v3.4", 2025-01-02), unchanged in its successor
// falling-tetromino-engine 1.0.0 to 12.0.0 (github.com/Strophox/falling-tetromino-engine, src/piece_rotation.rs,
// function ocular_rotate). The lists below are typed in from there, in that engine's own coordinates: a piece's
// position is the bottom-left corner of the tight box around its four cells, y up, and the author writes kicks only
// for O (left turns), I (left turns), S, T (left turns) and L, deriving the rest by mirroring. This test repeats that
// derivation and compares, kick by kick, the cells the engine's offsets give with the cells the published offsets
// give, so the engine's box coordinates and the published tight-box coordinates are checked against each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "common/engine/rotation.h"
#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using Offset = std::pair<int, int>;
using Offsets = std::vector<Offset>;
using test::CellSet;
using test::kE;
using test::kN;
using test::kS;
using test::kW;
using test::mirror_orientation;

// The published cells of each piece per orientation, relative to the tight box (falling-tetromino-engine
// src/core.rs, Tetromino::minos).
CellSet published_minos(Piece p, Rotation r) {
  const bool flat = r == kN || r == kS;
  switch (p) {
    case Piece::kO: return {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
    case Piece::kI: return flat ? CellSet{{0, 0}, {1, 0}, {2, 0}, {3, 0}} : CellSet{{0, 0}, {0, 1}, {0, 2}, {0, 3}};
    case Piece::kS: return flat ? CellSet{{0, 0}, {1, 0}, {1, 1}, {2, 1}} : CellSet{{0, 1}, {0, 2}, {1, 0}, {1, 1}};
    case Piece::kZ: return flat ? CellSet{{0, 1}, {1, 0}, {1, 1}, {2, 0}} : CellSet{{0, 0}, {0, 1}, {1, 1}, {1, 2}};
    case Piece::kT: {
      const std::array<CellSet, 4> t = {
          CellSet{{0, 0}, {1, 0}, {1, 1}, {2, 0}}, CellSet{{0, 0}, {0, 1}, {0, 2}, {1, 1}},
          CellSet{{0, 1}, {1, 0}, {1, 1}, {2, 1}}, CellSet{{0, 1}, {1, 0}, {1, 1}, {1, 2}}};
      return t[static_cast<std::size_t>(r)];
    }
    case Piece::kL: {
      const std::array<CellSet, 4> l = {
          CellSet{{0, 0}, {1, 0}, {2, 0}, {2, 1}}, CellSet{{0, 0}, {0, 1}, {0, 2}, {1, 0}},
          CellSet{{0, 0}, {0, 1}, {1, 1}, {2, 1}}, CellSet{{0, 2}, {1, 0}, {1, 1}, {1, 2}}};
      return l[static_cast<std::size_t>(r)];
    }
    case Piece::kJ: {
      const std::array<CellSet, 4> j = {
          CellSet{{0, 0}, {0, 1}, {1, 0}, {2, 0}}, CellSet{{0, 0}, {0, 1}, {0, 2}, {1, 2}},
          CellSet{{0, 1}, {1, 1}, {2, 0}, {2, 1}}, CellSet{{0, 0}, {1, 0}, {1, 1}, {1, 2}}};
      return j[static_cast<std::size_t>(r)];
    }
    default: ADD_FAILURE() << "not a tetromino"; return {};
  }
}

enum class Turn { kCw, kCcw, kHalf };

// The published 90-degree lists as the author writes them: O, I and T for left (counter-clockwise) turns only, S and
// L for both; every other list is a mirror image (published() below).
Offsets published_quarter(Piece p, Rotation o, bool left) {
  const bool flat = o == kN || o == kS;
  switch (p) {
    case Piece::kO: return {{-1, 0}, {-1, -1}, {-1, 1}, {0, 0}};
    case Piece::kI:
      if (flat) return {{1, -1}, {1, -2}, {1, -3}, {0, -1}, {0, -2}, {0, -3}, {1, 0}, {0, 0}, {2, -1}, {2, -2}};
      return {{-2, 1}, {-3, 1}, {-2, 0}, {-3, 0}, {-1, 1}, {-1, 0}, {0, 1}, {0, 0}};
    case Piece::kS:
      if (flat)
        return left ? Offsets{{0, 0}, {0, -1}, {1, 0}, {-1, -1}} : Offsets{{1, 0}, {1, -1}, {1, 1}, {0, 0}, {0, -1}};
      return left ? Offsets{{-1, 0}, {0, 0}, {-1, -1}, {-1, 1}, {0, 1}}
                  : Offsets{{0, 0}, {-1, 0}, {0, -1}, {1, 0}, {0, 1}, {-1, 1}};
    case Piece::kT:
      switch (o) {
        case kN: return {{0, -1}, {0, 0}, {-1, -1}, {1, -1}, {-1, -2}, {1, 0}};
        case kE: return {{-1, 1}, {-1, 0}, {0, 1}, {0, 0}, {-1, -1}, {-1, 2}};
        case kS: return {{1, 0}, {0, 0}, {1, -1}, {0, -1}, {1, -2}, {2, 0}};
        case kW: return {{0, 0}, {-1, 0}, {0, -1}, {-1, -1}, {1, -1}, {0, 1}, {-1, 1}};
      }
      break;
    case Piece::kL:
      switch (o) {
        case kN:
          return left ? Offsets{{0, -1}, {1, -1}, {0, -2}, {1, -2}, {0, 0}, {1, 0}}
                      : Offsets{{1, -1}, {1, 0}, {1, -1}, {2, 0}, {0, -1}, {0, 0}};  // (1,-1) twice, as published
        case kE:
          return left ? Offsets{{-1, 1}, {-1, 0}, {-2, 1}, {-2, 0}, {0, 0}, {0, 1}}
                      : Offsets{{-1, 0}, {0, 0}, {0, -1}, {-1, -1}, {0, 1}, {-1, 1}};
        case kS:
          return left ? Offsets{{1, 0}, {0, 0}, {1, -1}, {0, -1}, {0, 1}, {1, 1}}
                      : Offsets{{0, 0}, {0, -1}, {1, -1}, {-1, -1}, {1, 0}, {-1, 0}, {0, 1}};
        case kW:
          return left ? Offsets{{0, 0}, {-1, 0}, {0, 1}, {1, 0}, {-1, 1}, {1, 1}, {0, -1}, {-1, -1}}
                      : Offsets{{0, 1}, {-1, 1}, {0, 0}, {-1, 0}, {0, 2}, {-1, 2}};
      }
      break;
    default: break;
  }
  ADD_FAILURE() << "no published list";
  return {};
}

Offsets mirror_list(Offsets list, int mirror_x) {
  for (Offset& o : list) o.first = mirror_x - o.first;
  return list;
}

// The published 180-degree lists; mirrored lists are (-x, y).
Offsets published_half(Piece p, Rotation o) {
  const bool flat = o == kN || o == kS;
  switch (p) {
    case Piece::kO:
    case Piece::kI: return {{0, 0}};
    case Piece::kS: return flat ? Offsets{{-1, -1}, {0, 0}} : Offsets{{1, -1}, {0, 0}};
    case Piece::kZ: return mirror_list(published_half(Piece::kS, o), 0);
    case Piece::kT:
      switch (o) {
        case kN: return {{0, -1}, {0, 0}};
        case kE: return {{-1, 0}, {0, 0}, {-1, -1}};
        case kS: return {{0, 1}, {0, 0}, {0, -1}};
        case kW: return mirror_list(published_half(Piece::kT, kE), 0);
      }
      break;
    case Piece::kL:
      switch (o) {
        case kN: return {{0, -1}, {1, -1}, {-1, -1}, {0, 0}, {1, 0}};
        case kE: return {{-1, 0}, {-1, -1}, {0, 0}, {0, -1}};
        case kS: return {{0, 1}, {0, 0}, {-1, 1}, {-1, 0}};
        case kW: return {{1, 0}, {0, 0}, {1, -1}, {1, 1}, {0, 1}};
      }
      break;
    case Piece::kJ: return mirror_list(published_half(Piece::kL, mirror_orientation(o)), 0);
    default: break;
  }
  ADD_FAILURE() << "no published list";
  return {};
}

Offsets published(Piece p, Rotation from, Turn turn) {
  if (turn == Turn::kHalf) return published_half(p, from);
  // The author's symmetries: O and I right = mirrored left; Z = mirrored S with the turn reversed; T right =
  // mirrored left of the mirrored orientation; J = mirrored L of the mirrored orientation, turn reversed. A mirrored
  // 90-degree list is (mx - x, y), mx the change of the tight box's width (published as 0 for O, 3 / -3 for I,
  // 1 / -1 for the others).
  const bool flat = from == kN || from == kS;
  const bool left = turn == Turn::kCcw;
  switch (p) {
    case Piece::kO: return left ? published_quarter(p, from, true) : mirror_list(published_quarter(p, from, true), 0);
    case Piece::kI:
      return left ? published_quarter(p, from, true) : mirror_list(published_quarter(p, from, true), flat ? 3 : -3);
    case Piece::kZ: return mirror_list(published_quarter(Piece::kS, from, !left), flat ? 1 : -1);
    case Piece::kT:
      return left ? published_quarter(p, from, true)
                  : mirror_list(published_quarter(p, mirror_orientation(from), true), flat ? 1 : -1);
    case Piece::kJ: return mirror_list(published_quarter(Piece::kL, mirror_orientation(from), !left), flat ? 1 : -1);
    default: return published_quarter(p, from, left);  // S and L are listed as they are
  }
}

Rotation target(Rotation from, Turn turn) {
  return turn == Turn::kCw ? rotate_cw(from) : turn == Turn::kCcw ? rotate_ccw(from) : rotate_180(from);
}

CellSet engine_cells(Piece p, Rotation r, int x, int y) {
  CellSet out;
  for (const Cell c : piece_cells(p, r)) out.insert({x + c.x, y + c.y});
  return out;
}

CellSet shifted(const CellSet& cells, int x, int y) {
  CellSet out;
  for (auto [cx, cy] : cells) out.insert({cx + x, cy + y});
  return out;
}

const char* turn_name(Turn t) { return t == Turn::kCw ? "cw" : t == Turn::kCcw ? "ccw" : "180"; }

constexpr std::array<Piece, 7> kPieces = {Piece::kI, Piece::kJ, Piece::kL, Piece::kO, Piece::kS, Piece::kT, Piece::kZ};
constexpr std::array<Turn, 3> kTurns = {Turn::kCw, Turn::kCcw, Turn::kHalf};

TEST(OcularTables, ShapesAreThePublishedShapes) {
  for (const Piece p : kPieces) {
    for (int r = 0; r < 4; ++r) {
      const CellSet ours = engine_cells(p, static_cast<Rotation>(r), 0, 0);
      const int min_x = std::min_element(ours.begin(), ours.end())->first;
      int min_y = 4;
      for (auto c : ours) min_y = std::min(min_y, c.second);
      EXPECT_EQ(shifted(ours, -min_x, -min_y), published_minos(p, static_cast<Rotation>(r)))
          << piece_letter(p) << " orientation " << r;
    }
  }
}

TEST(OcularTables, EveryKickPutsThePieceWhereThePublishedKickDoes) {
  int lists = 0, kicks = 0;
  for (const Piece p : kPieces) {
    for (int f = 0; f < 4; ++f) {
      const auto from = static_cast<Rotation>(f);
      for (const Turn turn : kTurns) {
        SCOPED_TRACE(std::string(1, piece_letter(p)) + " from " + "NESW"[f] + " " + turn_name(turn));
        const Rotation to = target(from, turn);
        const Offsets expected = published(p, from, turn);
        const auto got = kick_offsets(RotationSystem::kOcular, p, from, to);
        ASSERT_EQ(got.size(), expected.size());
        // The same piece in both conventions: our box at (3, 10), the published tight box at its lowest cell.
        const CellSet before = engine_cells(p, from, 3, 10);
        const int tx = std::min_element(before.begin(), before.end())->first;
        int ty = kMatrixHeight;
        for (auto c : before) ty = std::min(ty, c.second);
        ASSERT_EQ(shifted(published_minos(p, from), tx, ty), before);
        for (std::size_t i = 0; i < got.size(); ++i) {
          EXPECT_EQ(engine_cells(p, to, 3 + got[i].x, 10 + got[i].y),
                    shifted(published_minos(p, to), tx + expected[i].first, ty + expected[i].second))
              << "test " << i + 1;
          ++kicks;
        }
        ++lists;
      }
    }
  }
  EXPECT_EQ(lists, 84);
  EXPECT_EQ(kicks, 407);
}

// Spot checks typed in directly in our box coordinates (docs/HOWTO.md, "The Ocular kick tables").
TEST(OcularTables, SpotChecksInBoxCoordinates) {
  auto list = [](Piece p, Rotation from, Rotation to) {
    Offsets out;
    for (const Cell c : kick_offsets(RotationSystem::kOcular, p, from, to)) out.emplace_back(c.x, c.y);
    return out;
  };
  EXPECT_EQ(list(Piece::kT, kS, kW), (Offsets{{0, 0}, {1, 0}, {0, -1}, {1, -1}, {0, -2}, {-1, 0}}));
  EXPECT_EQ(list(Piece::kO, kN, kE), (Offsets{{1, 0}, {1, -1}, {1, 1}, {0, 0}}));
  EXPECT_EQ(list(Piece::kO, kN, kW), (Offsets{{-1, 0}, {-1, -1}, {-1, 1}, {0, 0}}));
  EXPECT_EQ(list(Piece::kI, kN, kE),
            (Offsets{{0, 1}, {0, 0}, {0, -1}, {1, 1}, {1, 0}, {1, -1}, {0, 2}, {1, 2}, {-1, 1}, {-1, 0}}));
  EXPECT_EQ(list(Piece::kS, kN, kS), (Offsets{{-1, 0}, {0, 1}}));
  EXPECT_EQ(list(Piece::kZ, kN, kS), (Offsets{{1, 0}, {0, 1}}));
}

}  // namespace
}  // namespace sr::engine
