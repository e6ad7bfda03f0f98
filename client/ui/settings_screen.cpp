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

}  // namespace

bool SettingsScreen::draw(Settings& s, const MenuNav& nav) {
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
  main_.heading("Display");
  // 0 is the monitor's rate; 1..29 are no cap, so stepping through them goes between 0 and 30.
  int cap = s.frame_cap;
  if (main_.number("Frame cap without vsync", cap, 0, 1000, 10, " fps", "monitor's refresh rate")) {
    if (cap > 0 && cap < 30) cap = s.frame_cap == 0 ? 30 : 0;
    s.frame_cap = cap;
  }
  main_.heading("Replays");
  main_.number("Store games given up after", s.keep_given_up_after_s, 0, 600, 1, " s", "always");
  main_.heading("Player");
  if (main_.text("Name", s.player_name, 24)) clamp_settings(s);
  ImGui::Separator();
  if (main_.button("Reset everything to defaults")) s = Settings{};
  if (main_.button("Back (saves)")) leave = true;
  leave = leave || main_.back();
  main_.end();
  return leave;
}

void SettingsScreen::draw_controls(Settings& s, const MenuNav& nav) {
  MenuNav n = nav;
  n.suppressed = n.suppressed || capture_.has_value();
  controls_.begin("Keys and gamepad", n, 34.0f);
  ImGui::TextDisabled("Enter: add a key or pad button.  Delete: clear the action.");
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
      s.bindings.clear(a);
    }
  }
  ImGui::Separator();
  if (controls_.button("Reset controls to defaults")) s.bindings = Bindings::defaults();
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
  capture_.reset();
  return true;
}

}  // namespace sr::client
