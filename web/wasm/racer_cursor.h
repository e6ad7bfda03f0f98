// One racer's game of a replay, at any point of its recording: what a web page's replay viewer shows, seekable
// anywhere in a few milliseconds however long the game.
//
// # Positions
// A position is a point of the canonical feeding (common/replay/simulate.h, "The feeding"): the first `changes`
// inputs of the racer's log applied (each as Game::update(time, buttons)), then the game advanced to `time_us`
// (no earlier than the last applied input, no later than the next one). Every seek lands on such a point, so the
// game shown is exactly the one replay::game_at() gives (tests/web/racer_cursor_test.cpp checks every piece and
// change of the golden replays against it):
// - seek_time(t): every input at or before t, then the time t (clamped to 0..end_us()); game_at's kTime;
// - seek_piece(k): right after the k-th lock, in the feeding call that locked it; game_at's kPiece;
// - seek_change(c): right after the c-th input (c = 0: the start, time 0, first piece out).
//
// # Speed
// The constructor plays the racer once and keeps a copy of the game (one GameState value) every kSnapshotEvery
// changes. A seek starts from the latest copy at or before its target (or from the current game when that lies
// between the copy and the target), so it re-simulates at most kSnapshotEvery changes plus the time up to the
// target. Playback (seek_time with a growing time) only feeds what lies between two frames.
//
// Pure: the engine and the replay model only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/input.h"
#include "common/replay/replay.h"

namespace sr::web {

struct Position {
  std::size_t changes = 0;     // inputs applied, 0..change_count()
  engine::TimeUs time_us = 0;  // game time fed to
  bool operator==(const Position&) const = default;
};

// A cell of the board the page draws: matrix coordinates (x 0..9 from the left, y 0..39 from the bottom).
struct CellXY {
  int x = 0;
  int y = 0;
  bool operator==(const CellXY&) const = default;
};

// The active piece's four cells in `game`, and where a hard drop would put them; nullopt while no piece is out.
[[nodiscard]] std::optional<std::array<CellXY, 4>> active_cells_of(const engine::Game& game);
[[nodiscard]] std::optional<std::array<CellXY, 4>> ghost_cells_of(const engine::Game& game);

class RacerCursor {
 public:
  static constexpr std::size_t kSnapshotEvery = 32;

  // Plays racer `racer` of `replay` once the canonical way. `replay` must be valid (check_replay() is ok; decoded
  // replays are), must outlive the cursor and must not change; `racer` must be in range. The cursor starts at
  // seek_change(0).
  RacerCursor(const replay::Replay& replay, std::size_t racer);

  [[nodiscard]] const engine::Game& game() const { return game_; }
  [[nodiscard]] Position position() const { return position_; }
  // The recorded end of the racer's game (RacerResult::stats.time_us): where the verifier stops feeding.
  [[nodiscard]] engine::TimeUs end_us() const { return end_us_; }
  // Inputs in the racer's log.
  [[nodiscard]] std::size_t change_count() const { return inputs_.size(); }
  // Pieces the whole recording locks (fed to the end, as the verifier does).
  [[nodiscard]] std::int64_t piece_count() const { return static_cast<std::int64_t>(lock_times_.size()); }

  // Moves to game time t, clamped to 0..end_us(): every input at or before it applied.
  void seek_time(engine::TimeUs t);
  // Moves to right after the k-th lock (k = 0: the start). False (and no move) when k is not in 0..piece_count().
  bool seek_piece(std::int64_t k);
  // Moves to right after input c (1-based; 0 = the start). False (and no move) when c > change_count().
  bool seek_change(std::size_t c);
  // The next (+1) or previous (-1) lock from here: forward, the lock after the pieces locked so far; back, the
  // moment the last locked piece locked, or the lock before it when already there. False at either end.
  bool step_piece(int direction);
  // The next (+1) or previous (-1) change. False at either end.
  bool step_change(int direction);

  // Game time of input c (1-based, 1..change_count()).
  [[nodiscard]] engine::TimeUs change_time(std::size_t c) const { return inputs_.at(c - 1).time_us; }
  // Buttons input c (1-based) changed to.
  [[nodiscard]] engine::Buttons change_buttons(std::size_t c) const { return inputs_.at(c - 1).buttons; }
  // Game::state_hash() right after input c (1-based) was fed the canonical way: the per-change hashes that the
  // WebAssembly build must reproduce exactly.
  [[nodiscard]] std::uint64_t change_hash(std::size_t c) const { return change_hashes_.at(c - 1); }
  // Game::state_hash() at the recorded end (what RacerResult::final_hash records when the replay verifies).
  [[nodiscard]] std::uint64_t end_hash() const { return end_hash_; }
  // Game time of the k-th lock (1-based, 1..piece_count()).
  [[nodiscard]] engine::TimeUs lock_time(std::int64_t k) const {
    return lock_times_.at(static_cast<std::size_t>(k - 1));
  }

  // The buttons the player holds at the current position (those of the last applied input, 0 before any).
  [[nodiscard]] engine::Buttons buttons() const;
  // The active piece's four cells, and where a hard drop would put them; nullopt while no piece is out.
  [[nodiscard]] std::optional<std::array<CellXY, 4>> active_cells() const;
  [[nodiscard]] std::optional<std::array<CellXY, 4>> ghost_cells() const;

 private:
  struct Snapshot {
    std::size_t changes = 0;  // inputs applied (a multiple of kSnapshotEvery)
    engine::Game game;        // right after them (the start: after update(0))
  };

  // Puts the game at `to`, starting from the latest snapshot at or before it, or from the current game when that
  // lies between the snapshot and `to`.
  void move_to(Position to);
  void feed(std::size_t changes, engine::TimeUs time_us);  // forward from position_
  [[nodiscard]] Position piece_position(std::int64_t k) const;

  const std::vector<engine::InputChange>& inputs_;
  engine::TimeUs end_us_ = 0;
  engine::Game game_;
  Position position_;
  std::vector<Snapshot> snapshots_;
  std::vector<std::uint64_t> change_hashes_;
  std::vector<engine::TimeUs> lock_times_;
  std::uint64_t end_hash_ = 0;
};

}  // namespace sr::web
