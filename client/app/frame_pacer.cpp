#include "client/app/frame_pacer.h"

#include <algorithm>

namespace sr::client {

FramePacer::FramePacer(bool vsync_requested, double refresh_hz)
    : vsync_requested_(vsync_requested), refresh_hz_(refresh_hz > 0 ? refresh_hz : 0), probing_(vsync_requested) {
  set_cap(0);
}

void FramePacer::set_cap(int setting) {
  if (setting <= 0) {
    cap_hz_ = refresh_hz_ > 0 ? refresh_hz_ : kDefaultCapHz;
  } else {
    cap_hz_ = std::clamp(static_cast<double>(setting), 30.0, 1000.0);
  }
}

void FramePacer::set_vsync_requested(bool on) {
  vsync_requested_ = on;
  honoured_ = false;
  probing_ = on;
  probe_count_ = 0;
  probe_busy_s_ = 0;
}

double FramePacer::refresh_period_s() const { return 1.0 / (refresh_hz_ > 0 ? refresh_hz_ : cap_hz_); }

void FramePacer::frame_done(double start_s, double end_s, Activity activity) {
  last_start_s_ = start_s;
  // Frames keep the cap's cadence: a frame that starts a little late (the wait's timer overshoots) takes the next
  // deadline on the grid, one that starts early (a key woke the loop) leaves the deadline where it was, and one a
  // whole period late (a slow frame, an idle stretch) starts a new grid.
  const double period = 1.0 / cap_hz_;
  const double late = start_s - next_due_s_;
  if (late >= period) {
    next_due_s_ = start_s + period;
  } else if (late >= 0) {
    next_due_s_ += period;
  }
  if (activity != Activity::kAnimating) {
    // Only frames drawn back to back tell: the first swap after a wait may find a free buffer and return at once.
    probe_count_ = 0;
    probe_busy_s_ = 0;
    return;
  }
  if (!probing_ && vsync_requested_ && end_s >= reprobe_at_s_) probing_ = true;
  if (probing_) probe(end_s - start_s, end_s);
}

void FramePacer::probe(double busy_s, double end_s) {
  ++probe_count_;
  probe_busy_s_ += busy_s;
  if (probe_count_ < kProbeFrames) return;
  // A driver that honours vsync holds each swap until the monitor's next refresh, so frames drawn without waiting
  // take a whole period. Frames much faster than that were not held. (A machine too slow for the refresh rate also
  // looks "honoured": it never has time to wait anyway.)
  honoured_ = probe_busy_s_ / probe_count_ >= kHonouredFraction * refresh_period_s();
  probe_count_ = 0;
  probe_busy_s_ = 0;
  if (!honoured_) {
    probing_ = false;  // the cap paces from now on; measuring again needs unpaced frames
    reprobe_at_s_ = end_s + kReprobeAfterS;
  }
}

void FramePacer::input_seen(double now_s) { settle_until_s_ = now_s + kSettleS; }

double FramePacer::wait_s(double now_s, const PaceState& state) const {
  if (state.activity == Activity::kUnpaced) return 0;
  double wait = kIdleWaitS;
  const bool animating = state.activity == Activity::kAnimating || now_s < settle_until_s_;
  if (state.iconified) {
    // Nothing is seen: only what must be polled (and wake-ups) bring a frame.
    if (state.wake_s) wait = std::min(wait, *state.wake_s - now_s);
  } else if (animating && !state.focused && state.activity == Activity::kAnimating) {
    wait = last_start_s_ + 1.0 / kBackgroundHz - now_s;  // still moving, at a fraction of the cost
  } else if (animating) {
    // Probing (or vsync honoured): the swap waits for the monitor; otherwise the cap's next frame deadline.
    wait = probing_ ? 0 : next_due_s_ - now_s;
  } else if (state.wake_s) {
    wait = std::min(wait, *state.wake_s - now_s);
  }
  if (state.poll_every_s) wait = std::min(wait, *state.poll_every_s);
  return std::max(wait, 0.0);
}

}  // namespace sr::client
