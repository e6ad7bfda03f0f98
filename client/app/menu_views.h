// The menus reached from the main menu without a connection, one screen type each: the main menu, the solo mode
// picker, race the bot, the custom game editor and the settings. Each keeps its menu (its selection, the values
// typed) for the whole run, so it reopens on the choice last made.
#pragma once

#include "client/app/screen_view.h"
#include "client/ui/screens.h"
#include "client/ui/settings_screen.h"

namespace sr::client {

class MainMenuView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "main menu"; }
  void ui(double now_s, const MenuNav& nav) override;

 private:
  Menu menu_;
};

class SoloMenuView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "solo"; }
  void ui(double now_s, const MenuNav& nav) override;

 private:
  SoloMenu menu_;
};

class BotMenuView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "race the bot"; }
  void ui(double now_s, const MenuNav& nav) override;

 private:
  BotMenu menu_;
};

class CustomMenuView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "custom game"; }
  void ui(double now_s, const MenuNav& nav) override;

 private:
  CustomMenu menu_;
};

// Settings: a key or pad button being bound takes the next press; leaving applies and saves them (App::apply_settings).
class SettingsView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "settings"; }
  [[nodiscard]] bool capture_key(const KeyEvent& ev) override;
  [[nodiscard]] bool capture_pad(const PadChange& change) override;
  void ui(double now_s, const MenuNav& nav) override;

 private:
  // Export or import of the player key (Settings' "Player" rows).
  void key_action(SettingsScreen::KeyAction action);

  SettingsScreen screen_;
  std::string key_note_;  // what the last export or import did
};

}  // namespace sr::client
