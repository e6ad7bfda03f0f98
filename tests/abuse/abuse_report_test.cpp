#include "tests/abuse/abuse_report.h"

#include <gtest/gtest.h>

namespace sr::abuse {
namespace {

// An attack that met every goal: both races finished, fast relays, a small server, the probe got in.
AttackOutcome passing(const std::string& attack) {
  AttackOutcome o;
  o.attack = attack;
  o.races_planned = o.races_finished = 2;
  o.racers_planned = o.racers_finished = 8;
  o.relay_delays_us = {1'000, 2'000, 3'000, 4'000};
  o.peak_rss_kb = 40 * 1024;
  o.probe = {true, true, 12'000, true, true, 34'000, ""};
  o.bystander_asked = o.bystander_answered = 10;
  return o;
}

TEST(AbuseJudge, AnOutcomeWithinEveryGoalPasses) { EXPECT_TRUE(judge(passing("list")).empty()); }

TEST(AbuseJudge, EachMissedGoalIsNamed) {
  AttackOutcome o = passing("silent");
  o.races_finished = 1;
  o.racers_finished = 4;
  o.removed = 3;
  o.relay_delays_us = {1'000, 80'000};
  o.peak_rss_kb = 300 * 1024;
  o.probe.connected = false;
  const std::vector<std::string> expected{"1 of 2 races finished", "4 of 8 racers finished", "3 removed",
                                          "relay p99 80.0 ms",     "server memory 300 MB",   "honest connect failed"};
  EXPECT_EQ(judge(o), expected);
}

TEST(AbuseJudge, TheLimitsThemselvesFail) {
  AttackOutcome o = passing("download");
  o.relay_delays_us = {kMaxRelayP99Us};
  o.peak_rss_kb = kMaxServerKb;
  EXPECT_EQ(judge(o), (std::vector<std::string>{"relay p99 50.0 ms", "server memory 256 MB"}));
}

TEST(AbuseJudge, NoMeasurementIsAFailureNotAPass) {
  AttackOutcome o = passing("rooms");
  o.relay_delays_us.clear();
  o.probe = {};
  EXPECT_EQ(judge(o), (std::vector<std::string>{"no relay measured", "honest connect not tried"}));
}

TEST(AbuseJudge, ADeadServerOrATrippedGuardFails) {
  AttackOutcome o = passing("download");
  o.server_died = true;
  o.memory_guard = true;
  EXPECT_EQ(judge(o), (std::vector<std::string>{"the server died", "server memory 40 MB"}));
}

// Issue 30's goals: the honest spectator catches up, the bystander gets 9 answers of 10, no seen token takes a seat.
TEST(AbuseJudge, TheManyAddressGoalsAreJudgedToo) {
  AttackOutcome o = passing("listrooms");
  o.bystander_answered = 9;
  EXPECT_TRUE(judge(o).empty());  // 9 of 10: just within
  o.bystander_answered = 8;
  o.probe.watched = false;
  o.seats_taken = 2;
  EXPECT_EQ(judge(o), (std::vector<std::string>{"honest catch-up failed", "bystander answered 8 of 10",
                                                "2 seats taken with a seen token"}));
  o = passing("theft");
  o.bystander_asked = o.bystander_answered = 0;
  EXPECT_EQ(judge(o), (std::vector<std::string>{"bystander not tried"}));
}

TEST(AbuseReport, TheTableAlignsOneRowPerAttack) {
  AttackOutcome failing = passing("joinleave");
  failing.removed = 1;
  failing.racers_finished = 7;
  failing.probe = {true, false, 0, false, false, 0, "no Welcome within 10 s"};
  failing.addresses = 5;
  failing.bystander_answered = 8;
  const std::string expected =
      "attack        races  racers  removed  p50 ms  p99 ms  server MB  connect  catch-up  bystander  goals\n"
      "list            2/2     8/8        0     3.0     4.0         40    12 ms     34 ms      10/10     ok\n"
      "joinleave x5    2/2     7/8        1     3.0     4.0         40       no         -       8/10   FAIL\n";
  EXPECT_EQ(format_table({passing("list"), failing}), expected);
}

TEST(AbuseReport, TheVerdictNamesEachFailingAttackAndWhy) {
  AttackOutcome slow = passing("list");
  slow.relay_delays_us = {90'000};
  EXPECT_EQ(format_verdict({passing("silent"), passing("rooms")}), "abuse: PASS (2 attacks)");
  EXPECT_EQ(format_verdict({passing("silent"), slow}), "abuse: FAIL (list: relay p99 90.0 ms)");
  EXPECT_EQ(format_verdict({}), "abuse: FAIL (nothing ran)");
}

TEST(AbuseReport, TheDetailsSayWhatTheOperatorSaw) {
  AttackOutcome o = passing("rooms");
  o.wall_s = 20;
  o.attacker = "250 connects";
  o.metrics_moved = {"stackrace_players 0 -> 250", "stackrace_rooms_refused_total +50"};
  EXPECT_EQ(format_details({o}),
            "rooms (20 s):\n"
            "  attacker: 250 connects\n"
            "  metrics moved: stackrace_players 0 -> 250, stackrace_rooms_refused_total +50\n");
}

}  // namespace
}  // namespace sr::abuse
