#include "client/input/bindings.h"

#include <algorithm>

namespace sr::client {

Bindings Bindings::defaults() {
  Bindings b;
  auto keys = [&b](Action a, std::vector<int> k) { b.keys[static_cast<std::size_t>(a)] = std::move(k); };
  auto pad = [&b](Action a, std::vector<int> p) { b.pad[static_cast<std::size_t>(a)] = std::move(p); };
  keys(Action::kMoveLeft, {keycode::kLeft});
  keys(Action::kMoveRight, {keycode::kRight});
  keys(Action::kSoftDrop, {keycode::kDown});
  keys(Action::kHardDrop, {keycode::kSpace});
  keys(Action::kRotateCw, {keycode::kUp, keycode::letter('X')});
  keys(Action::kRotateCcw, {keycode::letter('Z'), keycode::kLeftControl, keycode::kRightControl});
  keys(Action::kRotate180, {keycode::letter('A')});
  keys(Action::kHold, {keycode::letter('C'), keycode::kLeftShift, keycode::kRightShift});
  keys(Action::kRestart, {keycode::letter('R')});
  pad(Action::kMoveLeft, {kPadLeft, kPadStickLeft});
  pad(Action::kMoveRight, {kPadRight, kPadStickRight});
  pad(Action::kSoftDrop, {kPadDown, kPadStickDown});
  pad(Action::kHardDrop, {kPadUp});
  pad(Action::kRotateCw, {kPadB});
  pad(Action::kRotateCcw, {kPadA});
  pad(Action::kRotate180, {kPadY});
  pad(Action::kHold, {kPadLeftBumper, kPadRightBumper});
  pad(Action::kRestart, {kPadBack});
  return b;
}

void Bindings::bind_key(Action a, int key) {
  auto& v = keys[static_cast<std::size_t>(a)];
  if (std::find(v.begin(), v.end(), key) == v.end()) v.push_back(key);
}

void Bindings::bind_pad(Action a, int pad_input) {
  auto& v = pad[static_cast<std::size_t>(a)];
  if (std::find(v.begin(), v.end(), pad_input) == v.end()) v.push_back(pad_input);
}

void Bindings::clear(Action a) {
  keys[static_cast<std::size_t>(a)].clear();
  pad[static_cast<std::size_t>(a)].clear();
}

bool Bindings::unbind_last(Action a) {
  auto& p = pad[static_cast<std::size_t>(a)];
  auto& k = keys[static_cast<std::size_t>(a)];
  if (!k.empty()) {
    k.pop_back();
  } else if (!p.empty()) {
    p.pop_back();
  } else {
    return false;
  }
  return true;
}

std::vector<Action> Bindings::others_using(int key, bool on_pad, Action except) const {
  std::vector<Action> out;
  for (Action a : kAllActions) {
    const auto& v = on_pad ? pad_for(a) : keys_for(a);
    if (a != except && std::find(v.begin(), v.end(), key) != v.end()) out.push_back(a);
  }
  return out;
}

std::vector<BindingConflict> binding_conflicts(const Bindings& b) {
  std::vector<BindingConflict> out;
  for (bool pad : {false, true}) {
    std::vector<int> inputs;
    for (Action a : kAllActions) {
      for (int i : pad ? b.pad_for(a) : b.keys_for(a)) inputs.push_back(i);
    }
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    for (int i : inputs) {
      BindingConflict c{pad, i, {}};
      for (Action a : kAllActions) {
        const auto& v = pad ? b.pad_for(a) : b.keys_for(a);
        if (std::find(v.begin(), v.end(), i) != v.end()) c.actions.push_back(a);
      }
      if (c.actions.size() > 1) out.push_back(std::move(c));
    }
  }
  return out;
}

bool HeldInputs::set_key(int key, bool down) {
  if (key < 0 || key >= kKeyCodeLimit) return false;
  keys_[static_cast<std::size_t>(key)] = down;
  return true;
}

void HeldInputs::set_pad(int pad_input, bool down) {
  if (pad_input < 0 || pad_input >= kPadInputCount) return;
  pad_[static_cast<std::size_t>(pad_input)] = down;
}

void HeldInputs::release_all() {
  keys_.reset();
  pad_.reset();
}

bool HeldInputs::action_down(const Bindings& b, Action a) const {
  for (int k : b.keys_for(a)) {
    if (key_down(k)) return true;
  }
  for (int p : b.pad_for(a)) {
    if (pad_down(p)) return true;
  }
  return false;
}

engine::Buttons HeldInputs::buttons(const Bindings& b) const {
  engine::Buttons out = 0;
  for (std::size_t i = 0; i < kGameActionCount; ++i) {
    const Action a = kAllActions[i];
    if (action_down(b, a)) out = static_cast<engine::Buttons>(out | action_button(a));
  }
  return out;
}

}  // namespace sr::client
