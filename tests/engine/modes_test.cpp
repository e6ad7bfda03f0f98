// How each mode ends, and levels. Lines come from a scripted loop: five O pieces side by side (x 8, 6, 0, 2, 4,
// an order that also works under 20G) clear two rows and leave the matrix empty.
#include <gtest/gtest.h>

#include <vector>

#include "tests/engine/test_support.h"

namespace sr::engine {
namespace {

using test::Driver;
using test::of_kind;

GameConfig with_os(GameConfig c) {
  c.generator = GeneratorKind::kFixed;
  c.fixed_sequence = {Piece::kO};
  return c;
}

// Five O placements: one double (with a perfect clear). Returns the events.
std::vector<Event> o_double(Driver& d) {
  std::vector<Event> events;
  for (int x : {8, 6, 0, 2, 4}) {
    if (d.game().over()) break;
    const std::vector<Event> more = d.drop_at("", x);
    events.insert(events.end(), more.begin(), more.end());
  }
  return events;
}

// One O double every 10 s from `from` until `until`, so that a timed game never tops out.
void doubles_every_ten_seconds(Driver& d, TimeUs from, TimeUs until) {
  for (TimeUs t = from; t < until && !d.game().over(); t += 10'000'000) {
    (void)d.at(t);
    (void)o_double(d);
  }
}

TimeUs last_lock_time(const Driver& d) {
  const auto locks = of_kind(d.log(), EventKind::kLock);
  return locks.empty() ? -1 : locks.back().time_us;
}

TEST(Sprint, FinishesAtFortyLinesAtTheLockTime) {
  Driver d(with_os(make_sprint()));
  for (int i = 0; i < 19; ++i) (void)o_double(d);
  EXPECT_EQ(d.game().stats().lines, 38);
  EXPECT_EQ(d.game().lines_left(), 2);
  EXPECT_FALSE(d.game().over());
  const auto events = o_double(d);
  ASSERT_TRUE(d.game().over());
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().state().top_out, TopOut::kNone);
  EXPECT_EQ(d.game().stats().lines, 40);
  EXPECT_EQ(d.game().lines_left(), 0);
  const auto finished = of_kind(events, EventKind::kFinished);
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].time_us, last_lock_time(d));
  EXPECT_EQ(d.game().stats().time_us, last_lock_time(d));
  EXPECT_EQ(d.game().stats().pieces, 100);
  EXPECT_EQ(of_kind(events, EventKind::kSpawn).size(), 4u) << "no piece after the finishing lock";
}

TEST(Sprint, LineCountIsConfigurable) {
  Driver d(with_os(make_sprint(20)));
  for (int i = 0; i < 10; ++i) (void)o_double(d);
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().lines, 20);
}

TEST(Ultra, EndsAtExactlyOneHundredTwentySeconds) {
  Driver d(with_os(make_ultra()));
  doubles_every_ten_seconds(d, 0, 120'000'000);
  (void)d.at(119'999'999);
  ASSERT_FALSE(d.game().over());
  const auto events = d.at(120'000'000);
  const auto finished = of_kind(events, EventKind::kFinished);
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].time_us, 120'000'000);
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().time_us, 120'000'000);
  EXPECT_EQ(d.game().stats().lines, 24);
  (void)d.at(130'000'000);
  EXPECT_EQ(d.game().now(), 120'000'000);
}

TEST(Ultra, FinishesEvenWhenUpdatedLongAfterTheEnd) {
  Driver d(with_os(make_ultra(2)));
  const auto events = d.at(5'000'000);
  const auto finished = of_kind(events, EventKind::kFinished);
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].time_us, 2'000'000);
  EXPECT_EQ(d.game().stats().time_us, 2'000'000);
}

TEST(Ultra, TimeLimitComesBeforeALockDueAtTheSameMicrosecond) {
  GameConfig c = with_os(make_ultra(2));
  c.handling.sdf = 0;
  Driver d(c);
  (void)d.at(0);
  (void)d.tap(1'500'000, button::kSoftDrop);  // lock delay runs out at 2,000,000, the end of the game
  const auto events = d.at(2'000'000);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::kFinished);
  EXPECT_EQ(d.game().stats().pieces, 0);
}

// Plays O doubles until the game ends (or `max_doubles`), recording stats().lines at every level-up.
std::vector<std::int64_t> lines_at_level_ups(Driver& d, int max_doubles) {
  std::vector<std::int64_t> out;
  for (int i = 0; i < max_doubles && !d.game().over(); ++i) {
    for (const Event& e : o_double(d)) {
      if (e.kind == EventKind::kLevelUp) out.push_back(d.game().stats().lines);
    }
  }
  return out;
}

TEST(Marathon, FixedGoalLevelsUpEveryTenLinesAndEndsAfterLevelFifteen) {
  Driver d(with_os(make_marathon()));
  const auto level_ups = lines_at_level_ups(d, 100);
  EXPECT_EQ(level_ups, (std::vector<std::int64_t>{10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140}));
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().lines, 150);
  EXPECT_EQ(d.game().stats().level, 15);
  EXPECT_EQ(d.game().stats().time_us, last_lock_time(d));
}

TEST(Marathon, VariableGoalNeedsFiveTimesTheLevel) {
  Driver d(with_os(make_marathon(GoalSystem::kVariable)));
  const auto level_ups = lines_at_level_ups(d, 400);
  // Passing level L needs 5 L lines, with leftovers carried: totals 5, 15, 30, 50, ... rounded up to doubles.
  EXPECT_EQ(level_ups, (std::vector<std::int64_t>{6, 16, 30, 50, 76, 106, 140, 180, 226, 276, 330, 390, 456, 526}));
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().lines, 600);
  EXPECT_EQ(d.game().stats().level, 15);
}

TEST(Master, TwentyGFromTheStartAndEndsAtItsLineCount) {
  GameConfig c = with_os(make_master(10));
  c.fixed_sequence = test::sequence("T");
  Driver t_game(c);
  (void)t_game.at(0);
  EXPECT_EQ(t_game.piece(), (ActivePiece{Piece::kT, Rotation::kNorth, 3, -1})) << "on the floor at spawn";
  Driver d(with_os(make_master(10)));
  for (int i = 0; i < 5; ++i) (void)o_double(d);
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().lines, 10);
  EXPECT_EQ(d.game().stats().score, 5 * 1500) << "perfect-clear doubles at level 1; no drop points under 20G";
}

TEST(Contest, NinetySecondsWithContestScoring) {
  Driver d(with_os(make_contest()));
  doubles_every_ten_seconds(d, 0, 90'000'000);  // 9 doubles: 5 at level 1, then 4 at level 2
  EXPECT_EQ(d.game().stats().lines, 18);
  EXPECT_EQ(d.game().stats().level, 2);
  EXPECT_EQ(d.game().stats().score, 5 * 1200 + 4 * 2400) << "no drop points, no perfect-clear bonus";
  (void)d.at(89'999'999);
  ASSERT_FALSE(d.game().over());
  const auto finished = of_kind(d.at(90'000'000), EventKind::kFinished);
  ASSERT_EQ(finished.size(), 1u);
  EXPECT_EQ(finished[0].time_us, 90'000'000);
}

GameConfig custom(LimitKind limit, std::int64_t value) {
  GameConfig c = with_os(make_custom());
  c.limit = limit;
  c.limit_value = value;
  return c;
}

TEST(Custom, EndsAtAPieceCount) {
  Driver d(custom(LimitKind::kPieces, 7));
  (void)o_double(d);
  (void)d.drop_at("", 8);
  EXPECT_FALSE(d.game().over());
  (void)d.drop_at("", 6);
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().pieces, 7);
}

TEST(Custom, EndsAtAScore) {
  Driver d(custom(LimitKind::kScore, 1000));
  for (int x : {8, 6, 0, 2}) (void)d.drop_at("", x);
  EXPECT_FALSE(d.game().over());
  (void)d.drop_at("", 4);
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_GE(d.game().stats().score, 1500);
}

TEST(Custom, EndsAfterPassingALevel) {
  Driver d(custom(LimitKind::kLevel, 2));
  const auto level_ups = lines_at_level_ups(d, 20);
  EXPECT_EQ(level_ups, (std::vector<std::int64_t>{10}));
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().lines, 20);
  EXPECT_EQ(d.game().stats().level, 2);
}

TEST(Custom, EndsAtALineCount) {
  Driver d(custom(LimitKind::kLines, 6));
  for (int i = 0; i < 3; ++i) (void)o_double(d);
  EXPECT_TRUE(d.game().state().finished);
  EXPECT_EQ(d.game().stats().lines, 6);
}

TEST(Endless, NeverFinishes) {
  Driver d(with_os(make_endless()));
  const auto level_ups = lines_at_level_ups(d, 100);
  EXPECT_EQ(level_ups.size(), 20u);
  EXPECT_FALSE(d.game().over());
  EXPECT_EQ(d.game().stats().lines, 200);
  EXPECT_EQ(d.game().stats().level, 21);
}

TEST(Levels, GravityFollowsTheLevel) {
  GameConfig c = test::rules_config("T");
  c.start_level = 15;
  Driver d(c);
  (void)d.at(0);
  (void)d.at(7'058);
  EXPECT_EQ(d.piece().y, 18);
  (void)d.at(7'059);
  EXPECT_EQ(d.piece().y, 17);
  (void)d.at(7'059 * 3);
  EXPECT_EQ(d.piece().y, 15);
}

TEST(Levels, NoLevelUpWhenDisabled) {
  GameConfig c = with_os(make_endless());
  c.level_up = false;
  Driver d(c);
  EXPECT_TRUE(lines_at_level_ups(d, 10).empty());
  EXPECT_EQ(d.game().stats().level, 1);
}

}  // namespace
}  // namespace sr::engine
