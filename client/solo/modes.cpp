#include "client/solo/modes.h"

namespace sr::client {

using engine::GameConfig;
using engine::ModeKind;

std::vector<ModeChoice> mode_presets(ModeKind mode) {
  std::vector<ModeChoice> out;
  switch (mode) {
    case ModeKind::kSprint:
      for (int lines : {20, 40, 100, 1000}) {
        out.push_back({"Sprint " + std::to_string(lines) + " lines", engine::make_sprint(lines)});
      }
      break;
    case ModeKind::kUltra:
      for (int minutes : {1, 2, 3}) {
        out.push_back({"Ultra " + std::to_string(minutes) + (minutes == 1 ? " minute" : " minutes"),
                       engine::make_ultra(minutes * 60)});
      }
      break;
    case ModeKind::kMarathon:
      out.push_back({"Marathon (fixed goal)", engine::make_marathon(engine::GoalSystem::kFixed)});
      out.push_back({"Marathon (variable goal)", engine::make_marathon(engine::GoalSystem::kVariable)});
      break;
    case ModeKind::kMaster: out.push_back({"Master 100 lines", engine::make_master(100)}); break;
    case ModeKind::kEndless: out.push_back({"Endless", engine::make_endless()}); break;
    case ModeKind::kContest: out.push_back({"Contest (90 seconds)", engine::make_contest()}); break;
    case ModeKind::kCustom: break;
  }
  return out;
}

sr::Result<GameConfig, std::string> config_for_cli(const std::string& name, std::optional<std::int64_t> limit) {
  const auto mode = engine::mode_from_name(name);
  if (!mode) {
    return sr::fail("unknown mode \"" + name + "\" (sprint, ultra, marathon, master, endless, contest, custom)");
  }
  GameConfig c;
  switch (*mode) {
    case ModeKind::kSprint: c = engine::make_sprint(limit.value_or(40)); break;
    case ModeKind::kUltra: c = engine::make_ultra(limit.value_or(120)); break;
    case ModeKind::kMarathon: c = engine::make_marathon(); break;
    case ModeKind::kMaster: c = engine::make_master(limit.value_or(100)); break;
    case ModeKind::kEndless: c = engine::make_endless(); break;
    case ModeKind::kContest: c = engine::make_contest(); break;
    case ModeKind::kCustom: c = engine::make_custom(); break;
  }
  if (auto checked = engine::check_config(c); !checked) return sr::fail("bad --limit: " + checked.error());
  return c;
}

std::string mode_label(const GameConfig& c) {
  std::string out = engine::mode_name(c.mode);
  switch (c.mode) {
    case ModeKind::kSprint:
    case ModeKind::kUltra:
    case ModeKind::kMaster: out += " " + std::to_string(c.limit_value); break;
    case ModeKind::kMarathon:
      if (c.goal_system == engine::GoalSystem::kVariable) out += " variable";
      break;
    default: break;
  }
  return out;
}

}  // namespace sr::client
