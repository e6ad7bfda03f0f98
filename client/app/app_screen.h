// Which screen the app shows: one value per screen type (screen_view.h), whose view make_screen_views()
// (screen_list.cpp) makes. A header of its own because the screens remember where to go back to (the menu a solo game
// returns to, the screen the replay browser was opened from).
#pragma once

#include <map>
#include <memory>

namespace sr::client {

enum class Screen {
  kMain,
  kSolo,
  kBot,
  kCustom,
  kPuzzles,
  kSettings,
  kGame,
  kBench,
  kNet,
  kReplays,
  kViewer,
  kLadder,
  kBrowse,
  kRecords
};

class App;
class ScreenView;
// A view of every screen, by its Screen value (screen_list.cpp): the one list of screens.
[[nodiscard]] std::map<Screen, std::unique_ptr<ScreenView>> make_screen_views(App& app);

}  // namespace sr::client
