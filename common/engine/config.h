// The complete description of a game's rules. Together with the rules version, a seed and an input log it
// defines a game exactly; replays store it.
//
// Every field has a documented range; check_config() checks them. A Game must only be built from a config for
// which check_config() returned ok (the constructor asserts it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/types.h"
#include "common/result.h"

namespace sr::engine {

// The behaviour version of this engine. Any change to what a given (config, seed, inputs) produces bumps it,
// and replays record it.
inline constexpr std::uint32_t kRulesVersion = 1;

enum class RotationSystem : std::uint8_t {
  kSrs = 0,       // guideline SRS kicks for 90-degree turns, "SRS+" kick table for 180-degree turns
  kSrsNo180 = 1,  // guideline SRS kicks for 90-degree turns; 180-degree turns only in place (no kicks)
  kClassic = 2,   // SRS shapes and centres, every turn only in place (no kicks)
  kOcular = 3,    // the tetrs engine's "Ocular" system: mirror-symmetric kicks drawn per orientation, up to 10 tests,
                  // its own 180-degree kicks; the O piece turns too, shifting one column (rotation.h)
};

enum class GeneratorKind : std::uint8_t {
  kBag7 = 0,     // each run of 7 holds every piece once
  kRecency = 1,  // weight of a piece grows with the square of the pieces since it last came
  kUniform = 2,  // every piece equally likely every time
  kFixed = 3,    // GameConfig::fixed_sequence, repeated cyclically
};

enum class LockDown : std::uint8_t {
  kExtended = 0,  // moves/rotations reset the timer at most max_lock_resets times per lowest row; after that a move
                  // that leaves the piece on the ground, or the next touch-down, locks it at once
  kInfinite = 1,  // every move/rotation resets the timer
  kClassic = 2,   // only reaching a new lowest row resets the timer
  kTimer = 3,     // moves reset the timer, total ground time per lowest row capped at ground_time_cap_us
};

enum class Scoring : std::uint8_t {
  kGuideline = 0,  // guideline table with T-spins, combos, back-to-back, perfect clears, drop points
  kContest = 1,    // 800/1200/1800/2000 x level for 1..4 lines, nothing else
  kTetrs = 2,      // 10 x lines^2 x (4 if spin) x (16 if perfect) x combo x max(1, b2b^2)
};

enum class GoalSystem : std::uint8_t {
  kFixed = 0,     // 10 lines per level
  kVariable = 1,  // 5 x L lines to pass level L
};

enum class Gravity : std::uint8_t {
  kLevelTable = 0,  // guideline seconds-per-row table by level
  k20G = 1,         // the piece falls to the floor at once
};

// What ends a game (besides topping out).
enum class LimitKind : std::uint8_t { kNone = 0, kTime = 1, kPieces = 2, kLines = 3, kLevel = 4, kScore = 5 };

// What a result is ranked by.
enum class GoalKind : std::uint8_t {
  kTime = 0,   // lower finish time is better (sprint, master)
  kScore = 1,  // higher score is better (ultra, marathon, contest, endless)
  kLines = 2,  // more lines is better
};

// A mode's name, for display and indexing only: the behaviour comes from the other fields.
enum class ModeKind : std::uint8_t {
  kSprint = 0,
  kUltra = 1,
  kMarathon = 2,
  kMaster = 3,
  kEndless = 4,
  kContest = 5,
  kCustom = 6,
};

// Player handling. Part of the game config because it changes what the same key presses do.
struct Handling {
  std::int32_t das_us = 167'000;         // 0..2,000,000: delay from a direction press to auto-repeat (0: after one ARR)
  std::int32_t arr_us = 33'000;          // 0..1,000,000: auto-repeat interval; 0 = the piece goes to the wall at once
  std::int32_t sdf = 20;                 // 0..1000: soft drop = gravity x sdf; 0 = instant (to the floor)
  std::int32_t dcd_us = 0;               // 0..1,000,000: DAS cut delay: auto-repeat pauses this long after a spawn
  std::int32_t are_us = 0;               // 0..2,000,000: spawn delay after a lock
  std::int32_t line_clear_delay_us = 0;  // 0..2,000,000: extra spawn delay after a lock that clears lines
  bool irs = true;                       // rotations pressed while no piece is out apply when the next piece spawns
  bool ihs = true;                       // likewise for hold
  bool operator==(const Handling&) const = default;
};

// One row of an initial board: 10 cells, x = 0..9.
using BoardRow = std::vector<Piece>;

struct GameConfig {
  ModeKind mode = ModeKind::kSprint;
  LimitKind limit = LimitKind::kLines;
  std::int64_t limit_value = 40;  // seconds for kTime, otherwise a count; >= 1 unless limit is kNone
  GoalKind goal = GoalKind::kTime;

  RotationSystem rotation = RotationSystem::kSrs;
  bool allow_180 = true;  // whether the rotate-180 button does anything
  GeneratorKind generator = GeneratorKind::kBag7;
  std::vector<Piece> fixed_sequence;    // for kFixed: 1..10,000 tetrominoes
  std::vector<BoardRow> initial_board;  // bottom row first; 0..39 rows of 10 cells; full rows are invalid

  bool hold_enabled = true;
  std::uint8_t preview = 5;  // 0..7 next pieces shown; never changes the piece sequence

  Handling handling;

  Gravity gravity = Gravity::kLevelTable;
  std::int32_t start_level = 1;  // 1..30
  bool level_up = true;          // whether clearing lines raises the level
  GoalSystem goal_system = GoalSystem::kFixed;

  LockDown lock_down = LockDown::kExtended;
  std::int32_t lock_delay_us = 500'000;         // 1..10,000,000
  std::int32_t max_lock_resets = 15;            // 0..1000, for kExtended
  std::int32_t ground_time_cap_us = 2'250'000;  // 1..60,000,000, for kTimer

  Scoring scoring = Scoring::kGuideline;
  bool all_spin = false;  // non-T pieces that cannot move up, left or right when they lock score as spin minis

  bool operator==(const GameConfig&) const = default;
};

// Ok if the config is valid, otherwise a sentence naming the first field out of range.
[[nodiscard]] sr::Status<std::string> check_config(const GameConfig& config);

// Mode presets with the engine's defaults for everything else.
[[nodiscard]] GameConfig make_sprint(std::int64_t lines = 40);
[[nodiscard]] GameConfig make_ultra(std::int64_t seconds = 120);
[[nodiscard]] GameConfig make_marathon(GoalSystem goals = GoalSystem::kFixed);  // ends after level 15
[[nodiscard]] GameConfig make_master(std::int64_t lines = 100);                 // 20G from the start
[[nodiscard]] GameConfig make_endless();
[[nodiscard]] GameConfig make_contest();  // 90 s, contest scoring, level +1 per 10 lines
[[nodiscard]] GameConfig make_custom();   // endless rules, mode kCustom: callers set the rest

// Lower-case names: "sprint", "ultra", "marathon", "master", "endless", "contest", "custom".
[[nodiscard]] const char* mode_name(ModeKind mode);
[[nodiscard]] std::optional<ModeKind> mode_from_name(const std::string& name);

}  // namespace sr::engine
