// The golden replay set of tests/data/current (FORMAT.md, "Golden replays"): one per mode, one per rotation system, a
// hold-heavy game, a T-spin game and a three-racer race, played by the scripted players (scripted_player.h).
//
// `stackrace-replay make-goldens tests/data/current` writes them; the tests only read the files. Regenerate after a
// deliberate behaviour change (with a rules version bump), after a class version bump, or while the engine's behaviour
// is still settling. The same set written before RacerResult class version 2 stays in tests/data as fixtures.
#pragma once

#include <string>
#include <vector>

#include "common/replay/replay.h"

namespace sr::replay::sample {

struct Golden {
  std::string file;       // file name under tests/data/current, e.g. "mode_sprint.srr"
  std::string describes;  // one line for humans
  Replay replay;
};

struct GoldenSet {
  std::vector<Golden> goldens;
  // What a golden was meant to show but does not (a sprint that did not finish, a T-spin that did not happen):
  // empty when the set is as designed. make-goldens fails when it is not.
  std::vector<std::string> problems;
};

[[nodiscard]] GoldenSet make_goldens();

// The file of the golden whose JSON export is kept next to it (tests/data/current/<stem>.json).
inline constexpr const char* kJsonGolden = "mode_sprint.srr";

}  // namespace sr::replay::sample
