#include "common/engine/config.h"

#include <array>

namespace sr::engine {
namespace {

bool in_range(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v >= lo && v <= hi; }

std::string range_error(const char* field, std::int64_t v, std::int64_t lo, std::int64_t hi) {
  return std::string(field) + " is " + std::to_string(v) + ", must be " + std::to_string(lo) + ".." +
         std::to_string(hi);
}

constexpr std::array<const char*, 7> kModeNames = {"sprint",  "ultra",   "marathon", "master",
                                                   "endless", "contest", "custom"};

}  // namespace

sr::Status<std::string> check_config(const GameConfig& c) {
  struct Check {
    const char* name;
    std::int64_t value, lo, hi;
  };
  const Check checks[] = {
      {"mode", static_cast<std::int64_t>(c.mode), 0, 6},
      {"limit", static_cast<std::int64_t>(c.limit), 0, 5},
      {"goal", static_cast<std::int64_t>(c.goal), 0, 2},
      {"rotation", static_cast<std::int64_t>(c.rotation), 0, 3},
      {"generator", static_cast<std::int64_t>(c.generator), 0, 3},
      {"preview", c.preview, 0, 7},
      {"das_us", c.handling.das_us, 0, 2'000'000},
      {"arr_us", c.handling.arr_us, 0, 1'000'000},
      {"sdf", c.handling.sdf, 0, 1000},
      {"dcd_us", c.handling.dcd_us, 0, 1'000'000},
      {"are_us", c.handling.are_us, 0, 2'000'000},
      {"line_clear_delay_us", c.handling.line_clear_delay_us, 0, 2'000'000},
      {"gravity", static_cast<std::int64_t>(c.gravity), 0, 1},
      {"start_level", c.start_level, 1, 30},
      {"goal_system", static_cast<std::int64_t>(c.goal_system), 0, 1},
      {"lock_down", static_cast<std::int64_t>(c.lock_down), 0, 3},
      {"lock_delay_us", c.lock_delay_us, 1, 10'000'000},
      {"max_lock_resets", c.max_lock_resets, 0, 1000},
      {"ground_time_cap_us", c.ground_time_cap_us, 1, 60'000'000},
      {"scoring", static_cast<std::int64_t>(c.scoring), 0, 2},
  };
  for (const auto& check : checks) {
    if (!in_range(check.value, check.lo, check.hi)) return range_error(check.name, check.value, check.lo, check.hi);
  }
  if (c.limit == LimitKind::kTime && !in_range(c.limit_value, 1, 86'400)) {
    return range_error("limit_value (seconds)", c.limit_value, 1, 86'400);
  }
  if (c.limit != LimitKind::kNone && c.limit != LimitKind::kTime && !in_range(c.limit_value, 1, 1'000'000'000'000)) {
    return range_error("limit_value", c.limit_value, 1, 1'000'000'000'000);
  }
  if (c.generator == GeneratorKind::kFixed) {
    if (c.fixed_sequence.empty() || c.fixed_sequence.size() > 10'000) {
      return "fixed_sequence has " + std::to_string(c.fixed_sequence.size()) + " pieces, must have 1..10000";
    }
    for (std::size_t i = 0; i < c.fixed_sequence.size(); ++i) {
      if (!is_tetromino(c.fixed_sequence[i])) return "fixed_sequence[" + std::to_string(i) + "] is not a tetromino";
    }
  }
  if (c.initial_board.size() > static_cast<std::size_t>(kMatrixHeight)) {
    return range_error("initial_board rows", static_cast<std::int64_t>(c.initial_board.size()), 0, kMatrixHeight);
  }
  for (std::size_t y = 0; y < c.initial_board.size(); ++y) {
    const auto& row = c.initial_board[y];
    const std::string where = "initial_board row " + std::to_string(y);
    if (row.size() != static_cast<std::size_t>(kMatrixWidth)) return where + " does not have 10 cells";
    bool full = true;
    for (Piece p : row) {
      if (static_cast<std::uint8_t>(p) > static_cast<std::uint8_t>(Piece::kGarbage)) {
        return where + " holds an unknown cell value";
      }
      full = full && p != Piece::kNone;
    }
    if (full) return where + " is full";
  }
  return {};
}

GameConfig make_sprint(std::int64_t lines) {
  GameConfig c;
  c.mode = ModeKind::kSprint;
  c.limit = LimitKind::kLines;
  c.limit_value = lines;
  c.goal = GoalKind::kTime;
  return c;
}

GameConfig make_ultra(std::int64_t seconds) {
  GameConfig c;
  c.mode = ModeKind::kUltra;
  c.limit = LimitKind::kTime;
  c.limit_value = seconds;
  c.goal = GoalKind::kScore;
  return c;
}

GameConfig make_marathon(GoalSystem goals) {
  GameConfig c;
  c.mode = ModeKind::kMarathon;
  c.limit = LimitKind::kLevel;
  c.limit_value = 15;
  c.goal = GoalKind::kScore;
  c.goal_system = goals;
  return c;
}

GameConfig make_master(std::int64_t lines) {
  GameConfig c;
  c.mode = ModeKind::kMaster;
  c.limit = LimitKind::kLines;
  c.limit_value = lines;
  c.goal = GoalKind::kTime;
  c.gravity = Gravity::k20G;
  return c;
}

GameConfig make_endless() {
  GameConfig c;
  c.mode = ModeKind::kEndless;
  c.limit = LimitKind::kNone;
  c.limit_value = 0;
  c.goal = GoalKind::kScore;
  return c;
}

GameConfig make_contest() {
  GameConfig c;
  c.mode = ModeKind::kContest;
  c.limit = LimitKind::kTime;
  c.limit_value = 90;
  c.goal = GoalKind::kScore;
  c.scoring = Scoring::kContest;
  return c;
}

GameConfig make_custom() {
  GameConfig c = make_endless();
  c.mode = ModeKind::kCustom;
  return c;
}

const char* mode_name(ModeKind mode) {
  const auto i = static_cast<std::size_t>(mode);
  return i < kModeNames.size() ? kModeNames[i] : "unknown";
}

std::optional<ModeKind> mode_from_name(const std::string& name) {
  for (std::size_t i = 0; i < kModeNames.size(); ++i) {
    if (name == kModeNames[i]) return static_cast<ModeKind>(i);
  }
  return std::nullopt;
}

}  // namespace sr::engine
