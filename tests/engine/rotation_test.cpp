// Piece shapes, spawn positions, and what the rotation systems allow. The kick tables row by row are in
// kick_test.cpp.
#include "common/engine/rotation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "common/engine/pieces.h"
#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Driver;
using test::rules_config;

// The SRS shapes in their boxes, drawn top row first, for orientations 0, R, 2, L.
struct Drawing {
  Piece piece;
  std::vector<std::vector<std::string>> turns;
};

const std::vector<Drawing>& drawings() {
  static const std::vector<Drawing> kDrawings = {
      {Piece::kI,
       {{"....", "IIII", "....", "...."},
        {"..I.", "..I.", "..I.", "..I."},
        {"....", "....", "IIII", "...."},
        {".I..", ".I..", ".I..", ".I.."}}},
      {Piece::kJ, {{"J..", "JJJ", "..."}, {".JJ", ".J.", ".J."}, {"...", "JJJ", "..J"}, {".J.", ".J.", "JJ."}}},
      {Piece::kL, {{"..L", "LLL", "..."}, {".L.", ".L.", ".LL"}, {"...", "LLL", "L.."}, {"LL.", ".L.", ".L."}}},
      {Piece::kO, {{"OO", "OO"}, {"OO", "OO"}, {"OO", "OO"}, {"OO", "OO"}}},
      {Piece::kS, {{".SS", "SS.", "..."}, {".S.", ".SS", "..S"}, {"...", ".SS", "SS."}, {"S..", "SS.", ".S."}}},
      {Piece::kT, {{".T.", "TTT", "..."}, {".T.", ".TT", ".T."}, {"...", "TTT", ".T."}, {".T.", "TT.", ".T."}}},
      {Piece::kZ, {{"ZZ.", ".ZZ", "..."}, {"..Z", ".ZZ", ".Z."}, {"...", "ZZ.", ".ZZ"}, {".Z.", "ZZ.", "Z.."}}},
  };
  return kDrawings;
}

std::vector<std::string> draw(Piece piece, Rotation rotation) {
  const int n = box_size(piece);
  std::vector<std::string> rows(static_cast<std::size_t>(n), std::string(static_cast<std::size_t>(n), '.'));
  for (const Cell c : piece_cells(piece, rotation)) {
    rows[static_cast<std::size_t>(n - 1 - c.y)][static_cast<std::size_t>(c.x)] = piece_letter(piece);
  }
  return rows;
}

TEST(Pieces, ShapesMatchTheSrsDrawingsInEveryOrientation) {
  for (const Drawing& d : drawings()) {
    for (int r = 0; r < 4; ++r) {
      EXPECT_EQ(draw(d.piece, static_cast<Rotation>(r)), d.turns[static_cast<std::size_t>(r)])
          << piece_letter(d.piece) << " orientation " << r;
    }
  }
}

TEST(Pieces, RowMasksHoldExactlyTheCells) {
  for (int p = 1; p <= kPieceKinds; ++p) {
    for (int r = 0; r < 4; ++r) {
      const auto piece = static_cast<Piece>(p);
      const auto rotation = static_cast<Rotation>(r);
      const PieceRows& m = piece_rows(piece, rotation);
      std::vector<std::string> from_rows(static_cast<std::size_t>(box_size(piece)),
                                         std::string(static_cast<std::size_t>(box_size(piece)), '.'));
      for (int bit = 0; bit < 64; ++bit) {
        if (((m.rows >> bit) & 1u) == 0) continue;
        const int x = m.min_x + bit % 16, y = m.min_y + bit / 16;
        ASSERT_LT(bit % 16, m.width) << piece_letter(piece) << r;
        ASSERT_LT(bit / 16, m.height) << piece_letter(piece) << r;
        from_rows[static_cast<std::size_t>(box_size(piece) - 1 - y)][static_cast<std::size_t>(x)] = piece_letter(piece);
      }
      EXPECT_EQ(from_rows, draw(piece, rotation)) << piece_letter(piece) << " orientation " << r;
      EXPECT_EQ(m.width, m.max_x - m.min_x + 1);
      EXPECT_EQ(m.height, m.max_y - m.min_y + 1);
    }
  }
  EXPECT_EQ(piece_rows(Piece::kI, Rotation::kEast).rows, 0x0001000100010001u) << "a column of four, from (2, 0)";
  EXPECT_EQ(piece_rows(Piece::kT, Rotation::kNorth).rows, 0x00020007u) << "TTT on box row 1, .T. on row 2";
}

TEST(Pieces, SpawnOnRowsTwentyAndTwentyOneThenDropOneRow) {
  struct Expected {
    Piece piece;
    int min_x, max_x, min_y, max_y;
  };
  const Expected kExpected[] = {{Piece::kI, 3, 6, 20, 20}, {Piece::kJ, 3, 5, 20, 21}, {Piece::kL, 3, 5, 20, 21},
                                {Piece::kO, 4, 5, 20, 21}, {Piece::kS, 3, 5, 20, 21}, {Piece::kT, 3, 5, 20, 21},
                                {Piece::kZ, 3, 5, 20, 21}};
  for (const Expected& e : kExpected) {
    Driver d(rules_config(std::string(1, piece_letter(e.piece))));
    const auto spawns = test::of_kind(d.at(0), EventKind::kSpawn);
    ASSERT_EQ(spawns.size(), 1u);
    int min_x = 99, max_x = -99, min_y = 99, max_y = -99;
    for (const Cell c : piece_cells(e.piece, Rotation::kNorth)) {
      min_x = std::min(min_x, spawns[0].x + c.x), max_x = std::max(max_x, spawns[0].x + c.x);
      min_y = std::min(min_y, spawns[0].y + c.y), max_y = std::max(max_y, spawns[0].y + c.y);
    }
    EXPECT_EQ(min_x, e.min_x) << piece_letter(e.piece);
    EXPECT_EQ(max_x, e.max_x) << piece_letter(e.piece);
    EXPECT_EQ(min_y, e.min_y) << piece_letter(e.piece);
    EXPECT_EQ(max_y, e.max_y) << piece_letter(e.piece);
    EXPECT_EQ(d.piece(),
              (ActivePiece{e.piece, Rotation::kNorth, spawns[0].x, static_cast<std::int8_t>(spawns[0].y - 1)}))
        << "the spawned piece drops one row at once on an empty matrix";
  }
}

TEST(Pieces, SpawnDoesNotDropWhenTheRowBelowIsTaken) {
  std::vector<BoardRow> rows(20, BoardRow(kMatrixWidth, Piece::kNone));
  rows[19][4] = Piece::kGarbage;
  Driver d(rules_config("T", rows));
  (void)d.at(0);
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 3, 19}));
}

TEST(Srs, ONeverMovesOrTurns) {
  // In a pocket of its own size: any kick would move it out, but O stays put.
  Driver d(rules_config("O", test::board({"XXX..XXXXX", "XXX..XXXXX"})));
  (void)d.play("L");
  for (int i = 0; i < 25; ++i) (void)d.play("SD");  // sdf 20: one row per tap
  ASSERT_EQ(d.piece(), (ActivePiece{Piece::kO, Rotation::kNorth, 3, 0}));
  for (const char* turn : {"CW", "CCW", "180", "CW", "CW"}) {
    (void)d.play(turn);
    EXPECT_EQ(d.piece().x, 3) << turn;
    EXPECT_EQ(d.piece().y, 0) << turn;
  }
  (void)d.play("HD");
  EXPECT_TRUE(d.game().matrix().empty()) << "the O filled the pocket and cleared both rows";
}

// T turned east and pushed against the left wall (box x = -1): a clockwise turn needs kick test 2 (+1, 0).
ActivePiece turn_at_left_wall(RotationSystem system, const char* turn) {
  GameConfig c = rules_config("T");
  c.rotation = system;
  Driver d(c);
  (void)d.play("CW L L L L");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kEast, -1, 18}));
  (void)d.play(turn);
  return d.piece();
}

TEST(Srs, NinetyDegreeTurnKicksOffTheWall) {
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kSrs, "CW"), (ActivePiece{Piece::kT, Rotation::kSouth, 0, 18}));
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kSrsNo180, "CW"), (ActivePiece{Piece::kT, Rotation::kSouth, 0, 18}));
}

TEST(Srs, HalfTurnKicksOffTheWall) {
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kSrs, "180"), (ActivePiece{Piece::kT, Rotation::kWest, 0, 18}));
}

TEST(SrsNo180, HalfTurnOnlyInPlace) {
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kSrsNo180, "180"), (ActivePiece{Piece::kT, Rotation::kEast, -1, 18}));
  GameConfig c = rules_config("T");
  c.rotation = RotationSystem::kSrsNo180;
  Driver d(c);
  (void)d.play("180");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kSouth, 3, 18})) << "in open air the half turn works";
}

TEST(Classic, TurnsOnlyInPlace) {
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kClassic, "CW"), (ActivePiece{Piece::kT, Rotation::kEast, -1, 18}));
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kClassic, "180"), (ActivePiece{Piece::kT, Rotation::kEast, -1, 18}));
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kClassic, "CCW"), (ActivePiece{Piece::kT, Rotation::kEast, -1, 18}));
  EXPECT_EQ(turn_at_left_wall(RotationSystem::kSrs, "CCW"), (ActivePiece{Piece::kT, Rotation::kNorth, 0, 18}))
      << "SRS R->0 test 2 (+1, 0)";
  GameConfig c = rules_config("T");
  c.rotation = RotationSystem::kClassic;
  Driver d(c);
  (void)d.play("CW CW CCW 180");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kWest, 3, 18}));
}

TEST(Srs, HalfTurnButtonDoesNothingWhenDisallowed) {
  GameConfig c = rules_config("TT");
  c.allow_180 = false;
  Driver d(c);
  (void)d.play("180");
  EXPECT_EQ(d.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 3, 18}));
  EXPECT_FALSE(d.game().state().last_rotated);
  (void)d.play("CW CW");
  EXPECT_EQ(d.piece().rotation, Rotation::kSouth) << "90-degree turns still work";
}

TEST(KickOffsets, InPlaceOnlyForOClassicAndHalfTurnsWithoutKicks) {
  auto in_place = [](std::span<const Cell> kicks) { return kicks.size() == 1 && kicks[0] == Cell{0, 0}; };
  EXPECT_TRUE(in_place(kick_offsets(RotationSystem::kSrs, Piece::kO, Rotation::kNorth, Rotation::kEast)));
  EXPECT_TRUE(in_place(kick_offsets(RotationSystem::kSrs, Piece::kO, Rotation::kNorth, Rotation::kSouth)));
  for (Piece p : {Piece::kT, Piece::kI}) {
    EXPECT_TRUE(in_place(kick_offsets(RotationSystem::kClassic, p, Rotation::kNorth, Rotation::kEast)));
    EXPECT_TRUE(in_place(kick_offsets(RotationSystem::kClassic, p, Rotation::kEast, Rotation::kWest)));
    EXPECT_TRUE(in_place(kick_offsets(RotationSystem::kSrsNo180, p, Rotation::kSouth, Rotation::kNorth)));
    EXPECT_EQ(kick_offsets(RotationSystem::kSrsNo180, p, Rotation::kSouth, Rotation::kWest).size(), 5u);
    EXPECT_EQ(kick_offsets(RotationSystem::kSrs, p, Rotation::kSouth, Rotation::kNorth).size(),
              p == Piece::kI ? 2u : 6u);
  }
}

TEST(Buttons, SimultaneousTurnsActCounterClockwiseFirst) {
  Driver d(rules_config("T"));
  (void)d.at(0);
  (void)d.press(1, button::kRotateCw | button::kRotateCcw | button::kRotate180);
  EXPECT_EQ(d.piece().rotation, Rotation::kSouth) << "CCW, then CW, then 180";
}

TEST(Buttons, MoveActsBeforeTheHardDropOfTheSameChange) {
  Driver d(rules_config("TO"));
  (void)d.at(0);
  const auto locks =
      test::of_kind(d.press(1, button::kMoveLeft | button::kHardDrop | button::kRotateCw), EventKind::kLock);
  ASSERT_EQ(locks.size(), 1u);
  EXPECT_EQ(static_cast<int>(locks[0].x), 2);
  EXPECT_EQ(locks[0].rotation, Rotation::kEast);
}

}  // namespace
}  // namespace sr::engine
