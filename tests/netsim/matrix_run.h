// One row of the network matrix (tests/netsim/README.md, "The network matrix"): a stackrace-server in this process
// (tests/server/net_fixture.h), one UdpProxy in front of it with the profile, and races of bots (bot/online_bot.h)
// that all run at once, each in its own auto-starting room, every racer through the proxy. The proxy is armed when
// the countdowns start, so the profile's blackout or address change (5 s later) hits the races 2 s after the start.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "tests/netsim/matrix_report.h"

namespace sr::netsim {

struct MatrixRun {
  std::string profile;     // a name profile_by_name() knows
  std::uint64_t seed = 1;  // the proxy's seed; the bots' timing seeds derive from it too
  int races = 20;          // 1..200: races at once, each in its own room
  int racers = 8;          // 1..16 per race
  int lines = 40;          // the sprint's length
  int pps_milli = 2500;    // the bots' pace, pieces per second x 1000 (0: as fast as the keys allow)
  // How long the races may take, from the countdowns to the last stored replay; 0: 120 s plus four times the
  // expected game plus the profile's longest blackout.
  std::chrono::seconds race_timeout{0};
};

// Runs one profile and returns its figures. Nothing throws: what goes wrong (a bot that cannot connect, a race that
// times out) is in the outcome's problems, and its counts show it. Every wait is bounded by time.
[[nodiscard]] ProfileOutcome run_profile(const MatrixRun& run);

}  // namespace sr::netsim
