#include "common/bot/bot.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/bot/weights.h"
#include "tests/bot/bot_test_support.h"

namespace sr::bot {
namespace {

using engine::Piece;
using engine::Rotation;

BotSettings settings_for(const char* weights, std::int32_t pps_milli = 3000) {
  BotSettings s;
  s.weights = *weights_by_name(weights);
  s.pps_milli = pps_milli;
  return s;
}

struct Played {
  std::vector<engine::InputChange> log;
  std::uint64_t hash = 0;
  engine::Stats stats;
  bool topped_out = false;
  bool finished = false;
  BotCounters counters;
};

Played play(const engine::GameConfig& config, std::uint64_t seed, const BotSettings& settings,
            engine::TimeUs stop_us = engine::kNever) {
  engine::RacerRun run(config, seed);
  Bot bot(settings);
  play_to_end(run, bot, stop_us);
  const engine::Game& g = run.game();
  Played p;
  p.log = run.log();
  p.hash = g.state_hash();
  p.stats = g.stats();
  p.topped_out = g.state().top_out != engine::TopOut::kNone;
  p.finished = g.state().finished;
  p.counters = bot.counters();
  return p;
}

// Replays a log on a fresh game with one update per change, as a verifier would.
std::uint64_t replay(const engine::GameConfig& config, std::uint64_t seed, const std::vector<engine::InputChange>& log,
                     engine::TimeUs end_us) {
  engine::Game g(config, seed);
  for (const engine::InputChange& e : log) EXPECT_EQ(g.update(e.time_us, e.buttons).error, engine::UpdateError::kOk);
  (void)g.update(std::max(end_us, g.now()));
  return g.state_hash();
}

TEST(Bot, SameSeedAndSettingsGiveTheSameGame) {
  const Played a = play(engine::make_sprint(), 42, settings_for("sprint"));
  const Played b = play(engine::make_sprint(), 42, settings_for("sprint"));
  EXPECT_EQ(a.log, b.log);
  EXPECT_EQ(a.hash, b.hash);
  BotSettings other = settings_for("sprint");
  other.timing_seed = 1;
  EXPECT_NE(play(engine::make_sprint(), 42, other).log, a.log);
}

TEST(Bot, DefaultSettingsUseTheModesPreset) {
  BotSettings defaults;
  defaults.pps_milli = 3000;
  EXPECT_EQ(play(engine::make_sprint(20), 4, defaults).log,
            play(engine::make_sprint(20), 4, settings_for("sprint")).log);
  EXPECT_EQ(play(engine::make_contest(), 4, defaults, 20'000'000).log,
            play(engine::make_contest(), 4, settings_for("contest"), 20'000'000).log);
}

TEST(Bot, TheLogAloneReproducesTheGame) {
  const Played p = play(engine::make_sprint(), 7, settings_for("sprint"));
  ASSERT_TRUE(p.finished);
  EXPECT_EQ(replay(engine::make_sprint(), 7, p.log, p.stats.time_us), p.hash);
}

void expect_clean_log(const std::vector<engine::InputChange>& log) {
  engine::Buttons held = 0;
  engine::TimeUs last = -1;
  for (const engine::InputChange& e : log) {
    EXPECT_EQ(e.time_us % 1000, 0);
    EXPECT_GT(e.time_us, last);
    EXPECT_NE(e.buttons, held) << "at " << e.time_us;
    EXPECT_EQ(e.buttons & ~engine::button::kAll, 0);
    held = e.buttons;
    last = e.time_us;
  }
}

TEST(Bot, InputsAreOnTheMillisecondGridAndAlwaysChanges) {
  expect_clean_log(play(engine::make_sprint(), 3, settings_for("sprint")).log);
  // Short lock delays and few resets: pieces often lock by themselves while keys are still down.
  engine::GameConfig hurried = engine::make_master(30);
  hurried.lock_delay_us = 60'000;
  hurried.max_lock_resets = 1;
  const Played p = play(hurried, 3, settings_for("survival"));
  expect_clean_log(p.log);
  EXPECT_EQ(replay(hurried, 3, p.log, p.stats.time_us), p.hash);
}

TEST(Bot, FinishesASprintAtThreePiecesPerSecond) {
  const Played p = play(engine::make_sprint(), 1, settings_for("sprint"));
  EXPECT_TRUE(p.finished);
  EXPECT_FALSE(p.topped_out);
  EXPECT_GE(p.stats.lines, 40);
  // 3 PPS: within a few percent (the pace is a floor; the bot may fall behind on a slow tuck).
  const std::int64_t pps_milli = p.stats.pieces * 1'000'000'000 / p.stats.time_us;
  EXPECT_GE(pps_milli, 2850);
  EXPECT_LE(pps_milli, 3010);
  EXPECT_EQ(p.counters.fallbacks, 0);
}

TEST(Bot, PlaysFastWithoutAPace) {
  const Played p = play(engine::make_sprint(), 1, settings_for("sprint", 0));
  EXPECT_TRUE(p.finished);
  EXPECT_GT(p.stats.pieces * 1'000'000'000 / p.stats.time_us, 3500);
}

TEST(Bot, SurvivesTwentyG) {
  const Played p = play(engine::make_master(40), 5, settings_for("survival"));
  EXPECT_TRUE(p.finished);
  EXPECT_FALSE(p.topped_out);
}

TEST(Bot, SurvivesFastGravity) {
  engine::GameConfig c = engine::make_endless();
  c.start_level = 15;  // a row every 7 ms from the first piece, for good
  c.level_up = false;
  const Played p = play(c, 9, settings_for("survival"), 60'000'000);
  EXPECT_FALSE(p.topped_out);
  EXPECT_GT(p.stats.lines, 50);
}

TEST(Bot, CopesWithOtherHandling) {
  engine::GameConfig c = engine::make_sprint(20);
  c.handling.das_us = 100'000;
  c.handling.arr_us = 0;
  c.handling.sdf = 0;
  c.handling.are_us = 100'000;
  c.handling.line_clear_delay_us = 250'000;
  c.handling.dcd_us = 20'000;
  const Played p = play(c, 2, settings_for("sprint"));
  EXPECT_TRUE(p.finished);
  EXPECT_EQ(replay(c, 2, p.log, p.stats.time_us), p.hash);
}

TEST(Bot, CopesWithInstantAutoShift) {
  // DAS 0 and ARR 0: every direction press slides to the wall, so only walls, obstacles, kicks and tucks place a
  // piece; the search knows taps are impossible and still finds enough.
  engine::GameConfig c = engine::make_sprint(20);
  c.handling.das_us = 0;
  c.handling.arr_us = 0;
  const Played p = play(c, 8, settings_for("sprint", 0));
  EXPECT_TRUE(p.finished);
  EXPECT_EQ(p.counters.fallbacks, 0);
}

TEST(Bot, CopesWithOtherRules) {
  engine::GameConfig c = engine::make_sprint(20);
  c.rotation = engine::RotationSystem::kClassic;
  c.hold_enabled = false;
  c.preview = 0;
  c.allow_180 = false;
  c.lock_down = engine::LockDown::kClassic;
  const Played p = play(c, 4, settings_for("sprint"));
  EXPECT_TRUE(p.finished);
}

TEST(Bot, CheapSettingStillPlays) {
  BotSettings s = settings_for("sprint");
  s.chooser.lookahead = 0;
  s.chooser.tucks = false;
  const Played p = play(engine::make_sprint(), 6, s);
  EXPECT_TRUE(p.finished);
}

TEST(Bot, PlaysAGivenTargetOrForfeits) {
  engine::Game g(test::config_with({}, {Piece::kT, Piece::kI, Piece::kO}), 1);
  (void)g.update(0);
  Bot bot(settings_for("sprint"));
  const PieceState target{Piece::kT, Rotation::kWest, 7, 0};
  bot.set_targets({Target{PieceState{Piece::kZ, Rotation::kNorth, 0, 0}}, Target{target}});
  std::optional<PieceState> locked;
  for (int i = 0; i < 50 && !locked; ++i) {
    const auto step = bot.next(g);
    ASSERT_TRUE(step);
    for (const engine::Event& e : g.update(step->time_us, step->buttons).events) {
      if (e.kind == engine::EventKind::kLock) locked = PieceState{e.piece, e.rotation, e.x, e.y};
    }
  }
  EXPECT_EQ(bot.played_target(), 1);  // the Z is neither the active piece nor the hold piece
  EXPECT_EQ(locked, std::optional(target));

  // The I is next; only an impossible target is offered: the bot gives up rather than play something else.
  while (!bot.needs_decision(g)) {
    const auto step = bot.next(g);
    ASSERT_TRUE(step);
    (void)g.update(step->time_us, step->buttons);
  }
  bot.set_targets({Target{PieceState{Piece::kI, Rotation::kNorth, 8, 5}}});
  EXPECT_FALSE(bot.next(g).has_value());
  EXPECT_TRUE(bot.forfeited());
}

TEST(Bot, UsesHoldForATargetOfTheNextPiece) {
  engine::Game g(test::config_with({}, {Piece::kT, Piece::kI, Piece::kO}), 1);
  (void)g.update(0);
  Bot bot(settings_for("sprint"));
  const PieceState target{Piece::kI, Rotation::kNorth, 0, -2};
  bot.set_targets({Target{target}});
  std::optional<PieceState> locked;
  for (int i = 0; i < 50 && !locked; ++i) {
    const auto step = bot.next(g);
    ASSERT_TRUE(step);
    for (const engine::Event& e : g.update(step->time_us, step->buttons).events) {
      if (e.kind == engine::EventKind::kLock) locked = PieceState{e.piece, e.rotation, e.x, e.y};
    }
  }
  EXPECT_EQ(locked, std::optional(target));
  EXPECT_EQ(g.hold(), Piece::kT);
}

}  // namespace
}  // namespace sr::bot
