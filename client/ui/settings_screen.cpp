#include "client/ui/settings_screen.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "client/input/key_names.h"

namespace sr::client {
namespace {

std::string binding_text(const Settings& s, Action a) {
  std::string out;
  for (int k : s.bindings.keys_for(a)) out += (out.empty() ? "" : ", ") + key_name(k);
  for (int p : s.bindings.pad_for(a)) out += (out.empty() ? "" : ", ") + pad_name(p);
  return out.empty() ? "(none)" : out;
}

// "Warning: Z (just bound to Hold) also does Rotate counter-clockwise. ..." ("" when `others` is empty).
std::string conflict_warning(const std::vector<Action>& others, const std::string& name, Action bound) {
  if (others.empty()) return "";
  std::string text = "Warning: " + name + " (just bound to " + action_label(bound) + ") also does ";
  for (std::size_t i = 0; i < others.size(); ++i) text += std::string(i == 0 ? "" : ", ") + action_label(others[i]);
  return text + ". Delete takes it back.";
}

}  // namespace

void SettingsScreen::set_key(std::string short_id, std::string note) {
  key_id_ = std::move(short_id);
  key_note_ = std::move(note);
}

bool SettingsScreen::draw(Settings& s, const MenuNav& nav) {
  // An armed reset is disarmed by moving to another row or to the other page.
  const Menu& page = on_controls_ ? controls_ : main_;
  if (armed_ != Armed::kNone && (page.selected() != armed_row_ || on_controls_ != (armed_ == Armed::kControls))) {
    armed_ = Armed::kNone;
  }
  if (on_controls_) {
    draw_controls(s, nav);
    return false;
  }
  return draw_main(s, nav);
}

bool SettingsScreen::draw_main(Settings& s, const MenuNav& nav) {
  static const std::vector<std::string> kSkins = {"guideline", "flat", "monochrome"};
  bool leave = false;
  main_.begin("Settings", nav, 30.0f);
  main_.heading("Handling (Shift+Left/Right for big steps)");
  main_.number("DAS: delayed auto shift", s.handling.das_ms, 0, 2000, 1, " ms");
  main_.number("ARR: auto repeat rate", s.handling.arr_ms, 0, 1000, 1, " ms", "0 ms (instant)");
  main_.number("SDF: soft drop factor", s.handling.sdf, 0, 1000, 1, "x gravity", "instant");
  main_.number("DCD: DAS cut delay", s.handling.dcd_ms, 0, 1000, 1, " ms");
  main_.heading("Controls");
  if (main_.button("Keys and gamepad...")) on_controls_ = true;
  main_.heading("Visuals");
  main_.toggle("Ghost piece", s.visuals.ghost);
  main_.toggle("Grid", s.visuals.grid);
  int scale = static_cast<int>(s.visuals.board_scale * 100.0f + 0.5f);
  if (main_.number("Board scale", scale, 50, 150, 5, " %")) s.visuals.board_scale = static_cast<float>(scale) / 100.0f;
  int skin = static_cast<int>(s.visuals.skin);
  if (main_.choice("Colour skin", skin, kSkins)) s.visuals.skin = static_cast<Skin>(skin);
  main_.heading("Sound");
  main_.number("Master volume", s.sound.master_volume, 0, 100, 5, " %", "off");
  main_.number("Effects volume", s.sound.effects_volume, 0, 100, 5, " %", "off");
  main_.toggle("Mute when the window is not focused", s.sound.mute_unfocused);
  main_.heading("Display");
  // 0 is the monitor's rate; 1..29 are no cap, so stepping through them goes between 0 and 30.
  int cap = s.frame_cap;
  if (main_.number("Frame cap without vsync", cap, 0, 1000, 10, " fps", "monitor's refresh rate")) {
    if (cap > 0 && cap < 30) cap = s.frame_cap == 0 ? 30 : 0;
    s.frame_cap = cap;
  }
  main_.heading("Solo games");
  main_.number("Countdown before a game (and a restart)", s.countdown_ms, 0, 5000, 500, " ms", "none: start at once");
  main_.heading("Replays");
  main_.number("Store games given up after", s.keep_given_up_after_s, 0, 600, 1, " s", "always");
  main_.heading("Player");
  if (main_.text("Name", s.player_name, 24)) clamp_settings(s);
  ImGui::TextDisabled("Your key: %s (it holds your name on every server)", key_id_.c_str());
  main_.text("Key file to export to or import from", key_file_, 200);
  if (main_.button("Export the key to that file")) key_action_ = KeyAction::kExport;
  if (main_.button(armed_ == Armed::kImport ? "Import the key from that file: Enter again (your names go with the key)"
                                            : "Import the key from that file")) {
    if (armed_ == Armed::kImport) {
      key_action_ = KeyAction::kImport;
      armed_ = Armed::kNone;
    } else {
      armed_ = Armed::kImport;
      armed_row_ = main_.selected();
    }
  }
  if (!key_note_.empty()) ImGui::TextWrapped("%s", key_note_.c_str());
  ImGui::Separator();
  // Resetting takes a second Enter on the same row (moving away disarms it).
  if (main_.button(armed_ == Armed::kEverything ? "Reset everything to defaults: Enter again to confirm"
                                                : "Reset everything to defaults")) {
    if (armed_ == Armed::kEverything) {
      s = Settings{};
      armed_ = Armed::kNone;
    } else {
      armed_ = Armed::kEverything;
      armed_row_ = main_.selected();
    }
  }
  if (main_.button("Back (saves)")) leave = true;
  leave = leave || main_.back();
  main_.end();
  return leave;
}

void SettingsScreen::draw_controls(Settings& s, const MenuNav& nav) {
  MenuNav n = nav;
  n.suppressed = n.suppressed || capture_.has_value();
  controls_.begin("Keys and gamepad", n, 34.0f);
  ImGui::TextDisabled("Enter: add a key or pad button.  Delete: remove the last key added.");
  ImGui::TextDisabled("Esc pauses, F11 toggles fullscreen, F12 takes a screenshot (fixed).");
  ImGui::Separator();
  for (Action a : kAllActions) {
    const bool waiting = capture_ == a;
    const std::string label = action_label(a);
    if (controls_.button(label + "   " +
                         (waiting ? std::string("press a key or pad button... (Esc cancels)") : binding_text(s, a)))) {
      capture_ = a;
    }
    if (controls_.selected() == static_cast<int>(a) && !capture_ && !nav.suppressed &&
        (nav.pressed(GLFW_KEY_DELETE) || nav.pressed(GLFW_KEY_BACKSPACE))) {
      (void)s.bindings.unbind_last(a);  // false: nothing left to remove
      warning_.clear();
    }
  }
  ImGui::Separator();
  // What was just bound also does something else; and every key that does several things.
  ImGui::PushTextWrapPos(0.0f);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.8f, 0.3f, 1.0f));
  if (!warning_.empty()) ImGui::TextUnformatted(warning_.c_str());
  for (const BindingConflict& c : binding_conflicts(s.bindings)) {
    std::string text = (c.pad ? pad_name(c.input) : key_name(c.input)) + " does ";
    for (std::size_t i = 0; i < c.actions.size(); ++i) {
      text += std::string(i == 0 ? "" : (i + 1 == c.actions.size() ? " and " : ", ")) + action_label(c.actions[i]);
    }
    ImGui::TextUnformatted(text.c_str());
  }
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  if (controls_.button(armed_ == Armed::kControls ? "Reset controls to defaults: Enter again to confirm"
                                                  : "Reset controls to defaults")) {
    if (armed_ == Armed::kControls) {
      s.bindings = Bindings::defaults();
      armed_ = Armed::kNone;
      warning_.clear();
    } else {
      armed_ = Armed::kControls;
      armed_row_ = controls_.selected();
    }
  }
  if (controls_.button("Back")) on_controls_ = false;
  if (controls_.back()) on_controls_ = false;
  controls_.end();
}

bool SettingsScreen::capture_key(Settings& s, int key) {
  if (!capture_) return false;
  if (key == GLFW_KEY_ESCAPE || key == GLFW_KEY_F11 || key == GLFW_KEY_F12 || key_name(key).empty()) {
    capture_.reset();  // reserved or unnamed keys cancel
    return true;
  }
  s.bindings.bind_key(*capture_, key);
  warning_ = conflict_warning(s.bindings.others_using(key, false, *capture_), key_name(key), *capture_);
  capture_.reset();
  return true;
}

bool SettingsScreen::capture_pad(Settings& s, int pad_input) {
  if (!capture_) return false;
  if (pad_input == GLFW_GAMEPAD_BUTTON_START) {
    capture_.reset();
    return true;
  }
  s.bindings.bind_pad(*capture_, pad_input);
  warning_ = conflict_warning(s.bindings.others_using(pad_input, true, *capture_), pad_name(pad_input), *capture_);
  capture_.reset();
  return true;
}

}  // namespace sr::client
