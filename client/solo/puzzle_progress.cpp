#include "client/solo/puzzle_progress.h"

#include <algorithm>

#include "common/engine/puzzles.h"

namespace sr::client {

std::string outcome_text(StageOutcome outcome) {
  switch (outcome) {
    case StageOutcome::kNotTried: return "not tried";
    case StageOutcome::kFailed: return "failed";
    case StageOutcome::kClearedSecond: return "cleared (attempt 2)";
    case StageOutcome::kClearedFirst: return "cleared (attempt 1)";
  }
  return "?";
}

std::string puzzle_board_name(std::size_t stage, int attempt, std::int64_t locked) {
  const auto stages = engine::puzzle_stages();
  if (stage >= stages.size()) return "Stage " + std::to_string(stage + 1);
  const auto total = static_cast<std::int64_t>(stages[stage].pieces.size());
  const std::int64_t piece = std::clamp<std::int64_t>(locked + 1, 1, total);
  return "Stage " + std::to_string(stage + 1) + ": " + std::string(stages[stage].name) + " \xC2\xB7 piece " +
         std::to_string(piece) + " of " + std::to_string(total) + " \xC2\xB7 attempt " + std::to_string(attempt) +
         " of " + std::to_string(engine::kPuzzleAttempts);
}

bool is_cleared(StageOutcome outcome) {
  return outcome == StageOutcome::kClearedFirst || outcome == StageOutcome::kClearedSecond;
}

PuzzleProgress::PuzzleProgress() : outcomes_(engine::puzzle_stages().size(), StageOutcome::kNotTried) {}

PuzzleProgress::PuzzleProgress(std::vector<StageOutcome> outcomes) : outcomes_(std::move(outcomes)) {
  outcomes_.resize(engine::puzzle_stages().size(), StageOutcome::kNotTried);
}

StageOutcome PuzzleProgress::outcome(std::size_t stage) const {
  return stage < outcomes_.size() ? outcomes_[stage] : StageOutcome::kNotTried;
}

std::size_t PuzzleProgress::next_stage() const {
  const auto it = std::find_if(outcomes_.begin(), outcomes_.end(), [](StageOutcome o) { return !is_cleared(o); });
  return static_cast<std::size_t>(it - outcomes_.begin());
}

bool PuzzleProgress::playable(std::size_t stage) const { return stage < outcomes_.size() && stage <= next_stage(); }

std::size_t PuzzleProgress::cleared_count() const {
  return static_cast<std::size_t>(std::count_if(outcomes_.begin(), outcomes_.end(), is_cleared));
}

bool PuzzleProgress::record(std::size_t stage, StageOutcome outcome) {
  if (stage >= outcomes_.size() || outcome <= outcomes_[stage]) return false;
  outcomes_[stage] = outcome;
  return true;
}

AttemptEnd judge_attempt(int attempt, bool cleared) {
  if (cleared) return AttemptEnd::kCleared;
  return attempt < engine::kPuzzleAttempts ? AttemptEnd::kRetryLeft : AttemptEnd::kFailed;
}

StageOutcome outcome_of(AttemptEnd end, int attempt) {
  switch (end) {
    case AttemptEnd::kCleared: return attempt <= 1 ? StageOutcome::kClearedFirst : StageOutcome::kClearedSecond;
    case AttemptEnd::kFailed: return StageOutcome::kFailed;
    case AttemptEnd::kRetryLeft: return StageOutcome::kNotTried;
  }
  return StageOutcome::kNotTried;
}

std::string puzzle_place(std::size_t stage) {
  const auto stages = engine::puzzle_stages();
  return "puzzle " + std::to_string(stage + 1) + ": " + (stage < stages.size() ? std::string(stages[stage].name) : "?");
}

std::optional<std::size_t> puzzle_stage_of(const std::string& place) {
  const auto stages = engine::puzzle_stages();
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (place == puzzle_place(i)) return i;
  }
  return std::nullopt;
}

bool puzzle_board_cleared(std::size_t stage, std::int64_t lines, std::int64_t pieces) {
  const auto stages = engine::puzzle_stages();
  if (stage >= stages.size()) return false;
  std::int64_t garbage = 0;
  for (std::string_view row : stages[stage].rows) garbage += std::count(row.begin(), row.end(), 'G');
  return lines * 10 == garbage + 4 * pieces;
}

}  // namespace sr::client
