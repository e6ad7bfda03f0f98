// The verifier: re-plays every racer of a replay from its seed, config and inputs (simulate.h) and compares what
// the file recorded: every checkpoint, then the final result field by field and the final state hash.
//
// It reports, per racer, the first point of disagreement: racer, piece number, game time, and which field differs
// with both values. Rules versions: a replay made with rules this build cannot play is reported as such
// (kUnsupportedRules), never as a mismatch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/engine/types.h"
#include "common/replay/replay.h"

namespace sr::replay {

// The rules versions this build plays: kOldestRulesVersion .. engine::kRulesVersion.
inline constexpr std::uint32_t kOldestRulesVersion = 1;
[[nodiscard]] bool plays_rules(std::uint32_t rules_version);

struct Disagreement {
  std::size_t racer = 0;
  std::string racer_name;
  std::int64_t piece = 0;      // pieces locked at the point of disagreement (the checkpoint's piece number)
  engine::TimeUs time_us = 0;  // game time there
  std::string field;           // "checkpoint state_hash", "status", "stats.lines", "final_hash", ...
  std::string recorded;        // the value in the file
  std::string replayed;        // the value the re-simulation gave

  // "racer 0 \"alice\", piece 50 at 16.512000 s: stats.lines differs (recorded 12, replayed 11)"
  [[nodiscard]] std::string describe() const;
};

enum class Verdict : std::uint8_t {
  kVerified = 0,          // every racer's checkpoints and results agree
  kMismatch = 1,          // at least one racer disagrees (see disagreements)
  kUnsupportedRules = 2,  // rules version this build does not play (see message)
};

struct VerifyReport {
  Verdict verdict = Verdict::kVerified;
  std::vector<Disagreement> disagreements;  // the first one of each racer that disagrees, in racer order
  std::string message;                      // one line: "verified 3 racers", the first disagreement, or the rules note
};

// `replay` must be valid (check_replay() is ok; decoded replays are).
[[nodiscard]] VerifyReport verify(const Replay& replay);

// "12.345678 s" for a game time.
[[nodiscard]] std::string format_time(engine::TimeUs t);

}  // namespace sr::replay
