// What a key or pad button can be bound to: the eight game buttons, plus restart.
// Names are stored in settings.json: never rename.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

#include "common/engine/types.h"

namespace sr::client {

enum class Action : std::uint8_t {
  kMoveLeft = 0,
  kMoveRight,
  kSoftDrop,
  kHardDrop,
  kRotateCw,
  kRotateCcw,
  kRotate180,
  kHold,
  kRestart,
};
inline constexpr std::size_t kActionCount = 9;
inline constexpr std::size_t kGameActionCount = 8;  // the first eight map to engine buttons

inline constexpr std::array<Action, kActionCount> kAllActions = {
    Action::kMoveLeft,  Action::kMoveRight, Action::kSoftDrop, Action::kHardDrop, Action::kRotateCw,
    Action::kRotateCcw, Action::kRotate180, Action::kHold,     Action::kRestart,
};

// "move_left", "move_right", "soft_drop", "hard_drop", "rotate_cw", "rotate_ccw", "rotate_180", "hold", "restart".
[[nodiscard]] const char* action_id(Action a);
// "Move left", ... for screens.
[[nodiscard]] const char* action_label(Action a);
[[nodiscard]] std::optional<Action> action_from_id(std::string_view id);
// The engine button of a game action, 0 for restart.
[[nodiscard]] engine::Buttons action_button(Action a);

}  // namespace sr::client
