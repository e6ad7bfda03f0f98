// Basic value types shared by the whole engine: pieces, orientations, buttons.
//
// Coordinates: x grows to the right (0..9), y grows UP, (0,0) is the bottom-left cell of the matrix.
// Rows 0..19 are visible, rows 20..39 are the hidden buffer.
#pragma once

#include <cstdint>

namespace sr::engine {

inline constexpr int kMatrixWidth = 10;
inline constexpr int kVisibleRows = 20;
inline constexpr int kMatrixHeight = 40;  // visible rows plus a 20-row buffer

// A cell's contents and a tetromino's kind share one id space so that a board cell names the piece that left it.
// Values are stored in replays and hashed: never renumber.
enum class Piece : std::uint8_t {
  kNone = 0,
  kI = 1,        // cyan
  kJ = 2,        // blue
  kL = 3,        // orange
  kO = 4,        // yellow
  kS = 5,        // green
  kT = 6,        // purple
  kZ = 7,        // red
  kGarbage = 8,  // grey; only in initial boards, never generated
};
inline constexpr int kPieceKinds = 7;  // I..Z

[[nodiscard]] constexpr bool is_tetromino(Piece p) { return p >= Piece::kI && p <= Piece::kZ; }
// 'I','J','L','O','S','T','Z', 'G' for garbage, '.' for none.
[[nodiscard]] char piece_letter(Piece p);
// Inverse of piece_letter (upper or lower case); kNone for '.', returns false for anything else.
[[nodiscard]] bool piece_from_letter(char c, Piece& out);

// Orientation: 0 = spawn (north), R = one clockwise turn, 2, L. Values are stored: never renumber.
enum class Rotation : std::uint8_t { kNorth = 0, kEast = 1, kSouth = 2, kWest = 3 };

[[nodiscard]] constexpr Rotation rotate_cw(Rotation r) { return static_cast<Rotation>((static_cast<int>(r) + 1) & 3); }
[[nodiscard]] constexpr Rotation rotate_ccw(Rotation r) { return static_cast<Rotation>((static_cast<int>(r) + 3) & 3); }
[[nodiscard]] constexpr Rotation rotate_180(Rotation r) { return static_cast<Rotation>((static_cast<int>(r) + 2) & 3); }

// The buttons a player holds, as a bitmask. An input log stores only changes of this value.
// Bit positions are part of the replay format: never renumber.
using Buttons = std::uint16_t;
namespace button {
inline constexpr Buttons kMoveLeft = 1u << 0;
inline constexpr Buttons kMoveRight = 1u << 1;
inline constexpr Buttons kSoftDrop = 1u << 2;
inline constexpr Buttons kHardDrop = 1u << 3;
inline constexpr Buttons kRotateCw = 1u << 4;
inline constexpr Buttons kRotateCcw = 1u << 5;
inline constexpr Buttons kRotate180 = 1u << 6;
inline constexpr Buttons kHold = 1u << 7;
inline constexpr Buttons kAll = 0xFF;  // any other bit is invalid input
}  // namespace button

// Game time: microseconds since the race started. Never read from a clock inside the engine.
using TimeUs = std::int64_t;
inline constexpr TimeUs kNever = INT64_MAX;

}  // namespace sr::engine
