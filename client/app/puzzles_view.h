// Puzzles: the stage list (the player's progress loaded from puzzles.json), Enter plays the selected stage's first
// attempt (GameView::start_puzzle).
#pragma once

#include "client/app/screen_view.h"
#include "client/ui/puzzle_screens.h"

namespace sr::client {

class PuzzlesView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // Moves the selection to the next stage to play (on entering, and back from a stage).
  void select_next();

  [[nodiscard]] std::string name() const override { return "puzzles"; }
  void ui(double now_s, const MenuNav& nav) override;

 private:
  PuzzleMenu menu_;
};

}  // namespace sr::client
