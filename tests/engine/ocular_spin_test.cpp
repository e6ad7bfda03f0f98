// The Ocular rotation system in play: its mirror symmetry, the O piece that turns, and spins from the tetrs puzzle
// mode (github.com/Strophox/tetro-tui, src/game_modes/game_modifiers/puzzle.rs, the stages the tetrs README shows
// off) played through Game::update on their exact boards.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/engine/rotation.h"
#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::cells_at;
using test::CellSet;
using test::Driver;
using test::kE;
using test::kN;
using test::kS;
using test::kW;
using test::mirror_orientation;
using test::rows_of;

CellSet mirrored(const CellSet& cells) {
  CellSet out;
  for (auto [x, y] : cells) out.insert({kMatrixWidth - 1 - x, y});
  return out;
}

Piece mirror_piece(Piece p) {
  switch (p) {
    case Piece::kJ: return Piece::kL;
    case Piece::kL: return Piece::kJ;
    case Piece::kS: return Piece::kZ;
    case Piece::kZ: return Piece::kS;
    default: return p;
  }
}

// The cells the piece covers after the turn, or nothing if every kick collides.
std::optional<CellSet> turned(const Matrix& m, Piece p, Rotation from, Rotation to, int x, int y) {
  for (const Cell k : kick_offsets(RotationSystem::kOcular, p, from, to)) {
    if (!m.collides(p, to, x + k.x, y + k.y)) return cells_at(p, to, x + k.x, y + k.y);
  }
  return std::nullopt;
}

// The box position at which the mirrored piece covers exactly `cells` (its box row is within 3 of `near_y`).
std::pair<int, int> mirrored_box(Piece p, Rotation r, const CellSet& cells, int near_y) {
  for (int x = -4; x < kMatrixWidth + 4; ++x) {
    for (int y = near_y - 3; y <= near_y + 3; ++y) {
      if (cells_at(p, r, x, y) == cells) return {x, y};
    }
  }
  ADD_FAILURE() << "no mirrored position";
  return {0, 0};
}

// "Doing a rotation, then mirroring board and piece = mirroring board and piece, then doing the mirrored rotation"
// (the tetrs README's first criterion), checked on 12 random boards for every piece, orientation, turn and position.
TEST(Ocular, MirroredBoardAndPieceTurnToTheMirroredResult) {
  std::uint64_t state = 0x9E3779B97F4A7C15u;
  auto next = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<std::uint32_t>(state >> 33);
  };
  int compared = 0, kicked = 0;
  for (int board = 0; board < 12; ++board) {
    Matrix m, mirror;
    for (int y = 0; y < 8; ++y) {
      for (int x = 0; x < kMatrixWidth; ++x) {
        if (next() % 100 < static_cast<std::uint32_t>(20 + 5 * board)) {
          m.set(x, y, Piece::kGarbage);
          mirror.set(kMatrixWidth - 1 - x, y, Piece::kGarbage);
        }
      }
    }
    for (int pi = 1; pi <= kPieceKinds; ++pi) {
      const auto p = static_cast<Piece>(pi);
      for (int f = 0; f < 4; ++f) {
        const auto from = static_cast<Rotation>(f);
        for (int x = -2; x < kMatrixWidth; ++x) {
          for (int y = -2; y < 8; ++y) {
            if (m.collides(p, from, x, y)) continue;
            const auto [mx, my] =
                mirrored_box(mirror_piece(p), mirror_orientation(from), mirrored(cells_at(p, from, x, y)), y);
            const std::pair<Rotation, Rotation> turns[3] = {{rotate_cw(from), rotate_ccw(mirror_orientation(from))},
                                                            {rotate_ccw(from), rotate_cw(mirror_orientation(from))},
                                                            {rotate_180(from), rotate_180(mirror_orientation(from))}};
            for (const auto& [to, mirror_to] : turns) {
              const auto a = turned(m, p, from, to, x, y);
              const auto b = turned(mirror, mirror_piece(p), mirror_orientation(from), mirror_to, mx, my);
              ASSERT_EQ(a.has_value(), b.has_value()) << piece_letter(p) << " " << f << " at " << x << "," << y;
              if (a) {
                ASSERT_EQ(mirrored(*a), *b) << piece_letter(p) << " " << f << " at " << x << "," << y;
                kicked += *a != cells_at(p, to, x, y) ? 1 : 0;
              }
              ++compared;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 10'000);
  EXPECT_GT(kicked, 5'000);
}

GameConfig ocular_config(std::string_view pieces, std::vector<BoardRow> rows) {
  GameConfig c = test::rules_config(pieces, std::move(rows));
  c.rotation = RotationSystem::kOcular;
  c.handling.sdf = 0;  // a soft-drop tap goes to the floor
  return c;
}

std::optional<Event> only_clear(const std::vector<Event>& events) {
  const auto clears = test::of_kind(events, EventKind::kClear);
  EXPECT_LE(clears.size(), 1u);
  return clears.empty() ? std::nullopt : std::optional<Event>(clears.front());
}

TEST(Ocular, OTurnsSidewaysTowardsTheTurn) {
  Driver d(ocular_config("O", {}));
  (void)d.at(0);
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kO, kN, 4, 19}));
  (void)d.play("CW");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kO, kE, 5, 19}));
  (void)d.play("CCW CCW");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kO, kW, 3, 19}));
  (void)d.play("180");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kO, kE, 3, 19}));
  (void)d.play("L L L CCW");  // against the left wall: (-1,0) and (-1,-1) collide, (-1,+1) too, (0,0) fits
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kO, kN, 0, 19}));
}

// Stage "I-spin": the vertical I goes down the well, turns flat into the bottom slot (test 3, one row down), then
// a second I fills the well.
TEST(Ocular, ISpinIntoTheSlotUnderTheWell) {
  Driver d(ocular_config("II", test::board({"XXXXX.XXXX", "XXXXX.XXXX", "XXXXX.XXXX", "XXXXX.XXXX", "XXXX....XX"})));
  (void)d.at(0);
  auto e = d.play("CW SD CW");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kI, kS, 4, -1}));
  e = d.play("HD");
  ASSERT_TRUE(only_clear(e));
  EXPECT_EQ(only_clear(e)->lines, 1);
  EXPECT_EQ(rows_of(d.game().matrix(), 5),
            (std::vector<std::string>{"..........", "XXXXX.XXXX", "XXXXX.XXXX", "XXXXX.XXXX", "XXXXX.XXXX"}));
  e = d.play("CW HD");
  ASSERT_TRUE(only_clear(e));
  EXPECT_EQ(only_clear(e)->lines, 4);
  EXPECT_TRUE(only_clear(e)->perfect_clear);
}

// Stage "S-spin": a half turn nudges the S one column left into the step.
TEST(Ocular, SHalfTurnNudgesIntoTheStep) {
  Driver d(ocular_config("S", test::board({"XXXX..XXXX", "XXX..XXXXX"})));
  (void)d.at(0);
  (void)d.play("R SD 180");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kS, kS, 3, 0}));
  const auto e = d.play("HD");
  ASSERT_TRUE(only_clear(e));
  EXPECT_EQ(only_clear(e)->lines, 2);
  EXPECT_TRUE(only_clear(e)->perfect_clear);
}

// Stage "L-spin": the upright L sits on the ledge, then turns clockwise down into the L-shaped hole (test 4).
TEST(Ocular, LSpinsDownIntoItsHole) {
  Driver d(ocular_config("L", test::board({"XXXXX.XXXX", "XXX...XXXX"})));
  (void)d.at(0);
  (void)d.play("R CCW SD");
  const ActivePiece before = d.piece();
  (void)d.play("CW");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kL, kN, 3, -1})) << "from " << before.x << "," << before.y;
  const auto e = d.play("HD");
  ASSERT_TRUE(only_clear(e));
  EXPECT_EQ(only_clear(e)->lines, 2);
  EXPECT_TRUE(only_clear(e)->perfect_clear);
}

// Stage "T-spin Triple" (the tetrs README: "I somehow still managed to include a (decently sensible) T-Spin
// Triple"): two clockwise turns at the bottom of the shaft, the second kicking two rows down (test 5), clear three
// rows as a full T-spin; an L spin and a J half turn then clear the rest.
TEST(Ocular, TSpinTripleThenPerfectClear) {
  Driver d(ocular_config(
      "TLJ", test::board({"XXXX...XXX", "XXXXX..XXX", "XXX...XXXX", "XXXX.XXXXX", "XXX..XXXXX", "XXXX.XXXXX"})));
  (void)d.at(0);
  (void)d.play("R CW SD CW CW");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, kW, 3, 0}));
  EXPECT_EQ(d.game().state().last_kick, 4);
  auto e = d.play("HD");
  ASSERT_TRUE(only_clear(e));
  EXPECT_EQ(only_clear(e)->lines, 3);
  EXPECT_EQ(only_clear(e)->spin, SpinKind::kFull);
  EXPECT_EQ(d.game().stats().tspin_triples, 1);
  EXPECT_EQ(rows_of(d.game().matrix(), 4),
            (std::vector<std::string>{"..........", "XXXX...XXX", "XXXXX..XXX", "XXX...XXXX"}));
  e = d.play("R CCW SD CW HD");
  ASSERT_TRUE(only_clear(e));
  EXPECT_EQ(only_clear(e)->lines, 1);
  EXPECT_EQ(rows_of(d.game().matrix(), 3), (std::vector<std::string>{"..........", "XXXX...XXX", "XXXXXL.XXX"}));
  e = d.play("R 180 HD");
  ASSERT_TRUE(only_clear(e));
  EXPECT_EQ(only_clear(e)->lines, 2);
  EXPECT_TRUE(only_clear(e)->perfect_clear);
}

// The same T-spin triple board under SRS: the T cannot get in, so the stage is Ocular's.
TEST(Ocular, TheTSpinTripleSlotIsOutOfReachUnderSrs) {
  GameConfig c = ocular_config(
      "T", test::board({"XXXX...XXX", "XXXXX..XXX", "XXX...XXXX", "XXXX.XXXXX", "XXX..XXXXX", "XXXX.XXXXX"}));
  c.rotation = RotationSystem::kSrs;
  Driver d(c);
  (void)d.at(0);
  (void)d.play("R CW SD CW CW");
  EXPECT_NE(d.piece(), (ActivePiece{Piece::kT, kW, 3, 0}));
}

TEST(Ocular, KickRecordKeepsSrsValuesAndSeparatesOcularHalfTurns) {
  EXPECT_EQ(kick_record(RotationSystem::kSrs, false, 4), 4);
  EXPECT_EQ(kick_record(RotationSystem::kSrs, true, 2), 10);
  EXPECT_EQ(kick_record(RotationSystem::kSrsNo180, true, 0), 8);
  EXPECT_EQ(kick_record(RotationSystem::kOcular, false, 9), 9);
  EXPECT_EQ(kick_record(RotationSystem::kOcular, true, 0), 16);
  EXPECT_FALSE(piece_turns(RotationSystem::kSrs, Piece::kO));
  EXPECT_FALSE(piece_turns(RotationSystem::kClassic, Piece::kO));
  EXPECT_TRUE(piece_turns(RotationSystem::kOcular, Piece::kO));
  EXPECT_TRUE(piece_turns(RotationSystem::kSrs, Piece::kT));
}

}  // namespace
}  // namespace sr::engine
