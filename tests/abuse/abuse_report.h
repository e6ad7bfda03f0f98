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
// the server's memory below that, and an honest player can still connect and create a room.
inline constexpr std::int64_t kMaxRelayP99Us = 50'000;
inline constexpr std::int64_t kMaxServerKb = 256 * 1024;

// How the honest probe fared: a fresh player from 127.0.0.1 connecting (Hello -> Welcome) and creating a room while
// the attack ran.
struct ProbeOutcome {
  bool tried = false;
  bool connected = false;
  std::int64_t connect_us = 0;  // until Welcome, when connected
  bool created = false;         // RoomJoined for its CreateRoom
  std::string failure;          // why not ("no Welcome within 10 s", the Reject's or Notice's text)
};

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
// server memory (MB), honest connect (ms) and create, verdict, then the metrics that moved.
[[nodiscard]] std::string format_table(const std::vector<AttackOutcome>& outcomes);

// The details under the table: per attack, the attacker's line, the metrics that moved and the problems.
[[nodiscard]] std::string format_details(const std::vector<AttackOutcome>& outcomes);

// "abuse: PASS (6 attacks)" or "abuse: FAIL (silent: honest connect failed; list: 4 removed)".
[[nodiscard]] std::string format_verdict(const std::vector<AttackOutcome>& outcomes);

}  // namespace sr::abuse
