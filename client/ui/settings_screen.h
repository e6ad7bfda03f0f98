// Settings: handling (DAS, ARR, SDF, DCD with units), key and pad bindings (press a key to bind, several keys per
// action, a warning when the key also does another action, Delete removes the last one, reset to defaults after a
// second Enter), visuals (ghost, grid, board scale, skin), sound (master and effects volume, mute when unfocused),
// the frame cap and the player name.
#pragma once

#include <optional>
#include <string>

#include "client/input/actions.h"
#include "client/settings/settings.h"
#include "client/ui/menu.h"

namespace sr::client {

class SettingsScreen {
 public:
  // Edits `s` in place. Returns true when the player leaves the screen (the app then saves).
  [[nodiscard]] bool draw(Settings& s, const MenuNav& nav);

  // While waiting for a key to bind, the app hands key and pad presses here instead of to the menu.
  [[nodiscard]] bool capturing() const { return capture_.has_value(); }
  // Binds `key` to the action being captured; Escape cancels. Returns true when the press was used.
  bool capture_key(Settings& s, int key);
  bool capture_pad(Settings& s, int pad_input);

 private:
  bool draw_main(Settings& s, const MenuNav& nav);
  void draw_controls(Settings& s, const MenuNav& nav);

  Menu main_;
  Menu controls_;
  bool on_controls_ = false;
  std::optional<Action> capture_;
  enum class Armed { kNone, kEverything, kControls } armed_ = Armed::kNone;  // a reset waiting for its second Enter
  int armed_row_ = -1;                                                       // the row it was armed on
  std::string warning_;  // the key just bound also does another action
};

}  // namespace sr::client
