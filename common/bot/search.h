// Placement search: every place the active piece can lock, found by a breadth-first search over (x, y, rotation)
// with the moves a player has (tap or auto-shift left/right, the rotations with the rotation system's kicks, soft
// drop to the floor), then a hard drop. Tucks and spins are found, not only drops from above.
//
// # Model
// kStatic: the piece stays where the player leaves it (gravity is slow next to the inputs); soft drop takes it to
// the floor. While the piece is above the whole stack, moves and rotations do not depend on its height, so the
// search starts it just above the stack (results are the same as from the spawn row, for less work).
// kInstantGravity: after every action the piece falls to the floor (20G, or gravity so fast that it lands between
// two key presses). Auto-shift moves one column then falls (ARR > 0) or slides to the wall then falls (ARR 0).
// Either model is a prediction: the input planner replays every plan on a copy of the game before using it.
//
// # Results
// Placements are deduplicated by the cells they fill (S, Z and I cover the same cells in two orientations), except
// that a T placement reached by a rotation that the engine scores as a spin is kept apart from the same cells
// reached without one. The first path found to each is a shortest one in actions (finesse). Results are in a
// fixed order, so the same board and piece always give the same list.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "common/bot/bitboard.h"
#include "common/engine/config.h"
#include "common/engine/events.h"

namespace sr::bot {

// What a player does to the piece, key by key. The hard drop that ends every path is implied.
enum class Action : std::uint8_t {
  kLeft = 0,      // tap left: one column
  kRight = 1,     // tap right
  kDasLeft = 2,   // hold left until the piece stops (auto-shift to the wall or an obstacle)
  kDasRight = 3,  // hold right likewise
  kRotateCw = 4,
  kRotateCcw = 5,
  kRotate180 = 6,
  kSoftDrop = 7,  // hold soft drop until the piece lands
  kHold = 8,      // only as the first action of a plan; never produced by the search
};

struct PieceState {
  Piece piece = Piece::kNone;
  Rotation rotation = Rotation::kNorth;
  std::int8_t x = 0;  // box position (pieces.h)
  std::int8_t y = 0;
  bool operator==(const PieceState&) const = default;
};

enum class MoveModel : std::uint8_t { kStatic = 0, kInstantGravity = 1 };

struct SearchOptions {
  engine::RotationSystem rotation = engine::RotationSystem::kSrs;
  bool allow_180 = true;
  bool all_spin = false;  // config all_spin: stuck non-T pieces score as minis
  bool tucks = true;      // false: only what a hard drop from above the stack reaches (the cheap search)
  MoveModel model = MoveModel::kStatic;
  bool arr_zero = false;  // handling ARR is 0 (auto-shift slides): matters for kInstantGravity only
  bool taps = true;       // a tap moves one column; false when DAS is too short to release a key before it repeats
};

// How long a direction key can be held before the engine auto-repeats it (game_input.cpp start_das): DAS, or one
// ARR when DAS is 0. A tap must be released sooner to move one column.
[[nodiscard]] constexpr std::int32_t first_repeat_us(const engine::Handling& h) {
  return h.das_us == 0 && h.arr_us > 0 ? h.arr_us : h.das_us;
}

// Default row time at or below which the bot plans as if the piece fell to the floor after every key (MoveModel).
inline constexpr std::int32_t kInstantGravityUsPerRow = 25'000;

// Search options that match a game's rules, for the gravity the game has right now.
// `instant_gravity_us`: a row time at or below which kInstantGravity is used (kInstantGravityUsPerRow by default).
[[nodiscard]] SearchOptions search_options_for(const engine::GameConfig& config, std::int32_t level,
                                               std::int32_t instant_gravity_us = kInstantGravityUsPerRow);

struct Placement {
  PieceState state;                                 // where the piece locks: grounded, in the engine's coordinates
  engine::SpinKind spin = engine::SpinKind::kNone;  // what the engine will score the lock as
  std::uint8_t actions = 0;                         // key actions before the hard drop
  std::uint8_t soft_drop_rows = 0;                  // rows the piece travels under soft drop on the way
  // Search-private: the node the path runs through, and one more action after it (a rotation into an
  // already-visited state, kept because it makes a spin).
  std::uint16_t node = 0;
  bool has_last = false;
  Action last = Action::kLeft;
};

class PlacementSearch {
 public:
  PlacementSearch();

  // Searches from `start`, which must fit on `board`. Returns the placements; they and path() stay valid until the
  // next run(). An empty result means the piece cannot move anywhere (it still locks where it is on hard drop:
  // that placement is always included when the start fits).
  std::span<const Placement> run(const Bitboard& board, const PieceState& start, const SearchOptions& options);

  // The actions from the start to `placement` (not including the final hard drop), shortest first found.
  void path(const Placement& placement, std::vector<Action>& out) const;
  // The state the search predicts after each action of path(placement): out[i] follows the i-th action.
  void path_states(const Placement& placement, std::vector<PieceState>& out) const;

  [[nodiscard]] std::span<const Placement> placements() const { return placements_; }
  [[nodiscard]] const PieceState& start() const { return start_; }

 private:
  static constexpr int kXOffset = 3, kYOffset = 3, kWidth = 16, kHeight = 48;
  static constexpr int kNodes = 4 * kHeight * kWidth;
  static int node_index(Rotation r, int x, int y) {
    return (static_cast<int>(r) * kHeight + y + kYOffset) * kWidth + x + kXOffset;
  }
  [[nodiscard]] PieceState node_state(int index) const;

  void visit(int from, Action action, const PieceState& to, std::uint8_t kick, int soft_rows);
  void add_final(int node, const PieceState& lock_at, engine::SpinKind spin, bool has_last, Action last);
  [[nodiscard]] engine::SpinKind spin_at(const PieceState& s, std::uint8_t kick) const;
  [[nodiscard]] PieceState fall(PieceState s) const;
  [[nodiscard]] bool fits(const PieceState& s) const { return !board_->collides(s.piece, s.rotation, s.x, s.y); }
  [[nodiscard]] bool grounded(const PieceState& s) const { return board_->collides(s.piece, s.rotation, s.x, s.y - 1); }
  void expand(int node);
  void expand_static(int node, const PieceState& s);
  void expand_instant(int node, const PieceState& s);
  void rotations(int node, const PieceState& s, bool then_fall);

  const Bitboard* board_ = nullptr;
  SearchOptions options_;
  PieceState start_;
  std::uint16_t generation_ = 0;
  std::array<std::uint16_t, kNodes> seen_{};
  std::array<std::uint16_t, kNodes> parent_{};
  std::array<Action, kNodes> action_{};
  std::array<std::uint8_t, kNodes> kick_{};  // 0: not entered by a rotation; otherwise 1 + engine::kick_record()
  std::array<std::uint8_t, kNodes> depth_{};
  std::array<std::uint8_t, kNodes> soft_rows_{};
  std::array<std::uint16_t, 2 * kNodes> final_seen_{};  // [canonical node][spin?]
  std::array<std::uint16_t, kNodes> queue_{};
  int queue_end_ = 0;
  std::vector<Placement> placements_;
};

}  // namespace sr::bot
