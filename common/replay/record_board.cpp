#include "common/replay/record_board.h"

#include <cassert>
#include <cereal/archives/portable_binary.hpp>
#include <cstdio>
#include <sstream>

#include "common/replay/detail/serialization_binary.h"

namespace sr::replay {
namespace {

using engine::GoalKind;
using engine::LimitKind;
using engine::ModeKind;

// The mode's standard config for this limit: what the game's menus and the server's room presets start from.
std::optional<engine::GameConfig> standard_config(const engine::GameConfig& c) {
  switch (c.mode) {
    case ModeKind::kSprint: return engine::make_sprint(c.limit_value);
    case ModeKind::kUltra: return engine::make_ultra(c.limit_value);
    case ModeKind::kMarathon: return engine::make_marathon(c.goal_system);
    case ModeKind::kMaster: return engine::make_master(c.limit_value);
    case ModeKind::kContest: return engine::make_contest();
    case ModeKind::kEndless:
    case ModeKind::kCustom: return std::nullopt;  // endless has no limit; custom games are custom by definition
  }
  return std::nullopt;
}

char limit_unit(LimitKind limit) {
  switch (limit) {
    case LimitKind::kTime: return 's';
    case LimitKind::kPieces: return 'p';
    case LimitKind::kLines: return 'l';
    case LimitKind::kLevel: return 'v';
    case LimitKind::kScore: return 'k';
    case LimitKind::kNone: break;
  }
  return '?';
}

std::string limit_text(LimitKind limit, std::int64_t value) {
  const std::string n = std::to_string(value);
  switch (limit) {
    case LimitKind::kTime: return n + " s";
    case LimitKind::kPieces: return n + " pieces";
    case LimitKind::kLines: return n + " lines";
    case LimitKind::kLevel: return "level " + n;
    case LimitKind::kScore: return n + " points";
    case LimitKind::kNone: break;
  }
  return "no limit";
}

// 64-bit FNV-1a of the shared config's replay bytes (Cereal portable binary, handling left out as a replay leaves it
// out): a custom board's id names its settings. The engine's state hash uses the same function.
std::uint64_t settings_hash(const engine::GameConfig& config) {
  std::ostringstream os(std::ios::binary);
  {
    cereal::PortableBinaryOutputArchive ar(os, cereal::PortableBinaryOutputArchive::Options::LittleEndian());
    ar(config);
  }
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char ch : os.str()) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::optional<RecordBoard> record_board(const engine::GameConfig& config) {
  if (config.limit == LimitKind::kNone || config.limit_value < 1) return std::nullopt;
  // A limit measured in what the goal ranks gives everyone who reaches it the same value.
  if (config.goal == GoalKind::kLines && config.limit == LimitKind::kLines) return std::nullopt;
  if (config.goal == GoalKind::kScore && config.limit == LimitKind::kScore) return std::nullopt;
  RecordBoard board;
  board.mode = config.mode;
  board.limit = config.limit;
  board.limit_value = config.limit_value;
  board.goal = config.goal;
  board.limit_text = limit_text(config.limit, config.limit_value);
  engine::GameConfig shared = config;
  shared.handling = engine::Handling{};
  std::optional<engine::GameConfig> standard = standard_config(shared);
  if (standard) standard->handling = engine::Handling{};
  board.custom = !standard || *standard != shared;
  board.id =
      std::string(engine::mode_name(config.mode)) + "-" + std::to_string(config.limit_value) + limit_unit(config.limit);
  if (board.custom) {
    char suffix[10];
    std::snprintf(suffix, sizeof suffix, ".%08x", static_cast<unsigned>(settings_hash(shared) >> 32));
    board.id += suffix;
  }
  return board;
}

bool result_counts(const RecordBoard& board, const RacerResult& result) {
  if (result.status == ResultStatus::kFinished) return true;
  return result.status == ResultStatus::kToppedOut && board.goal != GoalKind::kTime && board.limit != LimitKind::kTime;
}

std::int64_t ranked_value(const RecordBoard& board, const RacerResult& result) {
  assert(result_counts(board, result));
  switch (board.goal) {
    case GoalKind::kTime: return result.stats.time_us;
    case GoalKind::kScore: return result.stats.score;
    case GoalKind::kLines: return result.stats.lines;
  }
  return 0;
}

bool lower_is_better(const RecordBoard& board) { return board.goal == GoalKind::kTime; }

bool valid_board_id(std::string_view id) {
  if (id.empty() || id.size() > 40) return false;
  for (const char c : id) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-')) return false;
  }
  return true;
}

}  // namespace sr::replay
