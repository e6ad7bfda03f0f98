// Helpers for the engine suites: boards drawn as strings, a driver that presses and releases buttons at given
// times, and scripted play. Everything goes through Game::update, as a frontend would.
//
// Header-only: tests/CMakeLists.txt builds every tests/engine/*_test.cpp into engine_tests and nothing else.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/events.h"
#include "common/engine/game.h"
#include "common/engine/matrix.h"
#include "common/engine/pieces.h"
#include "common/engine/types.h"
#include "tests/support/status.h"

namespace sr::engine {

// Readable failure messages for the engine's small value types (found by GoogleTest through ADL).
inline void PrintTo(const ActivePiece& p, std::ostream* os) {
  *os << "{" << piece_letter(p.piece) << " rot "
      << "0RSL"[static_cast<int>(p.rotation) & 3] << " x " << static_cast<int>(p.x) << " y " << static_cast<int>(p.y)
      << "}";
}
inline void PrintTo(Piece p, std::ostream* os) { *os << piece_letter(p); }
inline void PrintTo(Rotation r, std::ostream* os) { *os << "0RSL"[static_cast<int>(r) & 3]; }
inline void PrintTo(SpinKind s, std::ostream* os) {
  constexpr const char* kNames[] = {"none", "mini", "full"};
  *os << kNames[static_cast<int>(s) % 3];
}
inline void PrintTo(EventKind k, std::ostream* os) {
  constexpr const char* kNames[] = {"spawn", "hold", "hard_drop", "lock", "clear", "level_up", "game_over", "finished"};
  *os << kNames[static_cast<int>(k) % 8];
}
inline void PrintTo(TopOut t, std::ostream* os) {
  constexpr const char* kNames[] = {"none", "block_out", "lock_out"};
  *os << kNames[static_cast<int>(t) % 3];
}
inline void PrintTo(UpdateError e, std::ostream* os) {
  constexpr const char* kNames[] = {"ok", "time_in_past", "invalid_buttons"};
  *os << kNames[static_cast<int>(e) % 3];
}

namespace test {

// Rows drawn top first, as on screen; the last string is row 0. Each row is 10 characters: '.' empty, 'X' or 'G'
// garbage, or a piece letter.
inline std::vector<BoardRow> board(std::initializer_list<std::string_view> top_first) {
  std::vector<BoardRow> rows;
  for (auto it = std::rbegin(top_first); it != std::rend(top_first); ++it) {
    EXPECT_EQ(it->size(), static_cast<std::size_t>(kMatrixWidth)) << "row \"" << *it << "\"";
    BoardRow row(kMatrixWidth, Piece::kNone);
    for (std::size_t x = 0; x < it->size() && x < row.size(); ++x) {
      Piece p = Piece::kGarbage;
      if ((*it)[x] != 'X') {
        EXPECT_TRUE(piece_from_letter((*it)[x], p)) << "bad cell '" << (*it)[x] << "'";
      }
      row[x] = p;
    }
    rows.push_back(row);
  }
  return rows;
}

// "TIO" -> {kT, kI, kO}.
inline std::vector<Piece> sequence(std::string_view letters) {
  std::vector<Piece> out;
  for (char c : letters) {
    Piece p = Piece::kNone;
    EXPECT_TRUE(piece_from_letter(c, p) && is_tetromino(p)) << "bad piece '" << c << "'";
    out.push_back(p);
  }
  return out;
}

// Rows 0..n-1 of a matrix, top first, in board()'s format ('X' for garbage).
inline std::vector<std::string> rows_of(const Matrix& m, int n) {
  std::vector<std::string> out;
  for (int y = n - 1; y >= 0; --y) {
    std::string row;
    for (int x = 0; x < kMatrixWidth; ++x) row += m.at(x, y) == Piece::kGarbage ? 'X' : piece_letter(m.at(x, y));
    out.push_back(row);
  }
  return out;
}

// Endless rules with a fixed piece sequence and an initial board; everything else at its default.
inline GameConfig rules_config(std::string_view pieces, std::vector<BoardRow> rows = {}) {
  GameConfig c = make_endless();
  c.generator = GeneratorKind::kFixed;
  c.fixed_sequence = sequence(pieces);
  c.initial_board = std::move(rows);
  return c;
}

// The events of one kind, in order.
inline std::vector<Event> of_kind(const std::vector<Event>& events, EventKind kind) {
  std::vector<Event> out;
  for (const Event& e : events) {
    if (e.kind == kind) out.push_back(e);
  }
  return out;
}

// Drives a Game by button changes at given times. Every call checks that update() returned kOk.
class Driver {
 public:
  explicit Driver(const GameConfig& config, std::uint64_t seed = 1) : game_(checked(config), seed) {}

  // Runs the game to `t` with the held buttons unchanged; returns this call's events.
  std::vector<Event> at(TimeUs t) { return update(t, held_); }
  // Adds / removes buttons from the held set at `t`.
  std::vector<Event> press(TimeUs t, Buttons b) { return update(t, static_cast<Buttons>(held_ | b)); }
  std::vector<Event> release(TimeUs t, Buttons b) { return update(t, static_cast<Buttons>(held_ & ~b)); }
  // Press then release at the same time.
  std::vector<Event> tap(TimeUs t, Buttons b) {
    std::vector<Event> events = press(t, b);
    append(events, release(t, b));
    return events;
  }

  // Space-separated taps, `step` microseconds apart, the first at next_time(): L R CW CCW 180 SD HD HOLD.
  // "SD" is a soft-drop tap (instant to the floor when sdf is 0). Returns the events of all taps.
  std::vector<Event> play(std::string_view script, TimeUs step = 1) {
    struct Token {
      std::string_view name;
      Buttons button;
    };
    constexpr Token kTokens[] = {{"L", button::kMoveLeft},    {"R", button::kMoveRight},   {"CW", button::kRotateCw},
                                 {"CCW", button::kRotateCcw}, {"180", button::kRotate180}, {"SD", button::kSoftDrop},
                                 {"HD", button::kHardDrop},   {"HOLD", button::kHold}};
    std::vector<Event> events;
    std::istringstream in{std::string(script)};
    std::string word;
    TimeUs t = next_time();
    while (in >> word) {
      bool known = false;
      for (const Token& token : kTokens) {
        if (word != token.name) continue;
        known = true;
        append(events, tap(t, token.button));
        t += step;
      }
      EXPECT_TRUE(known) << "unknown script token " << word;
    }
    return events;
  }

  // Turns the active piece with `turn` ("", "CW", "CCW" or "180"), taps it to box column `x`, hard drops it.
  std::vector<Event> drop_at(std::string_view turn, int x, TimeUs step = 1) {
    std::vector<Event> events = started_ ? std::vector<Event>{} : at(0);
    append(events, play(turn, step));
    for (int guard = 0; guard < kMatrixWidth && game_.active() && game_.active()->x != x; ++guard) {
      const int from = game_.active()->x;
      append(events, play(from < x ? "R" : "L", step));
      if (!game_.active() || game_.active()->x == from) break;
    }
    EXPECT_TRUE(game_.active() && game_.active()->x == x) << "could not reach column " << x;
    append(events, play("HD", step));
    return events;
  }

  // 0 before the first update, else the last update's time + 1.
  [[nodiscard]] TimeUs next_time() const { return started_ ? last_t_ + 1 : 0; }
  [[nodiscard]] Buttons held() const { return held_; }
  [[nodiscard]] const Game& game() const { return game_; }
  // The active piece; adds a failure (and returns a default piece) if none is out.
  [[nodiscard]] ActivePiece piece() const {
    const auto a = game_.active();
    EXPECT_TRUE(a.has_value()) << "no active piece at " << last_t_;
    return a.value_or(ActivePiece{});
  }
  // Every event since the game was built.
  [[nodiscard]] const std::vector<Event>& log() const { return log_; }

 private:
  static const GameConfig& checked(const GameConfig& config) {
    EXPECT_EQ(sr::test::problem_of(check_config(config)), std::nullopt);
    return config;
  }
  static void append(std::vector<Event>& to, const std::vector<Event>& more) {
    to.insert(to.end(), more.begin(), more.end());
  }
  std::vector<Event> update(TimeUs t, Buttons held) {
    const UpdateResult r = game_.update(t, held);
    EXPECT_EQ(r.error, UpdateError::kOk) << "update at " << t;
    if (r.error == UpdateError::kOk) {
      held_ = held;
      last_t_ = t;
      started_ = true;
    }
    std::vector<Event> events(r.events.begin(), r.events.end());
    append(log_, events);
    return events;
  }

  Game game_;
  Buttons held_ = 0;
  TimeUs last_t_ = 0;
  bool started_ = false;
  std::vector<Event> log_;
};

// The four orientations by their compass letters, for tables of turns.
inline constexpr Rotation kN = Rotation::kNorth, kE = Rotation::kEast, kS = Rotation::kSouth, kW = Rotation::kWest;

// The cells of the matrix a piece covers, as a set of (x, y): what comparisons of positions and mirror images need.
using CellSet = std::set<std::pair<int, int>>;

inline CellSet cells_at(Piece p, Rotation r, int x, int y) {
  CellSet out;
  for (const Cell c : piece_cells(p, r)) out.insert({x + c.x, y + c.y});
  return out;
}

// The orientation of the mirror image: east and west swap, north and south stay.
inline Rotation mirror_orientation(Rotation r) { return r == kE ? kW : r == kW ? kE : r; }

}  // namespace test
}  // namespace sr::engine
