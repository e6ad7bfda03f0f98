#include "client/input/game_clock.h"

#include <cmath>

namespace sr::client {

engine::TimeUs wall_to_game_us(double wall_s, double start_s) {
  return engine::stamp_on_grid(std::llround((wall_s - start_s) * 1e6));
}

engine::TimeUs race_event_us(engine::TimeUs now_us, double now_s, double when_s) {
  return engine::stamp_on_grid(now_us - std::llround((now_s - when_s) * 1e6));
}

void GameClock::start(double start_s) {
  start_s_ = start_s;
  started_ = true;
  paused_ = false;
  last_us_ = 0;
}

void GameClock::pause(double wall_s) {
  if (paused_) return;
  paused_ = true;
  paused_at_s_ = wall_s;
}

void GameClock::resume(double wall_s) {
  if (!paused_) return;
  paused_ = false;
  if (wall_s > paused_at_s_) start_s_ += wall_s - paused_at_s_;
}

engine::TimeUs GameClock::stamp(double wall_s) {
  if (!started_ || paused_) return last_us_;
  const engine::TimeUs t = wall_to_game_us(wall_s, start_s_);
  if (t > last_us_) last_us_ = t;
  return last_us_;
}

}  // namespace sr::client
