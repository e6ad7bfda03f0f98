// check_replay() (common/replay/replay.h): the ranges a stored replay keeps, named in the error sentence.
#include "common/replay/replay.h"

#include <gtest/gtest.h>

#include "tests/replays/test_support.h"
#include "tests/support/status.h"

namespace sr::replay {
namespace {

using test::problem_of;

// A one-racer replay whose game lasted 10 s.
Replay ten_seconds() {
  Replay r = testing::small_sprint(20);
  r.racers[0].result.stats.time_us = 10'000'000;
  return r;
}

TEST(CheckReplay, AcceptsUnverifiedTimeUpToTheWholeGame) {
  Replay r = ten_seconds();
  ASSERT_EQ(problem_of(check_replay(r)), std::nullopt);
  r.racers[0].result.unverified_us = 2'250'000;
  r.racers[0].result.reconnects = 1;
  EXPECT_EQ(problem_of(check_replay(r)), std::nullopt);
  r.racers[0].result.unverified_us = 10'000'000;  // the whole game arrived late
  r.racers[0].result.reconnects = 0xFFFF'FFFF;
  EXPECT_EQ(problem_of(check_replay(r)), std::nullopt);
}

TEST(CheckReplay, RefusesUnverifiedTimeOutOfRange) {
  Replay r = ten_seconds();
  r.racers[0].result.unverified_us = -1;
  EXPECT_EQ(problem_of(check_replay(r)), "racers[0].result.unverified_us is negative");
  r.racers[0].result.unverified_us = 10'000'001;
  EXPECT_EQ(problem_of(check_replay(r)),
            "racers[0].result.unverified_us (10000001 us) is more than result.stats.time_us (10000000 us)");
  r.racers[0].result.unverified_us = kMaxGameTimeUs + 1;
  EXPECT_EQ(problem_of(check_replay(r)), "racers[0].result.unverified_us is more than 1000000000000000 us");
}

TEST(CheckReplay, NamesTheRacerWithTooMuchUnverifiedTime) {
  Replay r = ten_seconds();
  r.racers.push_back(r.racers[0]);
  r.racers[1].name = "second";
  r.racers[1].result.unverified_us = 10'000'001;
  EXPECT_EQ(problem_of(check_replay(r)),
            "racers[1].result.unverified_us (10000001 us) is more than result.stats.time_us (10000000 us)");
}

// Each sentence of check_input_log(), naming the first bad entry; check_replay() puts the racer in front.
TEST(CheckInputLog, NamesTheFirstBadEntry) {
  using engine::InputChange;
  EXPECT_EQ(problem_of(check_input_log({})), std::nullopt);
  EXPECT_EQ(problem_of(check_input_log({{0, 1}, {0, 0}, {kMaxGameTimeUs, 2}})), std::nullopt);
  EXPECT_EQ(problem_of(check_input_log({{-1, 1}})), "inputs[0] goes back in time");
  EXPECT_EQ(problem_of(check_input_log({{5, 1}, {7, 0}, {6, 1}})), "inputs[2] goes back in time");
  EXPECT_EQ(problem_of(check_input_log({{5, 1}, {kMaxGameTimeUs + 1, 0}})),
            "inputs[1] is later than 1000000000000000 us");
  EXPECT_EQ(problem_of(check_input_log({{5, 1}, {6, 0x100}})), "inputs[1] holds an unknown button bit");
  EXPECT_EQ(problem_of(check_input_log({{5, 0}})), "inputs[0] does not change the buttons");
  EXPECT_EQ(problem_of(check_input_log({{5, 1}, {6, 3}, {7, 3}})), "inputs[2] does not change the buttons");
  // The first problem wins, in this order: time order, range, buttons, change.
  EXPECT_EQ(problem_of(check_input_log({{5, 1}, {4, 0x100}})), "inputs[1] goes back in time");
  EXPECT_EQ(problem_of(check_input_log({{5, 1}, {kMaxGameTimeUs + 1, 1}})),
            "inputs[1] is later than 1000000000000000 us");
  EXPECT_EQ(problem_of(check_input_log({{5, 0x101}})), "inputs[0] holds an unknown button bit");

  Replay r = ten_seconds();
  r.racers.push_back(r.racers[0]);
  r.racers[1].inputs.push_back(r.racers[1].inputs.back());
  EXPECT_EQ(problem_of(check_replay(r)),
            "racers[1].inputs[" + std::to_string(r.racers[1].inputs.size() - 1) + "] does not change the buttons");
}

}  // namespace
}  // namespace sr::replay
