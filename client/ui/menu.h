// A keyboard-navigable menu, drawn with ImGui: Up/Down move the selection (wrapping at the ends), Enter
// activates, Left/Right change a value, Esc goes back. The mouse works too. Gamepads navigate with the d-pad,
// A to activate and B to go back. Immediate mode: items are declared every frame in the same order.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace sr::client {

// This frame's navigation presses, from the keyboard and gamepad (filled by the app before the UI runs). Built from
// the app's own key events rather than ImGui's key state: ImGui 1.86 keeps only whether a key is down, so a tap
// whose press and release arrive in the same frame would be lost.
struct MenuNav {
  bool up = false, down = false, left = false, right = false, accept = false, back = false;
  bool page_up = false, page_down = false;  // Page Up/Down, pad LB/RB
  bool suppressed = false;                  // a key was captured elsewhere this frame (key binding): ignore everything
  std::vector<int> presses;                 // GLFW keys pressed this frame (not auto-repeats), in order
  // Enter (pad A) came while nothing had ImGui's focus, so it pressed no button (default_item_accepted).
  bool activated_nothing = false;
  [[nodiscard]] bool pressed(int key) const {
    for (int k : presses) {
      if (k == key) return true;
    }
    return false;
  }
};

// Opens a fixed window over 90% of the display, titled `title`, for the full-screen lists (multiplayer, replays).
// Close it with ImGui::End().
void begin_full_screen(const char* title);

// The item just drawn is where keyboard and pad start: ImGui::SetItemDefaultFocus() for a window that appears, and,
// when its window has the navigation but nothing in it is focused (ImGui 1.86 sometimes leaves a new window so, and
// Enter then pressed nothing), the focus is put there.
void default_focus();
// Just before the End() of a window that called default_focus() this frame: when the window has the navigation but
// its focus is on an item the window did not draw this frame (ImGui 1.86 can leave a new window's focus on an id
// from before, and Enter then pressed nothing: ClientWindow.RecordsFromAFakeHubWithTheKeyboard failed on the room's
// Ready so), the default item takes it from the next frame on.
void restore_default_focus();
// Right after default_focus(): true when this frame's Enter (pad A) pressed nothing because the focus was not set yet
// and is now on this default item. A window shown a frame or two before the key (the menus draw few frames when
// idle) has its focus only from default_focus() in this frame, after ImGui read the key: ClientWindow.
// RecordsFromAFakeHubWithTheKeyboard found the room's Ready focused, and not pressed, in 2 runs of 3.
[[nodiscard]] bool default_item_accepted(const MenuNav& nav);

// Opens a small fixed window sized to its contents, centred across the display with its centre at `y_fraction` of
// its height, over the screen beneath (`bg_alpha`), taking no keyboard navigation (the caller reads its keys):
// "Connecting", "Leave the race?". `focus_on_appearing` false: it does not take the focus from the game. Close it with
// ImGui::End().
void begin_overlay(const char* title, float y_fraction, float bg_alpha, bool focus_on_appearing = true);

// The width a results window docked at the right of the display takes (its width and a margin each side; 24 body-font
// heights for the window), so the boards can be laid out beside it; 0 where the display is too narrow to leave the
// boards most of it (the window is then centred over them). The margin is 2% of the smaller side, as the boards'.
[[nodiscard]] float docked_panel_width(float display_w, float display_h, float font_size);

class Menu {
 public:
  // Opens a centred window titled `title` of the given width (in body-font heights) and resets the item count; a
  // docked menu (dock_right) opens at the right edge instead, beside the boards, where docked_panel_width allows.
  void begin(const char* title, const MenuNav& nav, float width_em = 26.0f);
  void dock_right() { docked_ = true; }
  // Closes the window and applies Up/Down to the selection.
  void end();

  // A plain item; true when activated.
  bool button(const std::string& label, bool enabled = true);
  // An item with a value chosen from `options` by Left/Right (or Enter, which advances).
  bool choice(const std::string& label, int& index, std::span<const std::string> options);
  // A row whose value Left/Right change and that Enter (or a click) activates: true when activated.
  bool picker(const std::string& label, int& index, std::span<const std::string> options);
  // An integer stepped by Left/Right, clamped to lo..hi, shown with `unit` ("ms", "x").
  bool number(const std::string& label, int& value, int lo, int hi, int step, const char* unit = "",
              const char* zero_text = nullptr);
  bool toggle(const std::string& label, bool& value);
  // Text edited in place after Enter; Enter or Esc ends editing.
  bool text(const std::string& label, std::string& value, std::size_t max_len);
  // A heading line that cannot be selected.
  void heading(const std::string& label);

  // Esc (or pad B) was pressed and no text is being edited.
  [[nodiscard]] bool back() const { return nav_.back && !editing_text_ && !was_editing_ && !nav_.suppressed; }
  [[nodiscard]] int selected() const { return selected_; }
  void select(int index) { selected_ = index; }
  // Whether the selected item's Enter/Left/Right are being used for something else (e.g. key capture).
  [[nodiscard]] bool editing_text() const { return editing_text_; }

 private:
  bool row(const std::string& label, const std::string& value, bool enabled, bool& activated);

  MenuNav nav_;
  int selected_ = 0;
  int count_ = 0;
  bool editing_text_ = false;
  bool was_editing_ = false;  // editing when the frame began: its Esc ended the editing, not the menu
  int editing_index_ = -1;
  bool docked_ = false;
};

}  // namespace sr::client
