#include "client/platform/pad_state.h"

namespace sr::client {

std::vector<PadChange> Gamepads::update(std::uint32_t bits, bool connected) {
  connected_ = connected;
  const std::bitset<kPadInputCount> now(connected ? bits : 0);
  std::vector<PadChange> changes;
  for (int i = 0; i < kPadInputCount; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (now[u] != down_[u]) changes.push_back({i, now[u]});
  }
  pressed_ |= now & ~down_;
  down_ = now;
  return changes;
}

bool Gamepads::pressed(int input) const {
  return input >= 0 && input < kPadInputCount && pressed_[static_cast<std::size_t>(input)];
}

bool Gamepads::down(int input) const {
  return input >= 0 && input < kPadInputCount && down_[static_cast<std::size_t>(input)];
}

}  // namespace sr::client
