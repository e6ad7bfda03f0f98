// Settings: handling (DAS, ARR, SDF, DCD with units), key and pad bindings (press a key to bind, several keys per
// action, a warning when the key also does another action, Delete removes the last one, reset to defaults after a
// second Enter), visuals (ghost, grid, board scale, skin), sound (master and effects volume, mute when unfocused),
// the frame cap and the player name.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "client/input/actions.h"
#include "client/settings/settings.h"
#include "client/ui/menu.h"

namespace sr::client {

class SettingsScreen {
 public:
  // Edits `s` in place. Returns true when the player leaves the screen (the app then saves).
  [[nodiscard]] bool draw(Settings& s, const MenuNav& nav);

  // The player key's rows (PROTOCOL.md "Player keys"): its short id, a line the screen says about it (the last export
  // or import), and the file to export it to or import it from (edited on the screen). take_key_action() says which
  // button was pressed since it was last asked (an import takes a second Enter: it replaces who the player is).
  enum class KeyAction { kNone, kExport, kImport };
  void set_key(std::string short_id, std::string note);
  void set_key_file(std::string path) { key_file_ = std::move(path); }
  [[nodiscard]] const std::string& key_file() const { return key_file_; }
  [[nodiscard]] KeyAction take_key_action() { return std::exchange(key_action_, KeyAction::kNone); }

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
  std::string key_id_, key_note_, key_file_;
  KeyAction key_action_ = KeyAction::kNone;
  // A reset (or a key import) waiting for its second Enter.
  enum class Armed { kNone, kEverything, kControls, kImport } armed_ = Armed::kNone;
  int armed_row_ = -1;   // the row it was armed on
  std::string warning_;  // the key just bound also does another action
};

}  // namespace sr::client
