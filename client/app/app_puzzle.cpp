// Puzzle mode: the stage list, a stage's attempts (started, judged, retried), and the progress saved in puzzles.json.
// The rules (which stage is playable, how attempts end, what is recorded) are client/solo/puzzle_progress.h's.
#include "client/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <spdlog/spdlog.h>

#include "client/settings/puzzle_progress_io.h"
#include "common/engine/puzzles.h"

namespace sr::client {

void App::start_puzzle(std::size_t stage, int attempt, double now_s) {
  const auto stages = engine::puzzle_stages();
  if (stage >= stages.size() || !puzzles_.playable(stage)) return;
  start_game(GamePick{engine::make_puzzle(stages[stage]), std::nullopt}, Screen::kPuzzles, now_s);
  if (!game_ || screen_ != Screen::kGame) return;
  game_->puzzle = PuzzleAttempt{stage, attempt, std::nullopt, std::nullopt};
  game_->best_before.reset();  // stages have no personal bests
  spdlog::info("puzzle stage {} ({}), attempt {} of {}", stage + 1, stages[stage].name, attempt,
               engine::kPuzzleAttempts);
}

void App::record_puzzle(std::size_t stage, StageOutcome outcome) {
  if (!puzzles_.record(stage, outcome)) return;
  spdlog::info("puzzle stage {}: {}", stage + 1, outcome_text(outcome));
  if (auto saved = save_puzzle_progress(paths_.puzzles_file(), puzzles_); !saved) {
    spdlog::error("{}", saved.error());
    notice_title_ = "Puzzle progress not saved";
    notice_ = saved.error();
  }
}

void App::end_puzzle_attempt(const SaveOutcome& saved, bool stored) {
  SoloGame& g = *game_;
  PuzzleAttempt& p = *g.puzzle;
  const SoloSession& session = *g.session;
  // An attempt with no button pressed that did not end by itself (paused and left untouched) does not count.
  if (session.abandoned() && session.run().log().empty()) return;
  const bool cleared = engine::puzzle_cleared(session.game());
  p.end = judge_attempt(p.attempt, cleared);
  record_puzzle(p.stage, outcome_of(*p.end, p.attempt));
  const auto& stats = session.game().stats();
  PuzzleResultsView v;
  v.end = *p.end;
  v.stage = "Stage " + std::to_string(p.stage + 1) + ": " + std::string(engine::puzzle_stages()[p.stage].name) +
            " \xC2\xB7 attempt " + std::to_string(p.attempt) + " of " + std::to_string(engine::kPuzzleAttempts);
  v.attempt = p.attempt;
  v.has_next = p.stage + 1 < puzzles_.stage_count();
  int cells = 0;
  for (int y = 0; y < engine::kMatrixHeight; ++y) {
    for (int x = 0; x < engine::kMatrixWidth; ++x) cells += session.game().matrix().at(x, y) != engine::Piece::kNone;
  }
  const auto pieces = static_cast<std::int64_t>(session.game().config().fixed_sequence.size());
  v.stats = {{"Pieces placed", format_count(stats.pieces) + " of " + format_count(pieces)},
             {"Cells left", format_count(cells)},
             {"Lines", format_count(stats.lines)},
             {"Time", format_time(stats.time_us)},
             {"How it ended", session.abandoned()                                          ? "restarted or left"
                              : g.session->game().state().top_out != engine::TopOut::kNone ? "topped out"
                                                                                           : "every piece locked"}};
  if (!stored) {
    v.saved = "Not stored: nothing was played";
  } else if (saved.error.empty()) {
    v.saved = "Replay saved: " + saved.path.string();
  } else {
    v.saved = "Replay not saved: " + saved.error;
  }
  p.results = std::move(v);
  spdlog::info("puzzle attempt: {}", p.end == AttemptEnd::kCleared     ? "cleared"
                                     : p.end == AttemptEnd::kRetryLeft ? "not cleared, one retry left"
                                                                       : "failed");
}

void App::leave_puzzle() {
  const PuzzleAttempt& p = *game_->puzzle;
  if (p.end == AttemptEnd::kRetryLeft) record_puzzle(p.stage, StageOutcome::kFailed);  // the retry given up
}

// R, or Retry on the results. While an attempt is played (and counts: a button was pressed) it ends there, used up:
// after attempt 1 attempt 2 starts at once; after the last one the results say "Failed". An attempt with nothing
// pressed starts again as the same attempt. On the results: after "one retry left" the retry starts; after a clear
// or a failure a fresh try starts at attempt 1.
void App::restart_puzzle(double now_s) {
  SoloSession& session = *game_->session;
  const std::size_t stage = game_->puzzle->stage;
  const int attempt = game_->puzzle->attempt;
  if (session.phase() != SessionPhase::kOver) {
    if (session.run().log().empty()) {
      if (session.phase() != SessionPhase::kCountdown) session.abandon(now_s);
      start_puzzle(stage, attempt, now_s);
      return;
    }
    session.abandon(now_s);
    const bool exit_after = options_.exit_after_game;
    options_.exit_after_game = false;
    end_game(now_s);
    options_.exit_after_game = exit_after;
    if (game_->puzzle->end == AttemptEnd::kRetryLeft) start_puzzle(stage, attempt + 1, now_s);
    return;  // failed: the results stay up
  }
  const std::optional<AttemptEnd> end = game_->puzzle->end;
  start_puzzle(stage, end == AttemptEnd::kRetryLeft ? attempt + 1 : 1, now_s);
}

void App::puzzles_ui(double now_s, const MenuNav& nav) {
  bool back = false;
  if (const auto stage = menus_.puzzles.draw(nav, puzzles_, back)) {
    start_puzzle(*stage, 1, now_s);
  } else if (back) {
    screen_ = Screen::kMain;
  }
}

void App::puzzle_results_ui(double now_s, const MenuNav& nav) {
  SoloGame& g = *game_;
  if (!g.puzzle->results) {  // an attempt that did not count: nothing to show, back to the list
    quit_game(now_s);
    return;
  }
  switch (draw_puzzle_results(g.results_menu, nav, *g.puzzle->results)) {
    case PuzzleResultsChoice::kNext: {
      const std::size_t next = g.puzzle->stage + 1;
      menus_.puzzles.select_next(puzzles_);
      start_puzzle(next, 1, now_s);
      break;
    }
    case PuzzleResultsChoice::kRetry: restart(now_s); break;
    case PuzzleResultsChoice::kBack:
      quit_game(now_s);
      menus_.puzzles.select_next(puzzles_);
      break;
    case PuzzleResultsChoice::kNone: break;
  }
}

}  // namespace sr::client
