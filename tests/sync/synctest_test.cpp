#include "tests/sync/synctest.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/engine/racer_run.h"

namespace sr::synctest {
namespace {

using engine::button::kHardDrop;
using engine::button::kMoveLeft;

constexpr TimeUs kMs = 1'000;
constexpr TimeUs kSecond = 1'000'000;

// Frames every `step` from `from` (exclusive) up to `to` (inclusive), appended.
void frames_every(std::vector<TimeUs>& frames, TimeUs from, TimeUs to, TimeUs step) {
  for (TimeUs t = from + step; t <= to; t += step) frames.push_back(t);
  if (frames.empty() || frames.back() != to) frames.push_back(to);
}

// A tap of `b` at `t`, released 40 ms later.
void tap(std::vector<engine::InputChange>& presses, TimeUs t, engine::Buttons b) {
  presses.push_back({t, b});
  presses.push_back({t + 40 * kMs, 0});
}

// A change stamped after the game ended (here: topped out at 20G with no input) changes nothing. Whether a run
// learnt of the end in an earlier call (the client, which then drops the press) or only in the call that carries
// the change (a run fed the log in one go), it must not log it: the input log holds no change after the end, and
// is the same however often the run was advanced.
TEST(SyncTest, AChangeAfterTheGameEndedIsLoggedNowhere) {
  SyncPlan plan;
  plan.config = engine::make_master();
  plan.engine_seed = 11;
  engine::RacerRun probe(plan.config, plan.engine_seed);
  (void)probe.advance(60 * kSecond);
  ASSERT_TRUE(probe.game().over());
  const TimeUs ended = probe.game().now();

  engine::RacerRun late(plan.config, plan.engine_seed);
  ASSERT_EQ(late.press(ended + 20 * kMs, kMoveLeft).error, engine::UpdateError::kOk);
  EXPECT_TRUE(late.log().empty()) << "the game ended at " << ended << " us";
  EXPECT_EQ(late.game().state_hash(), probe.game().state_hash());

  plan.presses = {{ended + 20 * kMs, kMoveLeft}};
  frames_every(plan.frames, 0, ended + 500 * kMs, 16 * kMs);
  const SyncResult r = run_plan(plan);
  SCOPED_TRACE(describe(r));
  EXPECT_TRUE(r.ok()) << *r.mismatch;
  EXPECT_TRUE(r.game_over);
  EXPECT_EQ(r.changes, 0);
}

// The client drops a change holding a bit no button has ("unknown buttons: nothing is sent"). It must not count it
// in its stream either: the server drops a racer whose next RaceInput skips a sequence number.
TEST(SyncTest, APressWithAnUnknownButtonBitLeavesTheStreamWhole) {
  SyncPlan plan;
  plan.config = engine::make_sprint();
  plan.engine_seed = 3;
  tap(plan.presses, 100 * kMs, kMoveLeft);
  plan.presses.push_back({200 * kMs, static_cast<engine::Buttons>(1u << 9)});
  tap(plan.presses, 300 * kMs, kHardDrop);
  frames_every(plan.frames, 0, kSecond, 16 * kMs);

  const SyncResult r = run_plan(plan);
  EXPECT_TRUE(r.ok()) << *r.mismatch;
  EXPECT_EQ(r.changes, 4);
}

// Plans come from our own generator, so a seed names the same game on every machine and standard library.
TEST(SyncTest, APlanIsAFunctionOfItsSeed) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.next(), 0xE220A8397B1DCDAFull);  // SplitMix64's published first output for seed 0
  EXPECT_EQ(rng.next(), 0x6E789E6AA1B965F4ull);

  const SyncPlan a = make_plan(42);
  const SyncPlan b = make_plan(42);
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.engine_seed, b.engine_seed);
  EXPECT_EQ(a.presses, b.presses);
  EXPECT_EQ(a.frames, b.frames);
  EXPECT_NE(make_plan(43).frames, a.frames);
  EXPECT_TRUE(engine::check_config(a.config));
}

}  // namespace
}  // namespace sr::synctest
