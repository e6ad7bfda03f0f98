// The solo game in progress (game_view.cpp): what was picked, its session and the bot racing it, the personal best
// it is measured against, its results once over, its boards' layout, and its pause and results menus. Made by
// GameView::start() (a restart makes a new one from the same pick) and dropped when the game is left (quit from the
// pause or results menu, Esc in the countdown), so nothing of one game (a menu's selection, old results) shows in the
// next.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "client/app/app_screen.h"
#include "client/audio/game_cues.h"
#include "client/render/board_renderer.h"
#include "client/solo/bot_racer.h"
#include "client/solo/puzzle_progress.h"
#include "client/solo/results.h"
#include "client/solo/solo_session.h"
#include "client/ui/menu.h"
#include "client/ui/puzzle_screens.h"
#include "client/ui/screens.h"

namespace sr::client {

// A puzzle stage being played (game_view.cpp): which stage, which attempt of the try, and how the attempt ended.
struct PuzzleAttempt {
  std::size_t stage = 0;
  int attempt = 1;                // 1..engine::kPuzzleAttempts
  std::optional<AttemptEnd> end;  // once the attempt is over and counted
  std::optional<PuzzleResultsView> results;
};

struct SoloGame {
  GamePick pick;                         // as started (with the player's handling): a restart plays it again
  Screen back_to = Screen::kSolo;        // the menu leaving the game goes to
  std::unique_ptr<SoloSession> session;  // never null
  std::unique_ptr<BotRacer> bot;         // null unless racing the bot
  std::optional<RunResult> best_before;  // the personal best when the game started
  std::optional<ResultsView> results;    // once the game is over (and saved)
  std::int64_t started_unix_ms = 0;
  std::vector<BoardLayout> layouts;  // ours, then the bot's
  Menu pause_menu;
  Menu results_menu;  // docked at the right (dock_right): the boards stay in view beside it
  audio::CountdownBeeps beeps;
  std::optional<PuzzleAttempt> puzzle;  // a puzzle stage (Screen::kPuzzles is back_to)
};

// `n` boards as large as they fit in a w x h window, in the grid that makes them largest (a game and its bot side by
// side, the bench's 16). `scale` shrinks each board in its cell (the player's board scale).
void solo_layouts(std::vector<BoardLayout>& out, int n, float w, float h, float scale);

}  // namespace sr::client
