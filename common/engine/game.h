// The game: one copyable value advanced by one narrow door, update(time, optional buttons).
//
// # Reproducibility
// A game is fully defined by (kRulesVersion, GameConfig, seed, input log). The engine reads no clock, uses no
// floating point, and breaks ties between events at the same microsecond by a fixed order (time limit, spawn, lock,
// gravity, auto-shift). The outcome does not depend on how often update() is called: feeding a log in one call per
// change, or with any number of extra calls in between, gives the same state_hash() after every change.
//
// # Buttons within one change
// Newly pressed buttons act in this order: hold, rotate CCW, rotate CW, rotate 180, move (left/right), soft drop,
// hard drop. Pressing left and right together favours right. While no piece is out (spawn delay), rotation and
// hold presses are kept for the next piece when IRS/IHS are on, and dropped otherwise.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/events.h"
#include "common/engine/generator.h"
#include "common/engine/matrix.h"
#include "common/engine/stats.h"
#include "common/engine/types.h"

namespace sr::engine {

enum class UpdateError : std::uint8_t {
  kOk = 0,
  kTimeInPast = 1,      // time is earlier than the last update's time; nothing changed
  kInvalidButtons = 2,  // a bit outside button::kAll is set; nothing changed
};

enum class Phase : std::uint8_t {
  kSpawnDelay = 0,  // no piece out: waiting for ARE / line clear delay
  kFalling = 1,     // a piece is out
  kOver = 2,        // finished or topped out; updates change nothing but time stays put
};

struct ActivePiece {
  Piece piece = Piece::kNone;
  Rotation rotation = Rotation::kNorth;
  std::int8_t x = 0;  // box position, see pieces.h
  std::int8_t y = 0;
  bool operator==(const ActivePiece&) const = default;
};

// Everything that changes during a game. Plain data, compared and hashed field by field.
struct GameState {
  TimeUs now_us = 0;
  Phase phase = Phase::kSpawnDelay;
  Matrix matrix;
  Generator generator;
  std::array<Piece, 8> queue{};  // upcoming pieces, queue[0] comes next; always full
  ActivePiece active;
  Piece hold = Piece::kNone;
  bool hold_used = false;  // hold was used for the current piece

  Buttons held = 0;
  std::int8_t das_dir = 0;      // -1 left, +1 right, 0 none
  bool das_charged = false;     // ARR 0 only: DAS has elapsed, the piece slides to the wall whenever it can
  Buttons pending_initial = 0;  // rotate/hold presses kept for the next spawn (IRS/IHS)

  TimeUs end_at = kNever;    // time limit
  TimeUs spawn_at = kNever;  // next spawn when no piece is out
  TimeUs fall_at = kNever;   // next gravity / soft-drop step
  TimeUs shift_at = kNever;  // next DAS / ARR step
  // ARR > 0 only: the last repeat found the way blocked, so no repeat is scheduled until the piece changes (then
  // shift_at is moved on to the next step of the same rhythm). Saves one event per ARR while pushing at a wall.
  bool shift_blocked = false;
  TimeUs lock_timer_at = kNever;  // lock delay expiry

  std::int8_t lowest_y = 0;      // lowest box row the current piece has reached
  bool lock_started = false;     // the piece has touched down since reaching lowest_y
  bool lock_on_landing = false;  // the lock timer ran out in the air: lock when it next touches down
  std::int32_t lock_resets = 0;  // extended placement: resets used since reaching lowest_y
  TimeUs ground_since = kNever;  // when the piece last touched down, kNever while airborne
  TimeUs ground_time_us = 0;     // timer lock-down: ground time accumulated since reaching lowest_y

  bool last_rotated = false;  // the last successful action on the piece was a rotation
  std::int8_t last_kick = 0;  // kick test the last rotation used, as engine::kick_record() (rotation.h) encodes it

  std::int32_t combo = -1;       // -1 after a lock that cleared nothing
  std::int32_t b2b_chain = 0;    // consecutive difficult clears (guideline)
  std::int32_t tetrs_b2b = 0;    // consecutive spin / perfect / quad clears (tetrs scoring)
  std::int32_t level_lines = 0;  // lines cleared toward the current level's goal
  Stats stats;
  TopOut top_out = TopOut::kNone;
  bool finished = false;  // the mode's limit was reached (a win, or the end of a timed game)

  bool operator==(const GameState&) const = default;
};

struct UpdateResult {
  UpdateError error = UpdateError::kOk;
  // What happened, in order. Valid until the next call to update().
  std::span<const Event> events;
};

class Game {
 public:
  // `config` must be valid (check_config(config) is ok). Time starts at 0 and the first piece spawns at 0
  // (plus ARE if set) on the first update.
  Game(GameConfig config, std::uint64_t seed);

  // Runs every timed event up to and including `time_us`, then applies `buttons` (the full new button state, not a
  // delta) if given, then runs any event that this caused at `time_us`.
  // # Errors
  // kTimeInPast if time_us < now(); kInvalidButtons for unknown bits. Either leaves the game unchanged.
  [[nodiscard]] UpdateResult update(TimeUs time_us, std::optional<Buttons> buttons = std::nullopt);

  // A documented 64-bit FNV-1a hash of the canonical little-endian encoding of state() (fields in declaration
  // order; see game.cpp). Equal hashes mean equal games, on any machine.
  [[nodiscard]] std::uint64_t state_hash() const;

  [[nodiscard]] const GameConfig& config() const { return config_; }
  [[nodiscard]] const GameState& state() const { return state_; }
  [[nodiscard]] std::uint64_t seed() const { return seed_; }
  [[nodiscard]] TimeUs now() const { return state_.now_us; }
  [[nodiscard]] const Stats& stats() const { return state_.stats; }
  [[nodiscard]] const Matrix& matrix() const { return state_.matrix; }
  [[nodiscard]] bool over() const { return state_.phase == Phase::kOver; }
  // The active piece, if one is out.
  [[nodiscard]] std::optional<ActivePiece> active() const;
  // Box row where the active piece would land if hard dropped (its y if none is out).
  [[nodiscard]] int ghost_y() const;
  // The next pieces, as many as config().preview.
  [[nodiscard]] std::span<const Piece> preview() const;
  [[nodiscard]] Piece hold() const { return state_.hold; }
  // Lines still to clear in a lines-limited mode (0 otherwise), for HUDs.
  [[nodiscard]] std::int64_t lines_left() const;

 private:
  // game.cpp
  void run_events(TimeUs until);
  void run_event(TimeUs next);
  [[nodiscard]] TimeUs next_event_at() const;
  [[nodiscard]] TimeUs ground_cap_at() const;
  void finish(TimeUs t);
  void top_out(TimeUs t, TopOut reason);
  void end_game(TimeUs t, EventKind kind, TopOut reason);
  void emit(const Event& e) { events_.push_back(e); }
  // game_input.cpp
  void apply_buttons(TimeUs t, Buttons buttons);
  void start_das(TimeUs t, std::int8_t dir);
  void on_shift_timer(TimeUs t);
  void resume_shift(TimeUs t);
  // game_piece.cpp
  void spawn(TimeUs t, Piece piece, bool after_hold);
  void do_hold(TimeUs t);
  bool try_move(TimeUs t, int dx);
  bool try_rotate(TimeUs t, Rotation to);
  void soft_drop_press(TimeUs t);
  void hard_drop(TimeUs t);
  void on_fall_timer(TimeUs t);
  void on_lock_timer(TimeUs t);
  void note_move(TimeUs t);
  void reach_new_lowest();
  void step_down();
  void settle(TimeUs t);
  void update_ground(TimeUs t);
  [[nodiscard]] bool turn_with_kicks(Rotation to);
  [[nodiscard]] SpinKind detect_spin() const;
  int score_lock(TimeUs t, SpinKind spin, std::uint64_t rows_mask);    // returns lines cleared
  bool score_clear(TimeUs t, SpinKind spin, std::uint64_t rows_mask);  // returns whether the level limit was met
  void lock(TimeUs t);
  void shift_to_wall(TimeUs t);
  [[nodiscard]] bool fits(const ActivePiece& p) const;
  [[nodiscard]] bool grounded() const;
  [[nodiscard]] std::int32_t fall_interval_us() const;
  [[nodiscard]] Piece pop_queue();

  GameConfig config_;
  std::uint64_t seed_ = 0;
  GameState state_;
  std::vector<Event> events_;  // feedback of the current update(); not part of the state
  TimeUs buttons_at_ = -1;     // time of the button change in the current update() (-1: none); not state
};

}  // namespace sr::engine
