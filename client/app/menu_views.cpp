// The menus reached from the main menu: what each choice does.
#include "client/app/menu_views.h"

#include <GLFW/glfw3.h>

#include "client/app/app.h"

namespace sr::client {

void MainMenuView::ui(double /*now_s*/, const MenuNav& nav) {
  switch (draw_main_menu(menu_, nav, app_.settings().player_name)) {
    case MainChoice::kSolo: app_.show(Screen::kSolo); break;
    case MainChoice::kBot: app_.show(Screen::kBot); break;
    case MainChoice::kPuzzles: app_.open_puzzles(); break;
    case MainChoice::kMultiplayer: app_.show(Screen::kNet); break;
    case MainChoice::kReplays: app_.open_replay_browser(); break;
    case MainChoice::kSettings: app_.show(Screen::kSettings); break;
    case MainChoice::kQuit: app_.quit(); break;
    case MainChoice::kNone: break;
  }
}

void SoloMenuView::ui(double now_s, const MenuNav& nav) {
  bool back = false, custom = false;
  if (auto pick = menu_.draw(nav, back, custom)) {
    app_.start_game(*pick, Screen::kSolo, now_s);
  } else if (custom) {
    app_.show(Screen::kCustom);
  } else if (back) {
    app_.show(Screen::kMain);
  }
}

void BotMenuView::ui(double now_s, const MenuNav& nav) {
  bool back = false;
  if (auto pick = menu_.draw(nav, back)) {
    app_.start_game(*pick, Screen::kBot, now_s);
  } else if (back) {
    app_.show(Screen::kMain);
  }
}

void CustomMenuView::ui(double now_s, const MenuNav& nav) {
  bool back = false;
  if (auto pick = menu_.draw(nav, back)) {
    app_.start_game(*pick, Screen::kCustom, now_s);
  } else if (back) {
    app_.show(Screen::kSolo);
  }
}

bool SettingsView::capture_key(const KeyEvent& ev) {
  if (!screen_.capturing() || ev.action != GLFW_PRESS) return false;
  screen_.capture_key(app_.settings(), ev.key);
  return true;
}

bool SettingsView::capture_pad(const PadChange& change) {
  if (!screen_.capturing() || !change.down) return false;
  screen_.capture_pad(app_.settings(), change.input);
  return true;
}

void SettingsView::ui(double /*now_s*/, const MenuNav& nav) {
  if (screen_.draw(app_.settings(), nav)) {
    app_.apply_settings();
    app_.show(Screen::kMain);
  }
}

}  // namespace sr::client
