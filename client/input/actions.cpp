#include "client/input/actions.h"

namespace sr::client {
namespace {

struct ActionInfo {
  const char* id;
  const char* label;
  engine::Buttons button;
};

constexpr std::array<ActionInfo, kActionCount> kInfo = {{
    {"move_left", "Move left", engine::button::kMoveLeft},
    {"move_right", "Move right", engine::button::kMoveRight},
    {"soft_drop", "Soft drop", engine::button::kSoftDrop},
    {"hard_drop", "Hard drop", engine::button::kHardDrop},
    {"rotate_cw", "Rotate clockwise", engine::button::kRotateCw},
    {"rotate_ccw", "Rotate counter-clockwise", engine::button::kRotateCcw},
    {"rotate_180", "Rotate 180", engine::button::kRotate180},
    {"hold", "Hold", engine::button::kHold},
    {"restart", "Restart", 0},
}};

const ActionInfo& info(Action a) { return kInfo[static_cast<std::size_t>(a)]; }

}  // namespace

const char* action_id(Action a) { return info(a).id; }
const char* action_label(Action a) { return info(a).label; }
engine::Buttons action_button(Action a) { return info(a).button; }

std::optional<Action> action_from_id(std::string_view id) {
  for (Action a : kAllActions) {
    if (id == info(a).id) return a;
  }
  return std::nullopt;
}

}  // namespace sr::client
