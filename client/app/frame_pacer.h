// Frame pacing: how long the main loop waits for events after each frame. Pure: it reads no clock and calls no
// GLFW; the loop passes the time in and waits with glfwWaitEventsTimeout, which any event (a key, the mouse, focus)
// ends at once, so a wait never holds input back. The design is in client/README.md ("Frame pacing").
#pragma once

#include <optional>

namespace sr::client {

// What the screen on show needs from the next frames.
enum class Activity {
  kIdle,       // nothing moves by itself (menus, a paused game, results): draw when something happens
  kAnimating,  // moves every frame (a game running, a replay playing, a race): draw at vsync or the frame cap
  kUnpaced,    // --bench-frames: as fast as possible, never waits
};

struct PaceState {
  Activity activity = Activity::kIdle;
  bool focused = true;
  bool iconified = false;
  // An idle screen must be drawn again by then (a countdown digit, buttons that appear after a delay). Wall seconds.
  std::optional<double> wake_s;
  // The longest any wait may last: something is polled once a frame and must not wait long (the network
  // connection, gamepads). Seconds.
  std::optional<double> poll_every_s;
};

class FramePacer {
 public:
  static constexpr double kDefaultCapHz = 144;       // the cap when the monitor's refresh rate is unknown
  static constexpr double kIdleWaitS = 0.5;          // an idle screen still redraws this often (a text cursor blinks)
  static constexpr double kSettleS = 0.1;            // frames keep coming this long after input: ImGui lays out and
                                                     // moves its highlight over a few frames
  static constexpr double kBackgroundHz = 20;        // an animating screen in an unfocused window
  static constexpr int kProbeFrames = 30;            // frames measured to tell whether vsync is honoured
  static constexpr double kReprobeAfterS = 10;       // an ignored vsync is tested again after this long (new monitor)
  static constexpr double kHonouredFraction = 0.75;  // a frame that takes this much of a refresh period waited for it

  // `vsync_requested`: the swap interval is 1. `refresh_hz`: the monitor's rate, 0 if unknown.
  FramePacer(bool vsync_requested, double refresh_hz);

  // The frame cap in frames per second: `setting` 0 means the monitor's rate (kDefaultCapHz when unknown);
  // otherwise 30..1000 (settings.h).
  void set_cap(int setting);
  [[nodiscard]] double cap_hz() const { return cap_hz_; }
  void set_vsync_requested(bool on);

  // A frame ran from `start_s` (before polling events) to `end_s` (the swap returned) on a screen with `activity`.
  void frame_done(double start_s, double end_s, Activity activity);
  // Input (keys, mouse, focus, a resize) arrived at `now_s`.
  void input_seen(double now_s);

  // Seconds to wait for events before the next frame (0: draw at once).
  [[nodiscard]] double wait_s(double now_s, const PaceState& state) const;

  // Swaps wait for the monitor: the last kProbeFrames animating frames each took most of a refresh period.
  [[nodiscard]] bool vsync_honoured() const { return honoured_; }

 private:
  [[nodiscard]] double refresh_period_s() const;
  void probe(double busy_s, double end_s);

  bool vsync_requested_;
  double refresh_hz_;
  double cap_hz_ = kDefaultCapHz;
  double last_start_s_ = 0;     // when the last frame started
  double next_due_s_ = 0;       // when the next capped frame should start (a cadence: late wake-ups do not add up)
  double settle_until_s_ = -1;  // input_seen() + kSettleS
  bool honoured_ = false;       // believed after a probe
  bool probing_ = false;        // measuring (no waiting meanwhile, so the swap alone paces the frames)
  int probe_count_ = 0;
  double probe_busy_s_ = 0;  // sum over the probe's frames
  double reprobe_at_s_ = 0;  // when vsync was found ignored: when to try again
};

}  // namespace sr::client
