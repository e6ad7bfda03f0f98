// One solo game as the player experiences it: countdown, play, pause, end. Owns the game's RacerRun (the Game and
// the input log that becomes the replay) and stamps button changes with the GameClock. It never computes game rules:
// every number it shows comes from the engine.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "client/audio/game_cues.h"
#include "client/input/game_clock.h"
#include "client/solo/feedback.h"
#include "common/engine/game.h"
#include "common/engine/racer_run.h"

namespace sr::client {

enum class SessionPhase : std::uint8_t { kCountdown, kPlaying, kPaused, kOver };

class SoloSession {
 public:
  // The countdown starts at `wall_s` and lasts `countdown_s` (0 starts at once). `config` must be valid.
  SoloSession(engine::GameConfig config, std::uint64_t seed, double wall_s, double countdown_s);

  // The full held-button state changed at `wall_s` (a key callback's time). During the countdown it is kept and
  // applied at game time 0; while paused or over it is ignored.
  void set_buttons(double wall_s, engine::Buttons held);
  // Advances the game to `wall_s` (once per frame) and ends the countdown when due.
  void tick(double wall_s);
  void pause(double wall_s);
  // `held` is the button state at resume; it is applied at the paused game time if it differs.
  void resume(double wall_s, engine::Buttons held);
  // The player gave up: the game ends here, as abandoned.
  void abandon(double wall_s);

  [[nodiscard]] SessionPhase phase() const { return phase_; }
  [[nodiscard]] bool abandoned() const { return abandoned_; }
  [[nodiscard]] const engine::Game& game() const { return run_.game(); }
  [[nodiscard]] const engine::RacerRun& run() const { return run_; }
  [[nodiscard]] const Feedback& feedback() const { return feedback_; }
  // The sound cues of every update since the last call (audio::append_cues), oldest first, at most the newest
  // kMaxPendingCues; the caller plays them.
  static constexpr std::size_t kMaxPendingCues = 64;
  [[nodiscard]] std::vector<audio::Cue> take_cues() { return std::exchange(cues_, {}); }
  // Seconds left in the countdown (0 once playing).
  [[nodiscard]] double countdown_left(double wall_s) const;
  // Game time now, for displays that interpolate (the HUD clock).
  [[nodiscard]] engine::TimeUs game_time() const { return run_.game().now(); }
  // Last stamp handed out; callers that drive a second board (race the bot) follow it.
  [[nodiscard]] engine::TimeUs clock_us() const { return clock_.last(); }

 private:
  void apply(engine::TimeUs t, std::optional<engine::Buttons> buttons, double wall_s);
  void start_if_due(double wall_s);

  engine::RacerRun run_;
  GameClock clock_;
  Feedback feedback_;
  std::vector<audio::Cue> cues_;
  SessionPhase phase_ = SessionPhase::kCountdown;
  double go_at_s_ = 0;
  engine::Buttons held_ = 0;  // latest state from the player
  bool abandoned_ = false;
};

}  // namespace sr::client
