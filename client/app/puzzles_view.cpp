#include "client/app/puzzles_view.h"

#include "client/app/app.h"
#include "client/app/game_view.h"

namespace sr::client {

void PuzzlesView::select_next() { menu_.select_next(app_.puzzles()); }

void PuzzlesView::ui(double now_s, const MenuNav& nav) {
  bool back = false;
  if (const auto stage = menu_.draw(nav, app_.puzzles(), back)) {
    app_.view<GameView>(Screen::kGame).start_puzzle(*stage, 1, now_s);
  } else if (back) {
    app_.show(Screen::kMain);
  }
}

}  // namespace sr::client
