// Feedback events: what happened during one Game::update call, in the order it happened.
// Renderers use them for effects, stats and servers for live numbers. Events are a by-product: the game state
// alone defines the game.
#pragma once

#include <cstdint>

#include "common/engine/types.h"

namespace sr::engine {

enum class SpinKind : std::uint8_t { kNone = 0, kMini = 1, kFull = 2 };

enum class TopOut : std::uint8_t {
  kNone = 0,
  kBlockOut = 1,  // a new piece overlapped a block where it spawned
  kLockOut = 2,   // a piece locked entirely above the visible matrix (y >= 20)
};

enum class EventKind : std::uint8_t {
  kSpawn = 0,     // piece: the new active piece
  kHold = 1,      // piece: the piece put into hold
  kHardDrop = 2,  // piece, rows: how far it fell
  kLock = 3,      // piece, x, y, rotation: where it locked (before any line clear)
  kClear = 4,     // lines, spin, combo, b2b, perfect_clear, points, piece; rows_mask of cleared rows
  kLevelUp = 5,   // level: the new level
  kGameOver = 6,  // top_out: why
  kFinished = 7,  // the mode's limit was reached
};

struct Event {
  TimeUs time_us = 0;
  EventKind kind = EventKind::kSpawn;
  Piece piece = Piece::kNone;
  Rotation rotation = Rotation::kNorth;
  std::int8_t x = 0;
  std::int8_t y = 0;
  std::int8_t lines = 0;  // kClear: 0..4 (0 for a spin that cleared nothing)
  std::int8_t rows = 0;   // kHardDrop: rows fallen
  SpinKind spin = SpinKind::kNone;
  bool b2b = false;            // kClear: this clear got the back-to-back bonus
  bool perfect_clear = false;  // kClear: the matrix is empty after it
  TopOut top_out = TopOut::kNone;
  std::int32_t combo = 0;      // kClear: 0 for the first clearing piece in a row, 1 for the second, ...
  std::int32_t level = 0;      // kLevelUp
  std::int64_t rows_mask = 0;  // kClear: bit y set for every cleared row y
  std::int64_t points = 0;     // kClear: score gained by this lock (drops excluded)
};

}  // namespace sr::engine
