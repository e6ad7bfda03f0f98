// Turns wall-clock seconds (glfwGetTime) into game microseconds.
//
// Game time is integer microseconds since the game started (its 0 is the end of the countdown), with paused spans
// removed, stamped on the 1 ms grid by the project's one rule (engine::stamp_on_grid: the grid point at or before the
// event). Stamps are monotone: a key event is never stamped earlier than one already handed out, so Game::update
// never sees the past.
#pragma once

#include "common/engine/input.h"
#include "common/engine/types.h"

namespace sr::client {

// Game microseconds for `wall_s` when game time 0 is at `start_s`: the elapsed time to the nearest microsecond (a
// double's last bits are noise: 10.001 - 10.0 is 999.99999... us), then stamped (engine::stamp_on_grid). Negative
// before the start.
[[nodiscard]] engine::TimeUs wall_to_game_us(double wall_s, double start_s);

// A race's stamp for a button change at wall time `when_s`, read when the race clock (the session's, synced to the
// server) says `now_us` at wall time `now_s`: the race time of that moment, the wall-time gap rounded to the nearest
// microsecond as in wall_to_game_us, then stamped (engine::stamp_on_grid). Negative during the countdown.
[[nodiscard]] engine::TimeUs race_event_us(engine::TimeUs now_us, double now_s, double when_s);

class GameClock {
 public:
  // Game time 0 is at wall time `start_s`.
  void start(double start_s);
  // While paused, wall time passes without game time.
  void pause(double wall_s);
  void resume(double wall_s);
  [[nodiscard]] bool paused() const { return paused_; }
  [[nodiscard]] bool started() const { return started_; }

  // The stamp for an event at `wall_s`: wall_to_game_us with paused spans removed, never below 0, never below an
  // earlier stamp, and frozen while paused.
  [[nodiscard]] engine::TimeUs stamp(double wall_s);
  // The last stamp handed out.
  [[nodiscard]] engine::TimeUs last() const { return last_us_; }

 private:
  double start_s_ = 0;  // moves later by every paused span
  double paused_at_s_ = 0;
  bool started_ = false;
  bool paused_ = false;
  engine::TimeUs last_us_ = 0;
};

}  // namespace sr::client
