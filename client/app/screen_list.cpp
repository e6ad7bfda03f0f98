// The one list of screens: a view of each, made once for the run (each keeps its menus' choices meanwhile).
#include "client/app/app.h"
#include "client/app/bench_view.h"
#include "client/app/browse_view.h"
#include "client/app/game_view.h"
#include "client/app/ladder_view.h"
#include "client/app/menu_views.h"
#include "client/app/net_view.h"
#include "client/app/puzzles_view.h"
#include "client/app/records_view.h"
#include "client/app/replay_views.h"

namespace sr::client {

std::map<Screen, std::unique_ptr<ScreenView>> make_screen_views(App& app) {
  std::map<Screen, std::unique_ptr<ScreenView>> views;
  const auto add = [&](Screen id, std::unique_ptr<ScreenView> view) { views.emplace(id, std::move(view)); };
  add(Screen::kMain, std::make_unique<MainMenuView>(app));
  add(Screen::kSolo, std::make_unique<SoloMenuView>(app));
  add(Screen::kBot, std::make_unique<BotMenuView>(app));
  add(Screen::kCustom, std::make_unique<CustomMenuView>(app));
  add(Screen::kPuzzles, std::make_unique<PuzzlesView>(app));
  add(Screen::kSettings, std::make_unique<SettingsView>(app));
  add(Screen::kGame, std::make_unique<GameView>(app));
  add(Screen::kBench, std::make_unique<BenchView>(app));
  add(Screen::kNet, std::make_unique<NetView>(app));
  add(Screen::kReplays, std::make_unique<ReplaysView>(app));
  add(Screen::kViewer, std::make_unique<ViewerView>(app));
  add(Screen::kLadder, std::make_unique<LadderView>(app));
  add(Screen::kBrowse, std::make_unique<BrowseView>(app));
  add(Screen::kRecords, std::make_unique<RecordsView>(app));
  return views;
}

}  // namespace sr::client
