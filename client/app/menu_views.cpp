// The menus reached from the main menu: what each choice does.
#include "client/app/menu_views.h"

#include <GLFW/glfw3.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>

#include "client/app/app.h"
#include "client/app/records_view.h"

namespace sr::client {

void MainMenuView::ui(double /*now_s*/, const MenuNav& nav) {
  switch (draw_main_menu(menu_, nav, app_.settings().player_name)) {
    case MainChoice::kSolo: app_.show(Screen::kSolo); break;
    case MainChoice::kBot: app_.show(Screen::kBot); break;
    case MainChoice::kPuzzles: app_.open_puzzles(); break;
    case MainChoice::kMultiplayer: app_.show(Screen::kNet); break;
    case MainChoice::kReplays: app_.open_replay_browser(); break;
    case MainChoice::kRecords: app_.view<RecordsView>(Screen::kRecords).open(Screen::kMain); break;
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

void SettingsView::key_action(SettingsScreen::KeyAction action) {
  const std::filesystem::path file = screen_.key_file();
  const auto& key = app_.net().key();
  if (action == SettingsScreen::KeyAction::kExport && key) {
    auto saved = net::save_key(file, *key);
    key_note_ = saved ? "Exported to " + file.string() + ": copy it to your other computer and import it there. " +
                            "Whoever has it can play as you: keep it like a password."
                      : "Not exported: " + saved.error() + ".";
  } else if (action == SettingsScreen::KeyAction::kImport) {
    auto read = net::read_key_file(file);
    if (!read) {
      key_note_ = "Not imported: " + read.error() + ".";
    } else if (auto set = app_.set_key(read.value()); !set) {
      key_note_ = "Not imported: " + set.error() + ".";
    } else {
      key_note_ = "Imported key " + read.value().short_id() + " from " + file.string() + ": it holds your names from " +
                  "the next connection on.";
    }
  }
  spdlog::info("settings: {}", key_note_);
}

void SettingsView::ui(double /*now_s*/, const MenuNav& nav) {
  if (screen_.key_file().empty()) {
    const char* home = std::getenv("HOME");
    screen_.set_key_file((home != nullptr && *home != '\0' ? std::string(home) : std::string(".")) +
                         "/stackrace-player.key");
  }
  const auto& key = app_.net().key();
  screen_.set_key(key ? key->short_id() : std::string("(none)"), key_note_);
  const bool leave = screen_.draw(app_.settings(), nav);
  if (const auto action = screen_.take_key_action(); action != SettingsScreen::KeyAction::kNone) key_action(action);
  if (leave) {
    app_.apply_settings();
    app_.show(Screen::kMain);
  }
}

}  // namespace sr::client
