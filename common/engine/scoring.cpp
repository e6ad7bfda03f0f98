#include "common/engine/scoring.h"

#include <array>

namespace sr::engine {
namespace {

// (0.8 - (L-1) * 0.007)^(L-1) seconds, rounded to microseconds offline; never evaluated at run time.
constexpr std::array<std::int32_t, 20> kGravityUs = {
    1'000'000, 793'000, 617'796, 472'729, 355'197, 262'004, 189'677, 134'735, 93'882, 64'152,
    42'976,    28'218,  18'153,  11'439,  7'059,   4'264,   2'520,   1'457,   824,    455,
};

std::int64_t guideline_base(int lines, SpinKind spin) {
  constexpr std::int64_t kPlain[5] = {0, 100, 300, 500, 800};
  constexpr std::int64_t kMini[5] = {100, 200, 400, 0, 0};
  constexpr std::int64_t kFull[5] = {400, 800, 1200, 1600, 0};
  switch (spin) {
    case SpinKind::kNone: return kPlain[lines];
    case SpinKind::kMini: return lines <= 2 ? kMini[lines] : kPlain[lines];
    case SpinKind::kFull: return lines <= 3 ? kFull[lines] : kPlain[lines];
  }
  return 0;
}

}  // namespace

std::int32_t gravity_us_per_row(std::int32_t level) {
  if (level < 1) level = 1;
  if (level > 20) level = 20;
  return kGravityUs[static_cast<std::size_t>(level - 1)];
}

std::int64_t clear_points(Scoring scoring, const ClearFacts& f) {
  const std::int64_t level = f.level;
  switch (scoring) {
    case Scoring::kGuideline: {
      std::int64_t points = guideline_base(f.lines, f.spin) * level;
      if (f.b2b && f.lines > 0) points = points * 3 / 2;
      if (f.combo >= 1) points += 50 * static_cast<std::int64_t>(f.combo) * level;
      if (f.perfect_clear && f.lines > 0) {
        constexpr std::int64_t kPc[5] = {0, 800, 1200, 1800, 2000};
        points += (f.lines == 4 && f.b2b ? 3200 : kPc[f.lines]) * level;
      }
      return points;
    }
    case Scoring::kContest: {
      constexpr std::int64_t kContest[5] = {0, 800, 1200, 1800, 2000};
      return kContest[f.lines] * level;
    }
    case Scoring::kTetrs: {
      if (f.lines == 0) return 0;
      const std::int64_t b2b = f.tetrs_b2b > 1 ? static_cast<std::int64_t>(f.tetrs_b2b) * f.tetrs_b2b : 1;
      return 10 * f.lines * f.lines * (f.spin != SpinKind::kNone ? 4 : 1) * (f.perfect_clear ? 16 : 1) *
             (static_cast<std::int64_t>(f.combo) + 1) * b2b;
    }
  }
  return 0;
}

std::int32_t lines_to_pass_level(GoalSystem goals, std::int32_t level) {
  return goals == GoalSystem::kFixed ? 10 : 5 * level;
}

}  // namespace sr::engine
