// Which keys and pad inputs trigger which action, and the held-input state that turns them into engine buttons.
//
// Several keys may trigger one action; a button is held while any key or pad input bound to it is held, so
// releasing one of two held keys for the same action keeps the button down (no spurious release in the log).
#pragma once

#include <array>
#include <bitset>
#include <vector>

#include "client/input/actions.h"
#include "client/input/key_names.h"
#include "common/engine/types.h"

namespace sr::client {

inline constexpr int kKeyCodeLimit = 512;  // key codes are below this (keycode::kLast is 348)

struct Bindings {
  std::array<std::vector<int>, kActionCount> keys;  // key codes (key_codes.h) per action
  std::array<std::vector<int>, kActionCount> pad;   // PadInput values per action

  // Arrows move and soft drop, Space hard drop, Up/X rotate CW, Z/Ctrl rotate CCW, A rotate 180, C/Shift hold,
  // R restart. Pad: d-pad and left stick move, d-pad up hard drop, B CW, A CCW, Y 180, LB/RB hold, Back restart.
  [[nodiscard]] static Bindings defaults();

  [[nodiscard]] const std::vector<int>& keys_for(Action a) const { return keys[static_cast<std::size_t>(a)]; }
  [[nodiscard]] const std::vector<int>& pad_for(Action a) const { return pad[static_cast<std::size_t>(a)]; }
  // Adds `key` to `a` (no duplicates). The same key may serve several actions.
  void bind_key(Action a, int key);
  void bind_pad(Action a, int pad_input);
  void clear(Action a);
  // Removes one binding of `a`: its last key (the one bound most recently), else its last pad input, so Delete takes
  // away one binding at a time. Returns false when `a` has none.
  bool unbind_last(Action a);
  // The actions other than `except` that `key` (a pad input when `pad`) also triggers, in kAllActions order.
  [[nodiscard]] std::vector<Action> others_using(int key, bool pad, Action except) const;
  bool operator==(const Bindings&) const = default;
};

// A key or pad input bound to more than one action (pressing it does all of them).
struct BindingConflict {
  bool pad = false;
  int input = 0;                // key code (key_codes.h), or PadInput
  std::vector<Action> actions;  // two or more, in kAllActions order
  bool operator==(const BindingConflict&) const = default;
};
// Every conflict: keys first (by key code), then pad inputs (by PadInput). The restart action counts like any other.
[[nodiscard]] std::vector<BindingConflict> binding_conflicts(const Bindings& b);

// Which keys and pad inputs are down right now.
class HeldInputs {
 public:
  // Records a key going down or up. Returns false for codes outside 0..kKeyCodeLimit-1 (ignored).
  bool set_key(int key, bool down);
  void set_pad(int pad_input, bool down);
  void release_all();
  [[nodiscard]] bool key_down(int key) const { return key >= 0 && key < kKeyCodeLimit && keys_[key]; }
  [[nodiscard]] bool pad_down(int pad_input) const {
    return pad_input >= 0 && pad_input < kPadInputCount && pad_[pad_input];
  }
  // Whether any key or pad input bound to `a` is down.
  [[nodiscard]] bool action_down(const Bindings& b, Action a) const;
  // The engine buttons held: the OR of every game action that is down.
  [[nodiscard]] engine::Buttons buttons(const Bindings& b) const;

 private:
  std::bitset<kKeyCodeLimit> keys_;
  std::bitset<kPadInputCount> pad_;
};

}  // namespace sr::client
