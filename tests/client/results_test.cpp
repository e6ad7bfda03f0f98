#include "client/solo/results.h"

#include <gtest/gtest.h>

#include "client/solo/feedback.h"
#include "client/solo/modes.h"
#include "tests/support/status.h"

namespace sr::client {
namespace {

RunResult timed(bool completed, engine::TimeUs t) {
  RunResult r;
  r.goal = engine::GoalKind::kTime;
  r.completed = completed;
  r.time_us = t;
  return r;
}

TEST(Results, FormatsTimesCountsAndRates) {
  EXPECT_EQ(format_time(0), "0:00.000");
  EXPECT_EQ(format_time(61'234'567), "1:01.234");
  EXPECT_EQ(format_time(4'500'000'000), "75:00.000");
  EXPECT_EQ(format_time(-5), "0:00.000");
  EXPECT_EQ(format_count(0), "0");
  EXPECT_EQ(format_count(1234567), "1,234,567");
  EXPECT_EQ(format_count(-1000), "-1,000");
  EXPECT_EQ(format_pps(100, 40'000'000), "2.50");
  EXPECT_EQ(format_pps(3, 0), "0.00");
  EXPECT_EQ(format_kpp(250, 100), "2.50");
  // Truncated, as the server's standings are: 2 pieces in 3 s is 0.66 PPS everywhere, never 0.67.
  EXPECT_EQ(format_pps(2, 3'000'000), "0.66");
  EXPECT_EQ(format_kpp(2, 3), "0.66");
  EXPECT_EQ(format_kpp(7, 0), "0.00");
}

TEST(Results, FasterCompletedSprintBeatsTheBest) {
  EXPECT_TRUE(beats(timed(true, 50'000'000), std::nullopt));
  EXPECT_TRUE(beats(timed(true, 50'000'000), timed(true, 60'000'000)));
  EXPECT_FALSE(beats(timed(true, 60'000'000), timed(true, 60'000'000)));
  EXPECT_FALSE(beats(timed(false, 10'000'000), std::nullopt));
  EXPECT_TRUE(beats(timed(true, 90'000'000), timed(false, 10'000'000)));
}

TEST(Results, AbandonedRunsNeverBeat) {
  RunResult r;
  r.goal = engine::GoalKind::kScore;
  r.score = 1'000'000;
  r.abandoned = true;
  EXPECT_FALSE(beats(r, std::nullopt));
}

TEST(Results, ScoreGoalsCompareScore) {
  RunResult a, b;
  a.goal = b.goal = engine::GoalKind::kScore;
  a.completed = b.completed = true;
  a.score = 500;
  b.score = 400;
  EXPECT_TRUE(beats(a, b));
  EXPECT_FALSE(beats(b, a));
  EXPECT_EQ(headline(a), "500");
}

// An ultra that topped out before its time was up is a lost game, whatever its score; a marathon or endless game
// ends only by topping out (or its line goal), so its score counts either way.
TEST(Results, ATopOutCountsForScoreGoalsOnlyWithoutATimeLimit) {
  engine::Stats st;
  st.time_us = 30'000'000;
  st.score = 12'000;
  const RunResult ultra_top_out = result_of(engine::make_ultra(120), st, false, false);
  ASSERT_TRUE(ultra_top_out.topped_out);
  EXPECT_FALSE(counts_for_best(ultra_top_out));
  EXPECT_FALSE(beats(ultra_top_out, std::nullopt));
  st.time_us = 120'000'000;
  const RunResult ultra_done = result_of(engine::make_ultra(120), st, true, false);
  EXPECT_TRUE(beats(ultra_done, std::nullopt));
  EXPECT_TRUE(beats(ultra_done, ultra_top_out));  // a best that does not count is beaten by any that does
  const RunResult marathon_top_out = result_of(engine::make_marathon(), st, false, false);
  ASSERT_TRUE(marathon_top_out.topped_out);
  EXPECT_TRUE(counts_for_best(marathon_top_out));
  EXPECT_TRUE(beats(marathon_top_out, std::nullopt));
}

TEST(Results, HeadlinesSayHowATimedGameEnded) {
  const engine::GameConfig sprint = engine::make_sprint(40);
  engine::Stats st;
  st.time_us = 14'722'000;
  EXPECT_EQ(headline(result_of(sprint, st, true, false)), "0:14.722");
  EXPECT_EQ(headline(result_of(sprint, st, false, false)), "topped out");
  EXPECT_EQ(headline(result_of(sprint, st, false, true)), "gave up");
  EXPECT_EQ(headline(result_of(sprint, st, false, false, false)), "did not finish");  // still being played
  EXPECT_FALSE(result_of(sprint, st, false, true, false).topped_out);
}

TEST(Results, TheBotRaceNamesItsWinner) {
  const auto timed_end = [](bool completed, bool topped_out, engine::TimeUs t) {
    RunResult r = timed(completed, t);
    r.topped_out = topped_out;
    return r;
  };
  const RunResult fast = timed_end(true, false, 50'000'000), slow = timed_end(true, false, 60'000'000);
  const RunResult playing = timed_end(false, false, 30'000'000), topped = timed_end(false, true, 20'000'000);
  EXPECT_EQ(bot_race_winner(fast, slow), RaceWinner::kPlayer);
  EXPECT_EQ(bot_race_winner(slow, fast), RaceWinner::kBot);
  EXPECT_EQ(bot_race_winner(fast, fast), RaceWinner::kTie);
  EXPECT_EQ(bot_race_winner(slow, playing), RaceWinner::kPlayer);  // finished while the bot was still playing
  EXPECT_EQ(bot_race_winner(topped, playing), RaceWinner::kBot);   // topped out while the bot played on
  EXPECT_EQ(bot_race_winner(topped, fast), RaceWinner::kBot);      // topped out after the bot had finished
  EXPECT_EQ(bot_race_winner(timed_end(false, true, 25'000'000), topped), RaceWinner::kPlayer);  // survived longer
  RunResult gave_up = timed(false, 5'000'000);
  gave_up.abandoned = true;
  EXPECT_EQ(bot_race_winner(gave_up, playing), RaceWinner::kBot);
  RunResult a, b;
  a.goal = b.goal = engine::GoalKind::kScore;
  a.completed = b.completed = true;
  a.score = 500;
  b.score = 400;
  EXPECT_EQ(bot_race_winner(a, b), RaceWinner::kPlayer);
  EXPECT_EQ(bot_race_winner(b, a), RaceWinner::kBot);
}

TEST(ClearNames, NamesEveryKindOfClear) {
  engine::Event e;
  e.kind = engine::EventKind::kClear;
  e.piece = engine::Piece::kT;
  e.lines = 2;
  e.spin = engine::SpinKind::kFull;
  EXPECT_EQ(clear_names(e), std::vector<std::string>{"T-spin double"});
  e.b2b = true;
  EXPECT_EQ(clear_names(e), std::vector<std::string>{"Back-to-back T-spin double"});
  e = {};
  e.kind = engine::EventKind::kClear;
  e.piece = engine::Piece::kI;
  e.lines = 4;
  e.b2b = true;
  e.perfect_clear = true;
  e.combo = 3;
  EXPECT_EQ(clear_names(e), (std::vector<std::string>{"Back-to-back Tetris", "Perfect clear", "3 combo"}));
  e = {};
  e.kind = engine::EventKind::kClear;
  e.piece = engine::Piece::kS;
  e.spin = engine::SpinKind::kMini;
  EXPECT_EQ(clear_names(e), std::vector<std::string>{"S-spin mini"});
  e.spin = engine::SpinKind::kNone;
  EXPECT_TRUE(clear_names(e).empty());
}

TEST(Feedback, TurnsEventsIntoShortLivedEffects) {
  Feedback f;
  engine::Event drop{}, lock{}, clear{};
  drop.kind = engine::EventKind::kHardDrop;
  drop.rows = 17;
  lock.kind = engine::EventKind::kLock;
  lock.piece = engine::Piece::kO;
  lock.x = 4;
  clear.kind = engine::EventKind::kClear;
  clear.lines = 1;
  clear.rows_mask = 1;
  const engine::Event events[] = {drop, lock, clear};
  f.on_events(events, 10.0);
  ASSERT_EQ(f.locks().size(), 1u);
  EXPECT_EQ(f.locks()[0].drop_rows, 17);
  EXPECT_EQ(f.locks()[0].cells[0].x, 4 + engine::piece_cells(engine::Piece::kO, engine::Rotation::kNorth)[0].x);
  EXPECT_EQ(f.rows().size(), 1u);
  ASSERT_EQ(f.banners().size(), 1u);
  EXPECT_EQ(f.banners()[0].lines[0], "Single");
  f.expire(10.0 + Feedback::kBannerS + 0.01);
  EXPECT_TRUE(f.locks().empty());
  EXPECT_TRUE(f.rows().empty());
  EXPECT_TRUE(f.banners().empty());
}

TEST(Modes, MenusOfferThePresetsTheIssueAsksFor) {
  EXPECT_EQ(mode_presets(engine::ModeKind::kSprint).size(), 4u);
  EXPECT_EQ(mode_presets(engine::ModeKind::kUltra).size(), 3u);
  for (auto mode : {engine::ModeKind::kSprint, engine::ModeKind::kUltra, engine::ModeKind::kMarathon,
                    engine::ModeKind::kMaster, engine::ModeKind::kEndless, engine::ModeKind::kContest}) {
    for (const auto& p : mode_presets(mode))
      EXPECT_EQ(sr::test::problem_of(engine::check_config(p.config)), std::nullopt) << p.label;
  }
  EXPECT_EQ(mode_presets(engine::ModeKind::kSprint)[3].config.limit_value, 1000);
  EXPECT_EQ(mode_presets(engine::ModeKind::kUltra)[2].config.limit_value, 180);
}

TEST(Modes, CommandLineModes) {
  auto c = config_for_cli("sprint", 20);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value().limit_value, 20);
  EXPECT_EQ(mode_label(c.value()), "sprint 20");
  EXPECT_EQ(config_for_cli("tetris99", std::nullopt).error(),
            "unknown mode \"tetris99\" (sprint, ultra, marathon, master, endless, contest, custom)");
  EXPECT_EQ(config_for_cli("sprint", -3).error().rfind("bad --limit: ", 0), 0u);
}

}  // namespace
}  // namespace sr::client
