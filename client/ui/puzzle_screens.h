// Puzzle mode's screens: the stage list, the line over the board while a stage is played, and an attempt's results.
// They return what the player chose; the app acts on it (client/app/game_view.cpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "client/render/board_renderer.h"
#include "client/solo/puzzle_progress.h"
#include "client/ui/fonts.h"
#include "client/ui/menu.h"

namespace sr::client {

// The stage list: number, name and best outcome of every stage; locked stages (past the next one) are drawn
// disabled; the next stage to play is marked. Up/Down move, Enter plays, Esc (or Back) leaves.
class PuzzleMenu {
 public:
  // Puts the selection on the next stage to play (called on entering the list from the main menu).
  void select_next(const PuzzleProgress& progress);
  // The stage picked (always playable), or nullopt; sets `back` on Esc or Back.
  [[nodiscard]] std::optional<std::size_t> draw(const MenuNav& nav, const PuzzleProgress& progress, bool& back);

 private:
  Menu menu_;
};

// The hint above the board while an attempt is played ("Clear every cell. R restarts, using this attempt").
void draw_puzzle_hint(const Fonts& fonts, const BoardLayout& layout, const std::string& text);

struct PuzzleResultsView {
  AttemptEnd end = AttemptEnd::kFailed;
  std::string stage;  // "Stage 3: I-spin III"
  int attempt = 1;
  bool has_next = false;  // a next stage exists (Next stage is offered after a clear)
  std::vector<std::pair<std::string, std::string>> stats;
  std::string saved;  // where the replay went, or why it was not saved
};
enum class PuzzleResultsChoice { kNone, kNext, kRetry, kBack };
// Cleared: Next stage (Enter) / Play again (R) / Back to stages (Esc). One retry left: Retry (Enter or R) / Back to
// stages (Esc), which gives the retry up. Failed: Start over (R) / Back to stages (Esc).
[[nodiscard]] PuzzleResultsChoice draw_puzzle_results(Menu& menu, const MenuNav& nav, const PuzzleResultsView& view);

}  // namespace sr::client
