// The synctest, in the spirit of GGPO's: one game played by the client's race session and refereed by the server's
// referee under a hostile cadence, with every number the two exchange compared, then both games compared with each
// other and with independent runs (tests/sync/README.md).
//
// # What one game does
// The client (`net::RaceView`, our own racer) plays the plan's presses in the plan's frames: each frame presses
// every change stamped up to its end, then advances to it. Its messages (`RaceInput`, `StateHashReport`) reach the
// referee (`server::RacerReferee`) in order, at once or, inside a hold, later in a burst (a hold of the reliable
// channel only lets the unreliable RaceInputCopies through at once), as the server's room would hand them over: the
// sequence number must continue the referee's stream, and the referee's relays (`RacerInputs`, numbered by its log)
// feed a watching client's `RaceView`. Pace limits are out of reach: pace is not under test.
//
// # What must agree
// - Every RaceInput continues the stream (first_seq, times never going back, changes no later than its now_us), and
//   the referee never reports a violation.
// - Every StateHashReport is for the next multiple of 10 pieces, and its digest and lock time equal the referee's
//   after that lock when it arrives; at the end, one report per 10 locks was sent.
// - At the end, after one last heartbeat has brought the referee to the client's game time: the client's game, the
//   referee's, the watcher's board of our racer and a RacerRun fed the presses in one go (a press per change, one
//   advance to the end) have the same state_hash(), game time, input log and lock records.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "tests/sync/sync_plan.h"

namespace sr::synctest {

struct SyncResult {
  std::uint64_t game_seed = 0;
  engine::GameConfig config;
  InputSource source = InputSource::kScripted;

  std::int64_t locks = 0;            // locks of the client's game
  std::int64_t reports_checked = 0;  // StateHashReports compared with the referee
  std::int64_t batches = 0;          // RaceInputs the referee took
  std::int64_t copies = 0;           // of those, RaceInputCopies that got there first (held RaceInputs)
  std::int64_t changes = 0;          // button changes in the client's input log
  std::int64_t frames = 0;           // frames the client played
  std::int64_t stalls = 0;           // frames of a second or more
  std::int64_t bursts = 0;           // held messages delivered late, together
  std::int64_t largest_burst = 0;    // messages in the largest burst
  std::int64_t most_locks_in_one_frame = 0;
  TimeUs end_us = 0;  // the game time both ended at (the client's last advance)
  bool game_over = false;
  bool finished = false;  // the mode's limit was reached (not topped out)

  // The first disagreement: what, where (game time, piece), both values, and how to reproduce it.
  std::optional<std::string> mismatch;
  [[nodiscard]] bool ok() const { return !mismatch; }
};

// "locks 31, reports 3, batches 410, frames 600, stalls 1, bursts 1 (largest 120), most locks in one frame 12,
// ended at 10050000 us, topped out": what a game exercised, for test traces.
[[nodiscard]] std::string describe(const SyncResult& r);

// Plays `plan` and compares everything listed above; stops at the first mismatch.
[[nodiscard]] SyncResult run_plan(const SyncPlan& plan);

// make_plan(game_seed, options), then run_plan: plays until the game is over or the game-time cap.
[[nodiscard]] SyncResult run_synctest_game(std::uint64_t game_seed, const PlanOptions& options = {});

// Totals over many games, and how often each mode, rotation system, lock down, gravity, generator and input
// source was played (so that a run can show it tested what it claims).
struct SyncTally {
  std::int64_t games = 0;
  std::int64_t locks = 0;
  std::int64_t reports = 0;
  std::int64_t batches = 0;
  std::int64_t copies = 0;
  std::int64_t stalls = 0;
  std::int64_t bursts = 0;
  std::int64_t games_over = 0;
  std::int64_t mismatches = 0;
  std::array<std::int64_t, 7> modes{};
  std::array<std::int64_t, 3> rotations{};
  std::array<std::int64_t, 4> lock_downs{};
  std::array<std::int64_t, 2> gravities{};
  std::array<std::int64_t, 4> generators{};
  std::array<std::int64_t, kInputSources> sources{};
  std::vector<std::string> first_mismatches;  // at most kKeptMismatches
  static constexpr std::size_t kKeptMismatches = 10;

  void add(const SyncResult& r);
  void merge(const SyncTally& other);
  // "10000 games, 123456 locks, 12345 reports checked, 0 mismatches, modes {sprint 1432, ...}, rotations {...}, ..."
  [[nodiscard]] std::string summary() const;
};

}  // namespace sr::synctest
