#include "tests/sync/synctest.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "common/engine/racer_run.h"

namespace sr::synctest {
namespace {

using engine::button::kHardDrop;
using engine::button::kMoveLeft;
using engine::button::kMoveRight;
using engine::button::kRotateCw;

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

// The random games: 4 shards so that ctest runs them side by side. Each plays its seeds and checks that it tested
// every mode, rotation system, lock down, gravity and generator (a change that made the plans degenerate would
// otherwise pass by testing nothing).
class RandomGames : public ::testing::TestWithParam<int> {};

constexpr std::uint64_t kGamesPerShard = 80;

TEST_P(RandomGames, ClientRefereeWatcherAndOneGoRunAgreeOnEveryGame) {
  SyncTally tally;
  const std::uint64_t first = 1 + static_cast<std::uint64_t>(GetParam()) * kGamesPerShard;
  for (std::uint64_t seed = first; seed < first + kGamesPerShard; ++seed) {
    const SyncResult r = run_synctest_game(seed);
    tally.add(r);
    EXPECT_TRUE(r.ok()) << *r.mismatch;
  }
  SCOPED_TRACE(tally.summary());
  EXPECT_EQ(tally.mismatches, 0);
  for (std::size_t i = 0; i < tally.modes.size(); ++i) EXPECT_GE(tally.modes[i], 3) << kModeNames[i];
  for (std::size_t i = 0; i < tally.rotations.size(); ++i) EXPECT_GE(tally.rotations[i], 8) << kRotationNames[i];
  for (std::size_t i = 0; i < tally.lock_downs.size(); ++i) EXPECT_GE(tally.lock_downs[i], 5) << kLockDownNames[i];
  for (std::size_t i = 0; i < tally.gravities.size(); ++i) EXPECT_GE(tally.gravities[i], 5) << kGravityNames[i];
  for (std::size_t i = 0; i < tally.generators.size(); ++i) EXPECT_GE(tally.generators[i], 2) << kGeneratorNames[i];
  EXPECT_GE(tally.sources[static_cast<std::size_t>(InputSource::kRandomPresses)], 30);
  EXPECT_GE(tally.sources[static_cast<std::size_t>(InputSource::kBot)], 1);
  EXPECT_GE(tally.reports, 100) << "reports are what the server compares: they must be exercised";
  EXPECT_GE(tally.stalls, 10);
  EXPECT_GE(tally.bursts, 10);
}

INSTANTIATE_TEST_SUITE_P(Shards, RandomGames, ::testing::Range(0, 4));

// One frame of 8 s at 20G: the client advances once over many locks and must report each of them with the digest
// right after it, as the referee computes it lock by lock; the presses stamped inside the stall are all applied in
// that one frame, in order.
TEST(SyncTest, AFrameStallSpanningSeveralLocksAt20G) {
  for (const auto rotation :
       {engine::RotationSystem::kSrs, engine::RotationSystem::kSrsNo180, engine::RotationSystem::kClassic}) {
    for (const std::int32_t are_us : {0, 200'000}) {
      SyncPlan plan;
      plan.config = engine::make_master();
      plan.config.rotation = rotation;
      plan.config.handling.are_us = are_us;
      plan.engine_seed = 11;
      for (TimeUs t = 300 * kMs; t < 9 * kSecond; t += 700 * kMs) {
        const auto n = t / (700 * kMs);
        tap(plan.presses, t, n % 3 == 0 ? kMoveLeft : n % 3 == 1 ? kMoveRight : kRotateCw);
      }
      frames_every(plan.frames, 0, 500 * kMs, 16 * kMs);
      plan.frames.push_back(8'500 * kMs);  // the stall: nothing for 8 s, then one advance
      frames_every(plan.frames, 8'500 * kMs, 10 * kSecond, 16 * kMs);

      const SyncResult r = run_plan(plan);
      SCOPED_TRACE(describe(plan.config) + "\n" + describe(r));
      EXPECT_TRUE(r.ok()) << *r.mismatch;
      EXPECT_EQ(r.stalls, 1);
      EXPECT_GE(r.most_locks_in_one_frame, 10) << "the stall must span several locks";
      EXPECT_GE(r.reports_checked, 1);
    }
  }
}

// The network holds every message for 7 s while the client plays on and itself stalls for 3 s; then everything
// arrives at once. The referee catches up batch by batch and each report still matches when it arrives.
TEST(SyncTest, AStallOfSecondsWithMessagesHeldAndDeliveredLateInABurst) {
  SyncPlan plan;
  plan.config = engine::make_sprint();
  plan.config.generator = engine::GeneratorKind::kFixed;  // O pieces side by side: lines clear, no top out
  plan.config.fixed_sequence = {engine::Piece::kO};
  plan.engine_seed = 5;
  for (TimeUs t = 100 * kMs; t < 15 * kSecond; t += 500 * kMs) {
    switch (t / (500 * kMs) % 5) {
      case 0:  // columns 0-1: auto-shift to the wall
        plan.presses.push_back({t, kMoveLeft});
        plan.presses.push_back({t + 350 * kMs, 0});
        break;
      case 1:  // columns 2-3
        tap(plan.presses, t, kMoveLeft);
        tap(plan.presses, t + 100 * kMs, kMoveLeft);
        break;
      case 2: break;  // columns 4-5, where it spawns
      case 3:         // columns 6-7
        tap(plan.presses, t, kMoveRight);
        tap(plan.presses, t + 100 * kMs, kMoveRight);
        break;
      default:  // columns 8-9
        plan.presses.push_back({t, kMoveRight});
        plan.presses.push_back({t + 350 * kMs, 0});
    }
    tap(plan.presses, t + 400 * kMs, kHardDrop);
  }
  frames_every(plan.frames, 0, 4 * kSecond, 16'667);
  plan.frames.push_back(7 * kSecond);  // the client stalls for 3 s inside the hold
  frames_every(plan.frames, 7 * kSecond, 15 * kSecond, 16'667);
  plan.holds = {{2 * kSecond, 9 * kSecond}};

  const SyncResult r = run_plan(plan);
  SCOPED_TRACE(describe(r));
  EXPECT_TRUE(r.ok()) << *r.mismatch;
  EXPECT_FALSE(r.game_over);
  EXPECT_EQ(r.locks, 30);
  EXPECT_EQ(r.stalls, 1);
  EXPECT_EQ(r.bursts, 1);
  EXPECT_GE(r.largest_burst, 50) << "7 s of a client's messages";
  EXPECT_EQ(r.reports_checked, 3);
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
