#include "common/replay/detail/schema.h"

namespace sr::replay::detail {

engine::GameConfig preset_for(engine::ModeKind mode) {
  switch (mode) {
    case engine::ModeKind::kSprint: return engine::make_sprint();
    case engine::ModeKind::kUltra: return engine::make_ultra();
    case engine::ModeKind::kMarathon: return engine::make_marathon();
    case engine::ModeKind::kMaster: return engine::make_master();
    case engine::ModeKind::kEndless: return engine::make_endless();
    case engine::ModeKind::kContest: return engine::make_contest();
    case engine::ModeKind::kCustom: return engine::make_custom();
  }
  return engine::make_custom();
}

}  // namespace sr::replay::detail
