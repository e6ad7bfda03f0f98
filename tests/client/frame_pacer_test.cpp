// The frame pacing policy (client/app/frame_pacer.h) driven by a fake clock: frames are "drawn" by advancing the
// time the test passes in.
#include "client/app/frame_pacer.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

constexpr double kEps = 1e-9;

// A fake clock and the main loop's steps: draw a frame that takes `busy_s`, then wait as the pacer says.
struct Loop {
  FramePacer pacer;
  double now_s = 100;
  double overshoot_s = 0;  // each wait lasts this much longer than asked (the OS timer)

  double frame(Activity activity, double busy_s, const PaceState& state) {
    const double start = now_s;
    now_s += busy_s;
    pacer.frame_done(start, now_s, activity);
    const double wait = pacer.wait_s(now_s, state);
    now_s += wait > 0 ? wait + overshoot_s : 0;
    return wait;
  }
  // Frames per second of `n` frames on a screen with `state`.
  double fps(const PaceState& state, double busy_s, int n = 200) {
    const double start = now_s;
    for (int i = 0; i < n; ++i) frame(state.activity, busy_s, state);
    return n / (now_s - start);
  }
};

PaceState animating() { return {Activity::kAnimating, true, false, std::nullopt, std::nullopt}; }
PaceState idle() { return {Activity::kIdle, true, false, std::nullopt, std::nullopt}; }

TEST(FramePacer, CapDefaultsToTheMonitorsRefreshRateOr144) {
  FramePacer known(false, 75);
  EXPECT_DOUBLE_EQ(known.cap_hz(), 75);
  FramePacer unknown(false, 0);
  EXPECT_DOUBLE_EQ(unknown.cap_hz(), 144);
  unknown.set_cap(240);
  EXPECT_DOUBLE_EQ(unknown.cap_hz(), 240);
  unknown.set_cap(0);
  EXPECT_DOUBLE_EQ(unknown.cap_hz(), 144);
}

TEST(FramePacer, WithoutVsyncAGameRunsAtTheCap) {
  Loop loop{FramePacer(false, 60)};
  loop.pacer.set_cap(120);
  EXPECT_NEAR(loop.fps(animating(), 0.001), 120, 0.5);
}

TEST(FramePacer, OvershootingWaitsDoNotSlowTheCapDown) {
  Loop loop{FramePacer(false, 0)};
  loop.overshoot_s = 0.0008;
  EXPECT_NEAR(loop.fps(animating(), 0.001, 1000), 144, 0.5);
}

TEST(FramePacer, AKeyWakingTheLoopEarlyDoesNotShiftTheCadence) {
  Loop loop{FramePacer(false, 100)};
  loop.frame(Activity::kAnimating, 0.001, animating());
  loop.frame(Activity::kAnimating, 0.001, animating());
  const double due = loop.now_s;  // the next frame's start, on the 10 ms grid
  loop.now_s -= 0.004;            // a key woke the loop 4 ms early: a frame now
  loop.frame(Activity::kAnimating, 0.001, animating());
  EXPECT_NEAR(loop.now_s, due, kEps);  // the frames after it are still on the grid
  loop.frame(Activity::kAnimating, 0.001, animating());
  EXPECT_NEAR(loop.now_s, due + 0.01, kEps);
}

TEST(FramePacer, IgnoredVsyncIsDetectedAndTheCapTakesOver) {
  Loop loop{FramePacer(true, 60)};
  // The probe: frames drawn back to back (the driver returns from the swap at once: 1 ms frames).
  for (int i = 0; i < FramePacer::kProbeFrames - 1; ++i) {
    EXPECT_EQ(loop.frame(Activity::kAnimating, 0.001, animating()), 0);
  }
  const double wait = loop.frame(Activity::kAnimating, 0.001, animating());  // found out: capped from now on
  EXPECT_GT(wait, 0);
  EXPECT_LE(wait, 1.0 / 60);
  EXPECT_FALSE(loop.pacer.vsync_honoured());
  EXPECT_NEAR(loop.fps(animating(), 0.001), 60, 0.5);
}

TEST(FramePacer, HonouredVsyncPacesTheGameAloneAndIsCheckedAgain) {
  Loop loop{FramePacer(true, 60)};
  // Each swap is held until the next refresh: frames take the whole period, and the pacer never waits.
  for (int i = 0; i < 3 * FramePacer::kProbeFrames; ++i) {
    EXPECT_EQ(loop.frame(Activity::kAnimating, 1.0 / 60, animating()), 0) << i;
  }
  EXPECT_TRUE(loop.pacer.vsync_honoured());
  // The driver stops honouring it (a different monitor, a compositor setting): the next probe finds out.
  for (int i = 0; i < FramePacer::kProbeFrames; ++i) loop.frame(Activity::kAnimating, 0.001, animating());
  EXPECT_FALSE(loop.pacer.vsync_honoured());
  EXPECT_NEAR(loop.fps(animating(), 0.001), 60, 0.5);
}

TEST(FramePacer, IgnoredVsyncIsProbedAgainLater) {
  Loop loop{FramePacer(true, 60)};
  for (int i = 0; i < FramePacer::kProbeFrames; ++i) loop.frame(Activity::kAnimating, 0.001, animating());
  ASSERT_FALSE(loop.pacer.vsync_honoured());
  // Capped frames until the re-probe is due; then unpaced frames that now take a refresh period each.
  const double until = loop.now_s + FramePacer::kReprobeAfterS - 0.05;
  while (loop.now_s < until) EXPECT_GT(loop.frame(Activity::kAnimating, 0.001, animating()), 0);
  for (int i = 0; i < 2 * FramePacer::kProbeFrames; ++i) loop.frame(Activity::kAnimating, 1.0 / 60, animating());
  EXPECT_TRUE(loop.pacer.vsync_honoured());
}

TEST(FramePacer, IdleFramesDoNotCountTowardsTheProbe) {
  Loop loop{FramePacer(true, 60)};
  // Menus' swaps after a long wait return at once (a free buffer) even where vsync is honoured: not evidence.
  for (int i = 0; i < 3 * FramePacer::kProbeFrames; ++i) loop.frame(Activity::kIdle, 0.001, idle());
  for (int i = 0; i < FramePacer::kProbeFrames - 1; ++i) loop.frame(Activity::kAnimating, 1.0 / 60, animating());
  EXPECT_FALSE(loop.pacer.vsync_honoured());  // not decided yet
  loop.frame(Activity::kAnimating, 1.0 / 60, animating());
  EXPECT_TRUE(loop.pacer.vsync_honoured());
}

TEST(FramePacer, IdleScreenWaitsLongUnlessSomethingIsDue) {
  Loop loop{FramePacer(false, 60)};
  EXPECT_NEAR(loop.frame(Activity::kIdle, 0.002, idle()), FramePacer::kIdleWaitS, kEps);
  PaceState countdown = idle();
  countdown.wake_s = loop.now_s + 0.002 + 0.05;  // the next countdown digit, 50 ms after this frame ends
  EXPECT_NEAR(loop.frame(Activity::kIdle, 0.002, countdown), 0.05, kEps);
  countdown.wake_s = loop.now_s - 1;  // overdue
  EXPECT_EQ(loop.frame(Activity::kIdle, 0.002, countdown), 0);
  EXPECT_LE(loop.fps(idle(), 0.002), 1 / FramePacer::kIdleWaitS);
}

TEST(FramePacer, PolledThingsBoundEveryWait) {
  Loop loop{FramePacer(false, 60)};
  PaceState lobby = idle();
  lobby.poll_every_s = 0.016;  // a connection to service
  EXPECT_NEAR(loop.frame(Activity::kIdle, 0.001, lobby), 0.016, kEps);
  lobby.iconified = true;
  EXPECT_NEAR(loop.frame(Activity::kIdle, 0.001, lobby), 0.016, kEps);
}

TEST(FramePacer, InputKeepsFramesComingForAMoment) {
  Loop loop{FramePacer(false, 100)};
  loop.frame(Activity::kIdle, 0.001, idle());
  loop.pacer.input_seen(loop.now_s);
  // A menu just got a key: frames at the cap while ImGui settles, then idle again.
  const double settle_end = loop.now_s + FramePacer::kSettleS;
  int frames = 0;
  while (loop.now_s < settle_end) {
    EXPECT_LT(loop.frame(Activity::kIdle, 0.001, idle()), 0.0100001);
    ++frames;
  }
  EXPECT_GE(frames, 9);
  EXPECT_NEAR(loop.frame(Activity::kIdle, 0.001, idle()), FramePacer::kIdleWaitS, kEps);
}

TEST(FramePacer, MinimisedOrUnfocusedWindowsDrawRarely) {
  Loop loop{FramePacer(false, 60)};
  PaceState minimised = animating();
  minimised.iconified = true;
  EXPECT_NEAR(loop.frame(Activity::kAnimating, 0.001, minimised), FramePacer::kIdleWaitS, kEps);
  PaceState unfocused = animating();
  unfocused.focused = false;
  EXPECT_NEAR(loop.fps(unfocused, 0.001), FramePacer::kBackgroundHz, 0.1);
  PaceState unfocused_menu = idle();
  unfocused_menu.focused = false;
  EXPECT_NEAR(loop.frame(Activity::kIdle, 0.001, unfocused_menu), FramePacer::kIdleWaitS, kEps);
}

TEST(FramePacer, TheBenchNeverWaits) {
  Loop loop{FramePacer(false, 60)};
  PaceState bench = idle();
  bench.activity = Activity::kUnpaced;
  bench.iconified = true;
  EXPECT_EQ(loop.frame(Activity::kUnpaced, 0.0001, bench), 0);
}

TEST(FramePacer, ASlowFrameIsNotFollowedByAWait) {
  Loop loop{FramePacer(false, 60)};
  EXPECT_EQ(loop.frame(Activity::kAnimating, 0.05, animating()), 0);  // 50 ms: the deadline passed long ago
}

}  // namespace
}  // namespace sr::client
