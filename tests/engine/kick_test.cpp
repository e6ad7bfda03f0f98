// Every row of the SRS kick tables (JLSTZ and I, 90 and 180 degrees), each on a board where exactly that kick test
// succeeds: the earlier tests collide, that one fits. The expected offsets are typed in from the published tables
// (docs/HOWTO.md, "The SRS kick tables"), not taken from the engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/engine/rotation.h"
#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using Offset = std::pair<int, int>;
constexpr Rotation k0 = Rotation::kNorth, kR = Rotation::kEast, k2 = Rotation::kSouth, kL = Rotation::kWest;

struct TableRow {
  Rotation from, to;
  std::vector<Offset> tests;  // test 1 first
};

const std::vector<TableRow>& jlstz_table() {
  static const std::vector<TableRow> kRows = {
      {k0, kR, {{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},
      {kR, k0, {{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},
      {kR, k2, {{0, 0}, {1, 0}, {1, -1}, {0, 2}, {1, 2}}},
      {k2, kR, {{0, 0}, {-1, 0}, {-1, 1}, {0, -2}, {-1, -2}}},
      {k2, kL, {{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},
      {kL, k2, {{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}},
      {kL, k0, {{0, 0}, {-1, 0}, {-1, -1}, {0, 2}, {-1, 2}}},
      {k0, kL, {{0, 0}, {1, 0}, {1, 1}, {0, -2}, {1, -2}}},
      // 180-degree turns, "SRS+".
      {k0, k2, {{0, 0}, {0, 1}, {1, 1}, {-1, 1}, {1, 0}, {-1, 0}}},
      {kR, kL, {{0, 0}, {1, 0}, {1, 2}, {1, 1}, {0, 2}, {0, 1}}},
      {k2, k0, {{0, 0}, {0, -1}, {-1, -1}, {1, -1}, {-1, 0}, {1, 0}}},
      {kL, kR, {{0, 0}, {-1, 0}, {-1, 2}, {-1, 1}, {0, 2}, {0, 1}}},
  };
  return kRows;
}

const std::vector<TableRow>& i_table() {
  static const std::vector<TableRow> kRows = {
      {k0, kR, {{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}},
      {kR, k0, {{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},
      {kR, k2, {{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},
      {k2, kR, {{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}},
      {k2, kL, {{0, 0}, {2, 0}, {-1, 0}, {2, 1}, {-1, -2}}},
      {kL, k2, {{0, 0}, {-2, 0}, {1, 0}, {-2, -1}, {1, 2}}},
      {kL, k0, {{0, 0}, {1, 0}, {-2, 0}, {1, -2}, {-2, 1}}},
      {k0, kL, {{0, 0}, {-1, 0}, {2, 0}, {-1, 2}, {2, -1}}},
      {k0, k2, {{0, 0}, {0, 1}}},
      {kR, kL, {{0, 0}, {1, 0}}},
      {k2, k0, {{0, 0}, {0, -1}}},
      {kL, kR, {{0, 0}, {-1, 0}}},
  };
  return kRows;
}

const TableRow& table_row(Piece piece, Rotation from, Rotation to) {
  for (const TableRow& row : piece == Piece::kI ? i_table() : jlstz_table()) {
    if (row.from == from && row.to == to) return row;
  }
  ADD_FAILURE() << "no table row";
  return jlstz_table()[0];
}

Buttons turn_button(Rotation from, Rotation to) {
  if (to == rotate_cw(from)) return button::kRotateCw;
  if (to == rotate_ccw(from)) return button::kRotateCcw;
  return button::kRotate180;
}

struct KickCase {
  Piece piece;
  Rotation from, to;
  int test;  // 0-based index into the table row
};

std::string case_name(const KickCase& c) {
  const char* names = "0RSL";
  return std::string(1, piece_letter(c.piece)) + "_" + names[static_cast<int>(c.from)] + "to" +
         names[static_cast<int>(c.to)] + "_test" + std::to_string(c.test + 1);
}

using test::cells_at;
using test::CellSet;

// A board and the taps that bring the piece, turned to `from`, to where the tested turn happens.
struct KickSetup {
  std::vector<BoardRow> rows;
  std::string approach;  // taps after the spawn: the turn to `from`, then moves (SD = one row with sdf 20)
  int spawn_y;           // box row after the spawn's one-row drop (or without it, when blocked)
  int x0, y0;            // box position before the tested turn
};

// Empties the piece's path from the spawn to (x0, y0) and the target cells, fills everything else near them, and
// checks that the spawn cannot drop, the path is free, every earlier kick collides and the target fits.
std::optional<KickSetup> try_setup(const KickCase& c, bool spawn_drop, int dx, int down, bool down_first) {
  const bool is_i = c.piece == Piece::kI;
  const int sx = 3, sy = is_i ? 18 : 19;  // spawn box: flat side on row 20
  const TableRow& row = table_row(c.piece, c.from, c.to);
  CellSet empty = cells_at(c.piece, k0, sx, sy);
  std::vector<CellSet> must_collide;
  if (spawn_drop) {
    empty.merge(cells_at(c.piece, k0, sx, sy - 1));
  } else {
    must_collide.push_back(cells_at(c.piece, k0, sx, sy - 1));
  }
  std::vector<std::pair<int, int>> path = {{sx, spawn_drop ? sy - 1 : sy}};
  auto walk = [&](int steps, int ddx, int ddy) {
    for (int i = 0; i < steps; ++i) path.push_back({path.back().first + ddx, path.back().second + ddy});
  };
  const int side = dx < 0 ? -1 : 1;
  if (down_first) walk(down, 0, -1);
  walk(dx * side, side, 0);
  if (!down_first) walk(down, 0, -1);
  for (auto [x, y] : path) empty.merge(cells_at(c.piece, c.from, x, y));
  const auto [x0, y0] = path.back();
  const Offset kick = row.tests[static_cast<std::size_t>(c.test)];
  empty.merge(cells_at(c.piece, c.to, x0 + kick.first, y0 + kick.second));
  for (auto [x, y] : empty) {
    if (x < 0 || x >= kMatrixWidth || y < 0 || y >= kMatrixHeight) return std::nullopt;
  }
  for (int i = 0; i < c.test; ++i) {
    const Offset o = row.tests[static_cast<std::size_t>(i)];
    must_collide.push_back(cells_at(c.piece, c.to, x0 + o.first, y0 + o.second));
  }
  auto blocked = [&](const CellSet& open) {
    for (const CellSet& cand : must_collide) {
      bool fits = true;
      for (auto [x, y] : cand)
        fits = fits && x >= 0 && x < kMatrixWidth && y >= 0 && y < kMatrixHeight && open.count({x, y});
      if (fits) return false;
    }
    return true;
  };
  if (!blocked(empty)) return std::nullopt;
  int lo = kMatrixHeight, hi = 0;
  for (auto [x, y] : empty) lo = std::min(lo, y), hi = std::max(hi, y);
  lo = std::max(0, lo - 4);
  hi = std::min(kMatrixHeight - 1, hi + 4);
  // A row with no empty cell would be full (invalid): give it one hole that opens no candidate.
  for (int y = lo; y <= hi; ++y) {
    bool has_empty = false;
    for (int x = 0; x < kMatrixWidth; ++x) has_empty = has_empty || empty.count({x, y});
    if (has_empty) continue;
    bool placed = false;
    for (int x : {0, 9, 1, 8, 2, 7, 3, 6, 4, 5}) {
      CellSet with_hole = empty;
      with_hole.insert({x, y});
      if (!blocked(with_hole)) continue;
      empty = std::move(with_hole);
      placed = true;
      break;
    }
    if (!placed) return std::nullopt;
  }
  KickSetup s{std::vector<BoardRow>(static_cast<std::size_t>(hi + 1), BoardRow(kMatrixWidth, Piece::kNone)), "",
              path.front().second, x0, y0};
  for (int y = lo; y <= hi; ++y) {
    for (int x = 0; x < kMatrixWidth; ++x) {
      if (!empty.count({x, y})) s.rows[static_cast<std::size_t>(y)][static_cast<std::size_t>(x)] = Piece::kGarbage;
    }
  }
  if (c.from == kR) s.approach = "CW";
  if (c.from == kL) s.approach = "CCW";
  if (c.from == k2) s.approach = "180";
  for (std::size_t i = 1; i < path.size(); ++i) {
    const int step_x = path[i].first - path[i - 1].first;
    s.approach += step_x < 0 ? " L" : step_x > 0 ? " R" : " SD";
  }
  return s;
}

std::optional<KickSetup> find_setup(const KickCase& c) {
  for (bool spawn_drop : {false, true}) {
    for (int down = 0; down <= 5; ++down) {
      for (int dx : {0, -1, 1, -2, 2, -3, 3}) {
        for (bool down_first : {false, true}) {
          if (auto s = try_setup(c, spawn_drop, dx, down, down_first)) return s;
        }
      }
    }
  }
  return std::nullopt;
}

// Every (piece, turn, test) for which a board isolating the test exists. Some cannot be isolated for a given piece
// (for T, 0->R test 4 fits whenever test 1 would, since test 1's cells lie inside the T before the turn and the
// T after test 4); EveryTableEntryIsIsolatedForSomePiece checks that each table entry is still covered.
std::vector<KickCase> all_cases() {
  std::vector<KickCase> cases;
  for (Piece p : {Piece::kJ, Piece::kL, Piece::kS, Piece::kT, Piece::kZ, Piece::kI}) {
    for (const TableRow& row : p == Piece::kI ? i_table() : jlstz_table()) {
      for (int k = 0; k < static_cast<int>(row.tests.size()); ++k) {
        const KickCase c{p, row.from, row.to, k};
        if (find_setup(c)) cases.push_back(c);
      }
    }
  }
  return cases;
}

// On the case's board, the earlier tests of its table row collide, its test fits, and the turn ends there.
void expect_only_this_test_fits(const KickCase& c) {
  const std::optional<KickSetup> setup = find_setup(c);
  ASSERT_TRUE(setup.has_value()) << "no board isolates this kick test";
  test::Driver d(test::rules_config(std::string(1, piece_letter(c.piece)), setup->rows));
  (void)d.at(0);
  ASSERT_EQ(d.piece(), (ActivePiece{c.piece, k0, 3, static_cast<std::int8_t>(setup->spawn_y)}));
  (void)d.play(setup->approach);
  const ActivePiece before{c.piece, c.from, static_cast<std::int8_t>(setup->x0), static_cast<std::int8_t>(setup->y0)};
  ASSERT_EQ(d.piece(), before) << "approach " << setup->approach;

  const TableRow& row = table_row(c.piece, c.from, c.to);
  const Matrix& m = d.game().matrix();
  for (int i = 0; i < c.test; ++i) {
    const Offset o = row.tests[static_cast<std::size_t>(i)];
    ASSERT_TRUE(m.collides(c.piece, c.to, setup->x0 + o.first, setup->y0 + o.second)) << "test " << i + 1 << " fits";
  }
  const Offset kick = row.tests[static_cast<std::size_t>(c.test)];
  ASSERT_FALSE(m.collides(c.piece, c.to, setup->x0 + kick.first, setup->y0 + kick.second));

  (void)d.tap(d.next_time(), turn_button(c.from, c.to));
  const ActivePiece expected{c.piece, c.to, static_cast<std::int8_t>(setup->x0 + kick.first),
                             static_cast<std::int8_t>(setup->y0 + kick.second)};
  EXPECT_EQ(d.piece(), expected);
  const bool half_turn = c.to == rotate_180(c.from);
  EXPECT_EQ(d.game().state().last_kick, (half_turn ? 8 : 0) + c.test);
  EXPECT_TRUE(d.game().state().last_rotated);
}

// One test over every case rather than a test each: finding the boards is a search, and a parameterised suite would
// run it at start-up in every one of engine_tests' processes (ctest runs each test in a process of its own).
TEST(SrsKick, EachIsolatedTableEntryIsTheOnlyTestThatFitsAndThePieceEndsAtItsOffset) {
  const std::vector<KickCase> cases = all_cases();
  for (const KickCase& c : cases) {
    SCOPED_TRACE(case_name(c));
    expect_only_this_test_fits(c);
  }
}

TEST(SrsKick, EveryTableEntryIsIsolatedForSomePiece) {
  const std::vector<KickCase> cases = all_cases();
  auto covered = [&](bool is_i, const TableRow& row, int k) {
    for (const KickCase& c : cases) {
      if ((c.piece == Piece::kI) == is_i && c.from == row.from && c.to == row.to && c.test == k) return true;
    }
    return false;
  };
  int entries = 0;
  for (bool is_i : {false, true}) {
    for (const TableRow& row : is_i ? i_table() : jlstz_table()) {
      for (int k = 0; k < static_cast<int>(row.tests.size()); ++k, ++entries) {
        EXPECT_TRUE(covered(is_i, row, k)) << (is_i ? "I " : "JLSTZ ") << static_cast<int>(row.from) << "->"
                                           << static_cast<int>(row.to) << " test " << k + 1;
      }
    }
  }
  EXPECT_EQ(entries, 8 * 5 + 4 * 6 + 8 * 5 + 4 * 2);
  // The I piece and the T piece (apart from the few entries no T board can isolate) are covered everywhere.
  int i_cases = 0, t_cases = 0;
  for (const KickCase& c : cases) i_cases += c.piece == Piece::kI, t_cases += c.piece == Piece::kT;
  EXPECT_EQ(i_cases, 8 * 5 + 4 * 2);
  EXPECT_EQ(t_cases, 8 * 5 + 4 * 6 - 4);  // T: 0->R 4, 0->L 4, 2->R 3, 2->L 3 fit only where test 1 does
}

TEST(SrsKick, EngineTablesMatchTheGuidelineTables) {
  for (Piece p : {Piece::kJ, Piece::kL, Piece::kS, Piece::kT, Piece::kZ, Piece::kI}) {
    for (const TableRow& row : p == Piece::kI ? i_table() : jlstz_table()) {
      const auto kicks = kick_offsets(RotationSystem::kSrs, p, row.from, row.to);
      std::vector<Offset> got;
      for (const Cell c : kicks) got.push_back({c.x, c.y});
      EXPECT_EQ(got, row.tests) << piece_letter(p) << " " << static_cast<int>(row.from) << "->"
                                << static_cast<int>(row.to);
    }
  }
}

}  // namespace
}  // namespace sr::engine
