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

}  // namespace
}  // namespace sr::replay
