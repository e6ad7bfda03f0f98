// The outcome never depends on how often update() is called. Random but realistic input logs (presses and releases
// of all eight buttons, gaps of 0..200 ms) are fed (a) one update per change, (b) with extra update(t) calls at
// random times in between, (c) as update(t) followed by update(t, buttons), (d) with the unchanged buttons sent
// again; the state hash after every change, the final state and the stats must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/engine/random.h"
#include "tests/engine/random_changes.h"
#include "tests/engine/test_player.h"
#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Change;
using test::random_changes;

// One or two buttons flipped per change, up to 200 ms apart; hard drop and the directions come up more often, so
// pieces lock.
std::vector<Change> random_log(std::uint64_t seed, int changes) {
  static constexpr Buttons kWeighted[] = {button::kMoveLeft,  button::kMoveLeft, button::kMoveRight,
                                          button::kMoveRight, button::kSoftDrop, button::kHardDrop,
                                          button::kHardDrop,  button::kRotateCw, button::kRotateCcw,
                                          button::kRotate180, button::kHold};
  return random_changes(seed, changes, kWeighted, 200'000);
}

enum class FeedWay { kOnePerChange, kExtraUpdates, kTimeThenButtons, kRepeatedButtons };

struct FedGame {
  std::vector<std::uint64_t> hashes;  // after every change
  GameState state;
  std::int64_t locks = 0;
};

FedGame feed(const GameConfig& config, std::uint64_t seed, const std::vector<Change>& log, FeedWay how) {
  Game g(config, seed);
  Random extra(seed ^ 0x5EED);
  FedGame run;
  TimeUs prev = 0;
  auto step = [&](TimeUs t, std::optional<Buttons> b) {
    const UpdateResult r = g.update(t, b);
    EXPECT_EQ(r.error, UpdateError::kOk);
    for (const Event& e : r.events) run.locks += e.kind == EventKind::kLock;
  };
  for (const Change& c : log) {
    switch (how) {
      case FeedWay::kOnePerChange: break;
      case FeedWay::kExtraUpdates: {
        std::vector<TimeUs> times;
        const int n = static_cast<int>(extra.below(4));
        for (int i = 0; i < n; ++i) times.push_back(prev + extra.below(static_cast<std::uint32_t>(c.t - prev + 1)));
        std::sort(times.begin(), times.end());
        for (TimeUs t : times) step(t, std::nullopt);
        break;
      }
      case FeedWay::kTimeThenButtons: step(c.t, std::nullopt); break;
      case FeedWay::kRepeatedButtons: step(std::max(prev, c.t - 1), g.state().held); break;
    }
    step(c.t, c.buttons);
    if (how == FeedWay::kRepeatedButtons) step(c.t, c.buttons);
    run.hashes.push_back(g.state_hash());
    prev = c.t;
  }
  step(prev + 10'000'000, std::nullopt);
  run.hashes.push_back(g.state_hash());
  run.state = g.state();
  return run;
}

struct NamedConfig {
  std::string name;
  GameConfig config;
};

std::vector<NamedConfig> configs() {
  std::vector<NamedConfig> out;
  auto add = [&](std::string name, auto&& edit) {
    GameConfig c = make_endless();
    edit(c);
    out.push_back({std::move(name), c});
  };
  add("defaults", [](GameConfig&) {});
  add("arr0", [](GameConfig& c) { c.handling.arr_us = 0; });
  add("arr0_das0_dcd", [](GameConfig& c) { c.handling.arr_us = 0, c.handling.das_us = 0, c.handling.dcd_us = 20'000; });
  add("sdf0", [](GameConfig& c) { c.handling.sdf = 0; });
  add("20g", [](GameConfig& c) { c.gravity = Gravity::k20G; });
  add("are_and_line_clear_delay", [](GameConfig& c) {
    c.handling.are_us = 100'000, c.handling.line_clear_delay_us = 300'000, c.handling.dcd_us = 50'000;
  });
  add("no_irs_ihs", [](GameConfig& c) { c.handling.are_us = 50'000, c.handling.irs = false, c.handling.ihs = false; });
  add("infinite", [](GameConfig& c) { c.lock_down = LockDown::kInfinite; });
  add("classic_lock", [](GameConfig& c) { c.lock_down = LockDown::kClassic, c.start_level = 8; });
  add("timer_lock", [](GameConfig& c) { c.lock_down = LockDown::kTimer, c.ground_time_cap_us = 700'000; });
  add("extended_3_resets", [](GameConfig& c) { c.max_lock_resets = 3, c.handling.sdf = 0; });
  add("classic_rotation", [](GameConfig& c) { c.rotation = RotationSystem::kClassic, c.allow_180 = false; });
  add("ocular_rotation_tetrs",
      [](GameConfig& c) { c.rotation = RotationSystem::kOcular, c.scoring = Scoring::kTetrs; });
  add("recency_tetrs_allspin",
      [](GameConfig& c) { c.generator = GeneratorKind::kRecency, c.scoring = Scoring::kTetrs, c.all_spin = true; });
  add("srs_no180_no_hold_no_preview",
      [](GameConfig& c) { c.rotation = RotationSystem::kSrsNo180, c.hold_enabled = false, c.preview = 0; });
  add("level20_zero_resets", [](GameConfig& c) { c.start_level = 20, c.max_lock_resets = 0; });
  add("contest_master", [](GameConfig& c) { c = make_master(20), c.scoring = Scoring::kContest; });
  add("ultra_20s", [](GameConfig& c) { c = make_ultra(20); });
  add("sprint_variable_goal",
      [](GameConfig& c) { c = make_sprint(10), c.goal_system = GoalSystem::kVariable, c.start_level = 12; });
  return out;
}

void expect_same_outcome_for_every_feed(const NamedConfig& nc, std::uint64_t seed, const std::vector<Change>& log) {
  const FedGame base = feed(nc.config, seed, log, FeedWay::kOnePerChange);
  EXPECT_GT(base.locks, 5) << "the log should play a real game";
  for (FeedWay how : {FeedWay::kExtraUpdates, FeedWay::kTimeThenButtons, FeedWay::kRepeatedButtons}) {
    const FedGame other = feed(nc.config, seed, log, how);
    ASSERT_EQ(other.hashes.size(), base.hashes.size());
    for (std::size_t i = 0; i < base.hashes.size(); ++i) {
      ASSERT_EQ(other.hashes[i], base.hashes[i]) << "feed " << static_cast<int>(how) << ", after change " << i;
    }
    EXPECT_EQ(other.state.stats, base.state.stats);
    EXPECT_TRUE(other.state == base.state);
  }
}

class FeedDeterminism : public testing::TestWithParam<NamedConfig> {};

TEST_P(FeedDeterminism, PlayedLogsGiveTheSameGameHoweverTheyAreFed) {
  for (std::uint64_t seed : {1ull, 2ull, 3ull}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_same_outcome_for_every_feed(GetParam(), seed, test::Player(GetParam().config, seed).play(150));
  }
}

TEST_P(FeedDeterminism, RandomButtonLogsGiveTheSameGameHoweverTheyAreFed) {
  for (std::uint64_t seed : {1ull, 2ull, 3ull}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_same_outcome_for_every_feed(GetParam(), seed, random_log(seed * 7919, 600));
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, FeedDeterminism, testing::ValuesIn(configs()),
                         [](const testing::TestParamInfo<NamedConfig>& info) { return info.param.name; });

TEST(Determinism, DifferentSeedsGiveDifferentGames) {
  const std::vector<Change> log = random_log(11, 300);
  const FedGame a = feed(make_endless(), 1, log, FeedWay::kOnePerChange);
  const FedGame b = feed(make_endless(), 2, log, FeedWay::kOnePerChange);
  EXPECT_NE(a.hashes.back(), b.hashes.back());
}

TEST(Determinism, CopiedGameContinuesIdentically) {
  const std::vector<Change> log = random_log(5, 400);
  Game original(make_endless(), 5);
  std::size_t i = 0;
  for (; i < log.size() / 2; ++i) ASSERT_EQ(original.update(log[i].t, log[i].buttons).error, UpdateError::kOk);
  Game copy = original;
  EXPECT_EQ(copy.state_hash(), original.state_hash());
  for (; i < log.size(); ++i) {
    ASSERT_EQ(original.update(log[i].t, log[i].buttons).error, UpdateError::kOk);
    ASSERT_EQ(copy.update(log[i].t, log[i].buttons).error, UpdateError::kOk);
    ASSERT_EQ(copy.state_hash(), original.state_hash()) << "change " << i;
  }
  EXPECT_TRUE(copy.state() == original.state());
}

TEST(Determinism, TimeInThePastIsAnErrorThatChangesNothing) {
  Game g(make_endless(), 3);
  ASSERT_EQ(g.update(500'000, button::kMoveLeft).error, UpdateError::kOk);
  const std::uint64_t hash = g.state_hash();
  const UpdateResult r = g.update(499'999, button::kHardDrop);
  EXPECT_EQ(r.error, UpdateError::kTimeInPast);
  EXPECT_TRUE(r.events.empty());
  EXPECT_EQ(g.state_hash(), hash);
  EXPECT_EQ(g.now(), 500'000);
  EXPECT_EQ(g.update(499'999).error, UpdateError::kTimeInPast);
  EXPECT_EQ(g.update(500'000).error, UpdateError::kOk) << "the same time again is fine";
  EXPECT_EQ(g.state_hash(), hash);
}

TEST(Determinism, UnknownButtonBitsAreAnErrorThatChangesNothing) {
  Game g(make_endless(), 3);
  ASSERT_EQ(g.update(0).error, UpdateError::kOk);
  const std::uint64_t hash = g.state_hash();
  for (Buttons bad : {Buttons{0x100}, Buttons{0x8000}, Buttons{0x1FF}}) {
    const UpdateResult r = g.update(1'500'000, bad);
    EXPECT_EQ(r.error, UpdateError::kInvalidButtons) << bad;
    EXPECT_TRUE(r.events.empty());
    EXPECT_EQ(g.state_hash(), hash) << "not even time moved on";
    EXPECT_EQ(g.now(), 0);
  }
  EXPECT_EQ(g.update(1'500'000, button::kAll).error, UpdateError::kOk);
}

}  // namespace
}  // namespace sr::engine
