// What stackrace-abuse measured while one attack ran beside honest races, the goals of issue 15 it is judged by, and
// the table it prints (tests/abuse/README.md). No sockets, no clock: abuse_report_test.cpp checks the rule and the
// layout with made-up figures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/netsim/matrix_report.h"

namespace sr::abuse {

// The goals: every other race finishes, nobody else is removed, other players' relay delay p99 stays below this,
// the server's memory below that, an honest player can still connect, create a room and watch a race (its
// catch-up), a bystander gets 9 of 10 room lists it asks for, and no seen token takes a racer's seat.
inline constexpr std::int64_t kMaxRelayP99Us = 50'000;
inline constexpr std::int64_t kMaxServerKb = 256 * 1024;

// How the honest probe fared: a fresh player from an address of its own (127.0.1.1) connecting (Hello -> Welcome)
// and creating a room while the attack ran.
struct ProbeOutcome {
  bool tried = false;
  bool connected = false;
  std::int64_t connect_us = 0;   // until Welcome, when connected
  bool created = false;          // RoomJoined for its CreateRoom
  bool watched = false;          // then joined the first honest race as a spectator and got its catch-up
  std::int64_t catch_up_us = 0;  // from that JoinRoom to CatchUpEnd, when watched
  std::string failure;           // why not ("no Welcome within 10 s", the Reject's or Notice's text)
};

// A bystander asks for the room list at least this often (in tenths): 9 of 10 answered.
inline constexpr int kMinBystanderTenths = 9;

struct AttackOutcome {
  std::string attack;                               // "silent", "download", ..., "all"
  int addresses = 1;                                // attacker source addresses (127.0.0.2 on)
  int races_planned = 0;                            // honest races (rooms x sprints)
  int races_finished = 0;                           // that ended with RaceResults
  int racers_planned = 0;                           // honest racer entries planned (races x racers)
  int racers_finished = 0;                          // RacerStatus::kFinished among the honest results
  int removed = 0;                                  // honest racers removed by the referee
  int other_endings = 0;                            // disconnected, unfinished, topped out
  std::vector<std::int64_t> relay_delays_us;        // honest relay delays (bot/online_bot.h RelayProbe)
  std::int64_t peak_rss_kb = 0;                     // max of VmHWM and every sampled VmRSS of the server
  bool server_died = false;                         // the server process ended during the run (killed, crashed)
  bool memory_guard = false;                        // the harness stopped the attack early: the server passed its guard
  std::int64_t relay_p99_goal_us = kMaxRelayP99Us;  // the goal it is judged by (--p99-goal-ms)
  ProbeOutcome probe;
  int bystander_asked = 0;       // room lists a bystander in the lobby asked for, once a second, during the races
  int bystander_answered = 0;    // RoomList answers
  int bystander_refused = 0;     // Notices ("the server is busy")
  std::int64_t seats_taken = 0;  // the theft attack: racers' seats a seen token took (must be 0)
  std::vector<std::string> metrics_moved;  // "stackrace_x +12", what an operator would have seen
  std::string attacker;                    // what the attacker got done, one line
  double wall_s = 0;
  // Anything that went wrong (a removal's reason, a race that timed out), one sentence each.
  std::vector<std::string> problems;
};

// Relay delay percentiles as stackrace-netmatrix computes them.
using netsim::percentile;

// The reasons the outcome misses the goals, one short phrase each ("1 of 2 races finished", "relay p99 81.2 ms");
// empty when it meets them all.
[[nodiscard]] std::vector<std::string> judge(const AttackOutcome& outcome);

// One aligned row per attack under a header: attack, races finished / planned, removals, relay p50/p99 (ms), peak
// server memory (MB), honest connect (ms) and create, the honest spectator's catch-up (ms), the bystander's answers,
// verdict.
[[nodiscard]] std::string format_table(const std::vector<AttackOutcome>& outcomes);

// The details under the table: per attack, the attacker's line, the metrics that moved and the problems.
[[nodiscard]] std::string format_details(const std::vector<AttackOutcome>& outcomes);

// "abuse: PASS (6 attacks)" or "abuse: FAIL (silent: honest connect failed; list: 4 removed)".
[[nodiscard]] std::string format_verdict(const std::vector<AttackOutcome>& outcomes);

}  // namespace sr::abuse
