// The words the menus show for each rule's values (the custom game's menu and the room form), indexed by the engine
// enum's value like replay::names' tables, which they must match in length (checked below): one table per rule, so
// the two screens cannot come to say different things.
#pragma once

#include <array>

#include "common/replay/names.h"

namespace sr::client::labels {

inline constexpr std::array<const char*, 7> kMode = {"sprint",  "ultra",   "marathon", "master",
                                                     "endless", "contest", "custom"};
inline constexpr std::array<const char*, 6> kLimit = {"nothing", "time (s)", "pieces", "lines", "level", "score"};
inline constexpr std::array<const char*, 3> kGoal = {"time", "score", "lines"};
inline constexpr std::array<const char*, 4> kRotation = {"SRS (SRS+ 180 kicks)", "SRS, 180 without kicks",
                                                         "classic (no kicks)", "Ocular (tetrs)"};
inline constexpr std::array<const char*, 4> kGenerator = {"7-bag", "recency", "uniform", "fixed sequence"};
inline constexpr std::array<const char*, 2> kGravity = {"level table", "20G"};
inline constexpr std::array<const char*, 2> kGoalSystem = {"fixed (10 lines)", "variable (5 x level)"};
inline constexpr std::array<const char*, 4> kLockDown = {"extended", "infinite", "classic", "timer"};
inline constexpr std::array<const char*, 3> kScoring = {"guideline", "contest", "tetrs"};

static_assert(kMode.size() == replay::names::kMode.size());
static_assert(kLimit.size() == replay::names::kLimit.size());
static_assert(kGoal.size() == replay::names::kGoal.size());
static_assert(kRotation.size() == replay::names::kRotation.size());
static_assert(kGenerator.size() == replay::names::kGenerator.size());
static_assert(kGravity.size() == replay::names::kGravity.size());
static_assert(kGoalSystem.size() == replay::names::kGoalSystem.size());
static_assert(kLockDown.size() == replay::names::kLockDown.size());
static_assert(kScoring.size() == replay::names::kScoring.size());

}  // namespace sr::client::labels
