// Puzzle mode's rules around the engine's stages (common/engine/puzzles.h): which stages may be played, how a try's
// two attempts end, and the best outcome kept per stage. Pure: no files, no clock (puzzle_progress_io.h saves it).
//
// Progression: every stage up to and including the first one not yet cleared is playable, so the stages are met in
// order, a failed stage may be tried again at once, and cleared stages may be replayed at any time.
// A try is up to kPuzzleAttempts (2) attempts: an attempt that ends without a perfect clear (topped out, the last
// piece locked with cells left, restarted with R, or left) uses that attempt; the second one failing fails the try.
// Leaving after a failed first attempt gives up the retry: the try is failed. Starting the stage again from the list
// is a fresh try with two attempts. An attempt with no button pressed (left during the countdown) does not count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sr::client {

// Ordered from worst to best: a stage keeps the best outcome it ever had.
enum class StageOutcome : std::uint8_t { kNotTried, kFailed, kClearedSecond, kClearedFirst };

// "not tried", "failed", "cleared (attempt 2)", "cleared (attempt 1)".
[[nodiscard]] std::string outcome_text(StageOutcome outcome);
[[nodiscard]] bool is_cleared(StageOutcome outcome);

// "Stage 3: I-spin III · piece 2 of 4 · attempt 1 of 2": the name shown under the board while a stage is played,
// `locked` pieces of the stage's sequence having locked (the piece counted is the one in play; after the last has
// locked, the last).
[[nodiscard]] std::string puzzle_board_name(std::size_t stage, int attempt, std::int64_t locked);

class PuzzleProgress {
 public:
  // Every stage of engine::puzzle_stages() not tried.
  PuzzleProgress();
  explicit PuzzleProgress(std::vector<StageOutcome> outcomes);  // one per stage; padded or cut to the stage count

  [[nodiscard]] std::size_t stage_count() const { return outcomes_.size(); }
  // kNotTried for an index out of range.
  [[nodiscard]] StageOutcome outcome(std::size_t stage) const;
  [[nodiscard]] const std::vector<StageOutcome>& outcomes() const { return outcomes_; }
  // The first stage not cleared (the one to play next); stage_count() when every stage is cleared.
  [[nodiscard]] std::size_t next_stage() const;
  // Stages up to and including next_stage().
  [[nodiscard]] bool playable(std::size_t stage) const;
  [[nodiscard]] std::size_t cleared_count() const;
  // Keeps the better of the stage's outcome and `outcome`; true when it changed. Out of range: false.
  bool record(std::size_t stage, StageOutcome outcome);

 private:
  std::vector<StageOutcome> outcomes_;
};

// How an attempt ended, judged from engine::puzzle_cleared() and which attempt it was (1 or 2).
enum class AttemptEnd : std::uint8_t {
  kCleared,    // the stage was cleared on this attempt
  kRetryLeft,  // not cleared on attempt 1: the retry is next
  kFailed,     // not cleared on the last attempt: the try is failed
};
[[nodiscard]] AttemptEnd judge_attempt(int attempt, bool cleared);
// The outcome a try ending this way records; kNotTried (nothing to record) for kRetryLeft, whose try goes on.
[[nodiscard]] StageOutcome outcome_of(AttemptEnd end, int attempt);

// The replay's place for an attempt at `stage` (0-based): "puzzle 3: I-spin III". The replay browser shows it beside
// the player, so a puzzle attempt (a custom game) is recognisable without a field of its own in the replay format.
[[nodiscard]] std::string puzzle_place(std::size_t stage);
// The stage (0-based) of a replay's place written by puzzle_place; nullopt for any other place or a stage that does
// not exist.
[[nodiscard]] std::optional<std::size_t> puzzle_stage_of(const std::string& place);
// Whether an attempt at `stage` that locked `pieces` pieces and cleared `lines` lines left the board empty: every
// garbage cell and every cell of the pieces cleared (lines x 10 of them).
[[nodiscard]] bool puzzle_board_cleared(std::size_t stage, std::int64_t lines, std::int64_t pieces);

}  // namespace sr::client
