#include "client/audio/cue.h"

#include <algorithm>
#include <cassert>

namespace sr::client::audio {

Cue combo_cue(int combo) {
  assert(combo >= 1);
  return static_cast<Cue>(static_cast<int>(Cue::kCombo1) + std::clamp(combo, 1, kComboSteps) - 1);
}

Cue clear_cue(int lines) {
  assert(lines >= 1 && lines <= 4);
  return static_cast<Cue>(static_cast<int>(Cue::kClear1) + std::clamp(lines, 1, 4) - 1);
}

const char* cue_name(Cue c) {
  static const char* const kNames[kCueCount] = {
      "move",     "rotate",   "hard drop",     "lock",      "hold",           "single",        "double",
      "triple",   "tetris",   "spin",          "spin mini", "back-to-back",   "perfect clear", "countdown tick",
      "go",       "finish",   "personal best", "top-out",   "racer finished", "combo 1",       "combo 2",
      "combo 3",  "combo 4",  "combo 5",       "combo 6",   "combo 7",        "combo 8",       "combo 9",
      "combo 10", "combo 11", "combo 12+"};
  const auto i = static_cast<int>(c);
  return i >= 0 && i < kCueCount ? kNames[i] : "?";
}

}  // namespace sr::client::audio
