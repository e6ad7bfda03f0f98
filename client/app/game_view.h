// The solo game's screen (solo modes, race the bot, custom games, puzzle stages): starting a game, its keys and pads,
// pausing, ending, saving the replay, the results, and a puzzle stage's attempts (judged, retried, recorded in
// puzzles.json by the rules of client/solo/puzzle_progress.h). The game itself is a SoloGame (solo_game.h), made by
// start() and dropped when the game is left, so nothing of one game (a menu's selection, old results) shows in the
// next.
#pragma once

#include <optional>

#include "client/app/screen_view.h"
#include "client/app/solo_game.h"
#include "client/replay/replay_link.h"

namespace sr::client {

class GameView final : public ScreenView {
 public:
  using ScreenView::ScreenView;

  // Starts `pick` (with the player's handling) and shows it; leaving the game goes to `back_to`. False (said in
  // the log) when the pick's rules are not playable.
  bool start(GamePick pick, Screen back_to, double now_s);
  // Starts attempt `attempt` of puzzle stage `stage` (0-based), when the stage is playable.
  void start_puzzle(std::size_t stage, int attempt, double now_s);

  [[nodiscard]] std::string name() const override { return "game"; }
  [[nodiscard]] bool playing() const override;
  void key(const KeyEvent& ev) override;
  void pad(const PadChange& change, double when_s) override;
  void focus_lost(double now_s) override;
  void tick(double now_s) override;
  void ui(double now_s, const MenuNav& nav) override;
  void render(const BoardLook& look, float w, float h, double now_s) override;
  [[nodiscard]] const std::vector<BoardLayout>& layouts() const override;
  [[nodiscard]] Activity activity() const override;
  // The game is closing: a game in progress is saved as abandoned.
  void shutdown(double now_s) override;

 private:
  // A key of the game: pressed or released buttons, R, Esc (pause, or leave during the countdown).
  void game_key(const KeyEvent& ev);
  [[nodiscard]] bool restart_key(int key) const;
  void restart(double now_s);
  void end_game(double now_s);
  void quit_game(double now_s);
  // The solo game's boards (and the bot's) for a w x h window: left of the results once they are up.
  void layout(float w, float h);
  // The puzzle attempt just ended: judged, its outcome recorded and saved, the results' view filled in.
  void end_puzzle_attempt(const SaveOutcome& saved, bool stored);
  // R (or Retry) in a puzzle: see game_view.cpp for which attempt comes next.
  void restart_puzzle(double now_s);
  // Leaving a puzzle game for the stage list: a first attempt not cleared gives the retry up (the try is failed).
  void leave_puzzle();
  void record_puzzle(std::size_t stage, StageOutcome outcome);
  void puzzle_results_ui(double now_s, const MenuNav& nav);

  std::optional<SoloGame> game_;
  bool restarting_ = false;  // a quick restart's end of the old game is not the end of an --exit-after-game session
};

}  // namespace sr::client
