#include <imgui.h>

#include <array>

#include "client/solo/custom_fields.h"
#include "client/solo/rule_labels.h"
#include "client/ui/screens.h"

namespace sr::client {
namespace {

// A Left/Right choice over a rule's words (client/solo/rule_labels.h), indexed by the enum's value.
template <typename E, std::size_t N>
bool enum_choice(Menu& menu, const std::string& label, E& value, const std::array<const char*, N>& names) {
  const std::vector<std::string> options(names.begin(), names.end());
  int i = static_cast<int>(value);
  const bool changed = menu.choice(label, i, options);
  value = static_cast<E>(i);
  return changed;
}

// A microsecond field shown and stepped in milliseconds.
void ms_field(Menu& menu, const std::string& label, std::int32_t& us, int lo_ms, int hi_ms, int step_ms) {
  int ms = us / 1000;
  if (menu.number(label, ms, lo_ms, hi_ms, step_ms, " ms")) us = ms * 1000;
}

}  // namespace

CustomMenu::CustomMenu() : config_(engine::make_custom()), sequence_("TSZIJLO") {}

std::optional<GamePick> CustomMenu::draw(const MenuNav& nav, bool& back) {
  using namespace engine;
  std::optional<GamePick> pick;
  menu_.begin("Custom game", nav, 30.0f);
  menu_.heading("Goal");
  enum_choice(menu_, "Ends after", config_.limit, labels::kLimit);
  if (config_.limit != LimitKind::kNone) {
    int v = static_cast<int>(std::min<std::int64_t>(config_.limit_value, 1'000'000));
    const int step = config_.limit == LimitKind::kTime ? 10 : (config_.limit == LimitKind::kScore ? 1000 : 1);
    if (menu_.number("Limit", v, 1, config_.limit == LimitKind::kTime ? 86'400 : 1'000'000, step)) {
      config_.limit_value = v;
    }
  }
  enum_choice(menu_, "Ranked by", config_.goal, labels::kGoal);
  menu_.heading("Pieces");
  enum_choice(menu_, "Rotation", config_.rotation, labels::kRotation);
  menu_.toggle("Rotate 180", config_.allow_180);
  enum_choice(menu_, "Generator", config_.generator, labels::kGenerator);
  if (config_.generator == GeneratorKind::kFixed) menu_.text("Sequence", sequence_, 10'000);
  menu_.toggle("Hold", config_.hold_enabled);
  int preview = config_.preview;
  if (menu_.number("Next previews", preview, 0, 7, 1)) config_.preview = static_cast<std::uint8_t>(preview);
  menu_.text("Initial board (rows top-down, '/' between)", board_, 40 * 11);
  menu_.heading("Speed");
  enum_choice(menu_, "Gravity", config_.gravity, labels::kGravity);
  menu_.number("Start level", config_.start_level, 1, 30, 1);
  menu_.toggle("Level up", config_.level_up);
  enum_choice(menu_, "Goal system", config_.goal_system, labels::kGoalSystem);
  menu_.heading("Lock down");
  enum_choice(menu_, "Lock down", config_.lock_down, labels::kLockDown);
  ms_field(menu_, "Lock delay", config_.lock_delay_us, 1, 10'000, 50);
  menu_.number("Max lock resets", config_.max_lock_resets, 0, 1000, 1);
  ms_field(menu_, "Ground time cap", config_.ground_time_cap_us, 1, 60'000, 250);
  ms_field(menu_, "ARE (spawn delay)", config_.handling.are_us, 0, 2000, 50);
  ms_field(menu_, "Line clear delay", config_.handling.line_clear_delay_us, 0, 2000, 50);
  menu_.toggle("Initial rotation (IRS)", config_.handling.irs);
  menu_.toggle("Initial hold (IHS)", config_.handling.ihs);
  menu_.heading("Scoring");
  enum_choice(menu_, "Scoring", config_.scoring, labels::kScoring);
  menu_.toggle("All-spin", config_.all_spin);
  ImGui::Separator();
  if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", error_.c_str());
  if (menu_.button("Start")) {
    GameConfig c = config_;
    c.mode = ModeKind::kCustom;
    error_.clear();
    if (c.generator == GeneratorKind::kFixed) {
      if (auto parsed = parse_sequence(sequence_, c.fixed_sequence); !parsed) error_ = parsed.error();
    }
    if (error_.empty()) {
      if (auto parsed = parse_board(board_, c.initial_board); !parsed) error_ = parsed.error();
    }
    if (error_.empty()) {
      if (auto checked = check_config(c); !checked) error_ = checked.error();
    }
    if (error_.empty()) pick = GamePick{c, std::nullopt};
  }
  if (menu_.button("Back")) back = true;
  back = back || menu_.back();
  menu_.end();
  return pick;
}

}  // namespace sr::client
