#include "common/bot/search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "common/bot/chooser.h"
#include "common/bot/evaluation.h"
#include "common/bot/input_plan.h"
#include "common/engine/random.h"
#include "common/engine/rotation.h"
#include "tests/bot/bot_test_support.h"

namespace sr::bot {
namespace {

using engine::Piece;
using engine::Rotation;
using engine::SpinKind;

PieceState spawn(const Bitboard& b, Piece p) {
  const auto s = spawn_state(b, p);
  EXPECT_TRUE(s.has_value());
  return *s;
}

int count_plain(std::span<const Placement> ps) {
  return static_cast<int>(
      std::count_if(ps.begin(), ps.end(), [](const Placement& p) { return p.spin == SpinKind::kNone; }));
}

// An independent player of search paths (static model): taps, auto-shift, kicks, soft drop, then hard drop.
PieceState replay_path(const Bitboard& b, PieceState s, const std::vector<Action>& path,
                       engine::RotationSystem system) {
  auto fits = [&](const PieceState& t) { return !b.collides(t.piece, t.rotation, t.x, t.y); };
  auto turn = [&](Rotation to) {
    if (!engine::piece_turns(system, s.piece)) return;
    for (const engine::Cell k : engine::kick_offsets(system, s.piece, s.rotation, to)) {
      PieceState t{s.piece, to, static_cast<std::int8_t>(s.x + k.x), static_cast<std::int8_t>(s.y + k.y)};
      if (fits(t)) {
        s = t;
        return;
      }
    }
  };
  for (const Action a : path) {
    PieceState t = s;
    switch (a) {
      case Action::kLeft:
        --t.x;
        if (fits(t)) s = t;
        break;
      case Action::kRight:
        ++t.x;
        if (fits(t)) s = t;
        break;
      case Action::kDasLeft:
        for (--t.x; fits(t); --t.x) s = t;
        break;
      case Action::kDasRight:
        for (++t.x; fits(t); ++t.x) s = t;
        break;
      case Action::kRotateCw: turn(engine::rotate_cw(s.rotation)); break;
      case Action::kRotateCcw: turn(engine::rotate_ccw(s.rotation)); break;
      case Action::kRotate180: turn(engine::rotate_180(s.rotation)); break;
      case Action::kSoftDrop: s.y = static_cast<std::int8_t>(b.drop_y(s.piece, s.rotation, s.x, s.y)); break;
      case Action::kHold: ADD_FAILURE() << "hold in a search path"; break;
    }
  }
  s.y = static_cast<std::int8_t>(b.drop_y(s.piece, s.rotation, s.x, s.y));
  return s;
}

TEST(PlacementSearch, FindsEveryDropOnAnEmptyBoard) {
  const Bitboard empty;
  PlacementSearch search;
  const struct {
    Piece piece;
    int placements;
  } kExpected[] = {{Piece::kT, 34}, {Piece::kJ, 34}, {Piece::kL, 34}, {Piece::kS, 17},
                   {Piece::kZ, 17}, {Piece::kI, 17}, {Piece::kO, 9}};
  for (const auto& e : kExpected) {
    const auto ps = search.run(empty, spawn(empty, e.piece), SearchOptions{});
    EXPECT_EQ(count_plain(ps), e.placements) << engine::piece_letter(e.piece);
    for (const Placement& p : ps)
      EXPECT_TRUE(empty.collides(p.state.piece, p.state.rotation, p.state.x, p.state.y - 1));
  }
}

TEST(PlacementSearch, FindsATuckUnderAnOverhang) {
  const Bitboard b = test::board({
      "###.......",
      "..........",
  });
  PlacementSearch search;
  const auto ps = search.run(b, spawn(b, Piece::kI), SearchOptions{});
  // I flat on row 0 under the overhang: cells (0..3, 0); the north I's cells are in box row 2.
  const PieceState tucked{Piece::kI, Rotation::kNorth, 0, -2};
  const auto it = std::find_if(ps.begin(), ps.end(), [&](const Placement& p) { return p.state == tucked; });
  ASSERT_NE(it, ps.end());
  std::vector<Action> path;
  search.path(*it, path);
  EXPECT_NE(std::find(path.begin(), path.end(), Action::kSoftDrop), path.end());
  EXPECT_EQ(replay_path(b, search.start(), path, engine::RotationSystem::kSrs), tucked);

  SearchOptions drops_only;
  drops_only.tucks = false;
  const auto cheap = search.run(b, spawn(b, Piece::kI), drops_only);
  EXPECT_EQ(std::find_if(cheap.begin(), cheap.end(), [&](const Placement& p) { return p.state == tucked; }),
            cheap.end());
}

TEST(PlacementSearch, FindsATSpinDoubleAndScoresItAsASpin) {
  const Bitboard b = test::board({
      "##........",
      "#...######",
      "##.#######",
  });
  PlacementSearch search;
  const auto ps = search.run(b, spawn(b, Piece::kT), SearchOptions{});
  bool found = false;
  for (const Placement& p : ps) {
    if (p.spin != SpinKind::kFull) continue;
    Bitboard after = b;
    if (lock_piece(after, p.state).lines != 2) continue;
    found = true;
    std::vector<Action> path;
    search.path(p, path);
    ASSERT_FALSE(path.empty());
    const Action last = path.back();
    EXPECT_TRUE(last == Action::kRotateCw || last == Action::kRotateCcw || last == Action::kRotate180);
    EXPECT_TRUE(same_cells(replay_path(b, search.start(), path, engine::RotationSystem::kSrs), p.state));
  }
  EXPECT_TRUE(found);
}

// Under Ocular the search follows the engine's Ocular kicks: the T reaches the slot of the tetrs puzzle stage
// "T-spin Triple" (tests/engine/ocular_spin_test.cpp), scored as a full spin; under SRS it cannot get there.
TEST(PlacementSearch, FollowsOcularKicksIntoTheTSpinTripleSlot) {
  const Bitboard b = test::board({
      "####...###",
      "#####..###",
      "###...####",
      "####.#####",
      "###..#####",
      "####.#####",
  });
  const PieceState slot{Piece::kT, Rotation::kWest, 3, 0};
  SearchOptions ocular;
  ocular.rotation = engine::RotationSystem::kOcular;
  PlacementSearch search;
  const auto ps = search.run(b, spawn(b, Piece::kT), ocular);
  const auto it = std::find_if(ps.begin(), ps.end(), [&](const Placement& p) { return p.state == slot; });
  ASSERT_NE(it, ps.end());
  EXPECT_EQ(it->spin, SpinKind::kFull);
  Bitboard after = b;
  EXPECT_EQ(lock_piece(after, it->state).lines, 3);
  std::vector<Action> path;
  search.path(*it, path);
  EXPECT_EQ(replay_path(b, search.start(), path, engine::RotationSystem::kOcular), slot);

  const auto srs = search.run(b, spawn(b, Piece::kT), SearchOptions{});
  EXPECT_EQ(std::find_if(srs.begin(), srs.end(), [&](const Placement& p) { return same_cells(p.state, slot); }),
            srs.end());
}

TEST(PlacementSearch, PathsAreShortest) {
  const Bitboard empty;
  PlacementSearch search;
  const auto ps = search.run(empty, spawn(empty, Piece::kT), SearchOptions{});
  std::vector<Action> path;
  for (const Placement& p : ps) {
    search.path(p, path);
    EXPECT_EQ(path.size(), p.actions);
    // Anything on an empty board is at most one turn and one move (tap, or auto-shift to a wall) away, or two
    // taps next to the spawn column.
    EXPECT_LE(path.size(), 3u);
    if (p.state == PieceState{Piece::kT, Rotation::kNorth, 0, -1}) {
      EXPECT_EQ(path, std::vector<Action>{Action::kDasLeft});
    }
  }
}

TEST(PlacementSearch, EveryPathLeadsToItsPlacement) {
  engine::Random rng(11);
  PlacementSearch search;
  for (int round = 0; round < 30; ++round) {
    Bitboard b;
    for (int x = 0; x < 10; ++x) {
      const int h = static_cast<int>(rng.below(7));
      for (int y = 0; y < h; ++y) {
        if (rng.below(100) < 85) b.set(x, y);
      }
    }
    b.clear_full_rows();
    for (int p = 1; p <= 7; ++p) {
      const auto start = spawn_state(b, static_cast<Piece>(p));
      ASSERT_TRUE(start);
      std::vector<Action> path;
      for (const Placement& pl : search.run(b, *start, SearchOptions{})) {
        search.path(pl, path);
        const PieceState end = replay_path(b, search.start(), path, engine::RotationSystem::kSrs);
        ASSERT_TRUE(same_cells(end, pl.state)) << "round " << round << " piece " << p;
      }
    }
  }
}

TEST(PlacementSearch, SameInputGivesTheSameList) {
  const Bitboard b = test::board({
      "#...##....",
      "##.####.##",
  });
  PlacementSearch a, c;
  const auto pa = a.run(b, spawn(b, Piece::kL), SearchOptions{});
  const std::vector<Placement> first(pa.begin(), pa.end());
  const auto pc = c.run(b, spawn(b, Piece::kL), SearchOptions{});
  ASSERT_EQ(first.size(), pc.size());
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i].state, pc[i].state);
}

TEST(PlacementSearch, InstantGravityKeepsThePieceOnTheFloor) {
  const Bitboard b = test::board({
      "......#...",
      "......#...",
      "......#...",
      "......#...",
  });
  SearchOptions options;
  options.model = MoveModel::kInstantGravity;
  PlacementSearch search;
  const auto ps = search.run(b, spawn(b, Piece::kO), options);
  EXPECT_TRUE(b.collides(Piece::kO, Rotation::kNorth, search.start().x, search.start().y - 1));
  // The O falls to the floor at once and cannot get past the tower at column 6.
  for (const Placement& p : ps) {
    EXPECT_TRUE(b.collides(p.state.piece, p.state.rotation, p.state.x, p.state.y - 1));
    EXPECT_LE(p.state.x, 4);
  }
}

TEST(PlacementSearch, NoHalfTurnsWhenTheRulesForbidThem) {
  const Bitboard empty;
  SearchOptions options;
  options.allow_180 = false;
  PlacementSearch search;
  std::vector<Action> path;
  for (const Placement& p : search.run(empty, spawn(empty, Piece::kT), options)) {
    search.path(p, path);
    EXPECT_EQ(std::find(path.begin(), path.end(), Action::kRotate180), path.end());
  }
}

TEST(PlacementSearch, BlockedStartGivesNothing) {
  Bitboard b;
  for (int y = 0; y < 22; ++y) b.set(4, y);
  PlacementSearch search;
  EXPECT_TRUE(search.run(b, PieceState{Piece::kT, Rotation::kNorth, 3, 19}, SearchOptions{}).empty());
}

}  // namespace
}  // namespace sr::bot
