#include "common/bot/weights.h"

#include <array>
#include <cstring>

namespace sr::bot {
namespace {

// Shared shape terms: holes are by far the worst thing a board can have, then height near the top.
Weights base() {
  Weights w;
  w.height = -4;
  w.max_height = -10;
  w.top_half = -150;
  w.top_quarter = -600;
  w.holes = -300;
  w.hole_rows = -150;
  w.covered = -20;
  w.bumpiness = -20;
  w.bumpiness_sq = -6;
  w.row_transitions = -8;
  w.col_transitions = -10;
  w.deep_wells = -150;
  w.actions = -3;
  w.soft_drop_ms = -1;
  return w;
}

Weights sprint() {
  Weights w = base();
  w.well_depth = 40;
  w.well_cap = 4;
  w.well_column = {0, 0, 0, 0, 0, 0, 0, 0, 0, 60};
  w.clear = {0, -150, -120, -80, 400};
  w.tspin = {0, 50, 200, 300};
  w.perfect_clear = 1000;
  return w;
}

Weights survival() {
  Weights w = base();
  w.height = -8;
  w.max_height = -20;
  w.top_half = -200;
  w.top_quarter = -800;
  w.holes = -400;
  w.hole_rows = -200;
  w.covered = -30;
  w.bumpiness = -25;
  w.bumpiness_sq = -8;
  w.well_depth = 10;
  w.well_cap = 3;
  w.clear = {0, 60, 120, 180, 320};
  w.tspin = {0, 100, 200, 300};
  w.perfect_clear = 500;
  w.soft_drop_ms = 0;
  return w;
}

Weights score() {
  Weights w = sprint();
  w.tslot = 150;
  w.tspin = {0, 150, 450, 650};
  w.mini = {-50, -100, -50};
  w.b2b_clear = 150;
  w.wasted_t = -60;
  w.combo = 30;
  w.perfect_clear = 2000;
  return w;
}

Weights contest() {
  Weights w = survival();
  w.clear = {0, 200, 260, 320, 380};
  w.tspin = {0, 200, 260, 320};
  w.well_depth = 0;
  w.actions = -6;
  return w;
}

const std::array<WeightsPreset, 4> kPresets = {{
    {"sprint", "fast tetrises from a right-hand well, cheap stacking (sprint)", sprint()},
    {"survival", "low, flat and hole-free; every clear is welcome (marathon, master)", survival()},
    {"score", "tetrises, T-spins and back-to-back for guideline scoring (ultra, endless)", score()},
    {"contest", "lines as fast as possible, small clears preferred (contest scoring)", contest()},
}};

}  // namespace

std::span<const WeightsPreset> weights_presets() { return kPresets; }

std::optional<Weights> weights_by_name(const std::string& name) {
  for (const auto& p : kPresets) {
    if (name == p.name) return p.weights;
  }
  return std::nullopt;
}

const char* default_weights_name(engine::ModeKind mode) {
  switch (mode) {
    case engine::ModeKind::kSprint: return "sprint";
    case engine::ModeKind::kMarathon:
    case engine::ModeKind::kMaster: return "survival";
    case engine::ModeKind::kContest: return "contest";
    case engine::ModeKind::kUltra:
    case engine::ModeKind::kEndless:
    case engine::ModeKind::kCustom: return "score";
  }
  return "survival";
}

}  // namespace sr::bot
