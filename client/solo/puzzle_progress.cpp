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

}  // namespace sr::client
