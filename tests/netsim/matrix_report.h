// What stackrace-netmatrix measured on one network profile, the acceptance rule it is judged by, and the table and
// CSV it prints (tests/netsim/README.md, "The network matrix"). No sockets, no clock: tests/netsim/matrix_report_test
// checks the rule and the layout with made-up figures.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sr::netsim {

// The figures of one profile's run: races run concurrently, each its own room, every racer through the proxy.
struct ProfileOutcome {
  std::string profile;
  int races_planned = 0;
  int racers_planned = 0;            // races_planned x racers per race
  int races = 0;                     // races that ended with RaceResults
  int racers = 0;                    // entries in those results
  int finished = 0;                  // RacerStatus::kFinished
  int removed = 0;                   // RacerStatus::kRemoved
  int topped_out = 0;                // RacerStatus::kToppedOut: the bot's play ended the game
  int other_endings = 0;             // disconnected, unfinished (did not finish)
  int setup_drops = 0;               // connections that dropped before their race's countdown (the bot connected again)
  std::uint64_t desyncs = 0;         // the server's counter (RoomCounters::desyncs)
  std::uint64_t desync_notices = 0;  // Notice{kDesync} received by the bots
  int replays_stored = 0;            // .srr files in the server's store
  int replays_verified = 0;          // of those, decoded and verified
  int logs_checked = 0;              // finishers and topped out racers: stored input log compared with their client's
  int logs_whole = 0;                // of those, equal: the replay holds the racer's whole game
  std::vector<std::int64_t> relay_delays_us;  // every relay delay measured (bot/online_bot.h RelayProbe)
  int reconnects = 0;                         // sum of Session::reconnects() over the bots
  std::vector<std::int64_t> resume_times_us;  // every Session::resume_times_us() entry
  std::int64_t unverified_sum_us = 0;         // RacerResult::unverified_us, summed over every racer
  std::int64_t unverified_max_us = 0;         // and the largest
  double wall_s = 0;                          // the profile's run, from the server's start to the last replay
  std::string network;                        // what the proxy did to the packets, one line
  // Anything that went wrong on the way (a bot that could not connect, a race without results, a removal's reason,
  // a replay that does not verify), one sentence each, for the lines under the table.
  std::vector<std::string> problems;
};

// The value below which `fraction` (0..1) of the samples lie: the sorted sample at index floor(fraction x count),
// as stackrace-bot's summary computes it. nullopt without samples.
[[nodiscard]] std::optional<std::int64_t> percentile(std::vector<std::int64_t> samples, double fraction);

// Profiles where a racer's connection is expected to drop (a 45 s blackout, an address change): the racers must come
// back (reconnects > 0) and finish; everywhere else no racer may be lost at all.
[[nodiscard]] bool expects_resume(const std::string& profile);

// The acceptance rule, as the issue states it. Every profile: every planned racer finishes (none removed, none
// otherwise ended; a top-out counts as an end of the racer's own game, not the network's doing), every race stores one
// replay, every stored replay verifies and holds the whole game of each racer whose game ended by itself.
// Profiles without expects_resume(): also no desync, from the server or to any bot. With expects_resume(): at least
// one reconnect. The reasons it fails, one short phrase each ("2 removed", "no reconnect"); empty when it passes.
[[nodiscard]] std::vector<std::string> judge(const ProfileOutcome& outcome);

// Rows of cells as aligned text, a line each: every column as wide as its longest cell, the first left-aligned (a
// name), the rest right-aligned (figures), two spaces apart. For this table and stackrace-abuse's.
[[nodiscard]] std::string align_columns(const std::vector<std::vector<std::string>>& rows);

// The table: a header line, then one aligned row per profile (widths fit the longest cell). Times in milliseconds
// (relay delay), seconds (resume, unverified, wall); "-" where nothing was measured.
[[nodiscard]] std::string format_table(const std::vector<ProfileOutcome>& outcomes);

// The same figures as CSV with a header row: one row per profile, plain numbers (ms and s with 3 decimals), empty
// where nothing was measured.
[[nodiscard]] std::string format_csv(const std::vector<ProfileOutcome>& outcomes);

// "netmatrix: PASS", or "netmatrix: FAIL (wifi: 2 removed; mobile: 1 desync)".
[[nodiscard]] std::string format_verdict(const std::vector<ProfileOutcome>& outcomes);

}  // namespace sr::netsim
