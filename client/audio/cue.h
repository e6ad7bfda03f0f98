// The sound effects the game plays, one id per distinct sound. An id names a sound, never a file: every sound is
// synthesised at start-up (synth.h). Ids are not stored or sent, so they may be renumbered.
#pragma once

#include <cstdint>

namespace sr::client::audio {

enum class Cue : std::uint8_t {
  kMove = 0,       // the active piece moved sideways (once per update that moved it, however far)
  kRotate,         // the active piece rotated
  kHardDrop,       // a hard drop (it also locks the piece: no kLock with it)
  kLock,           // a piece locked by itself (gravity, soft drop, lock delay)
  kHold,           // a piece went into hold
  kClear1,         // 1..4 lines cleared: kClear1 + lines - 1
  kClear2,         //
  kClear3,         //
  kClear4,         //
  kSpin,           // a full spin (T-spin), with or without lines
  kSpinMini,       // a mini spin
  kBackToBack,     // the clear got the back-to-back bonus
  kPerfectClear,   // the matrix is empty after the clear
  kCountdownTick,  // 3, 2, 1 ...
  kGo,             // ... the game starts
  kFinish,         // the mode's limit was reached
  kPersonalBest,   // a solo result beat the personal best
  kTopOut,         // the game was lost
  kRacerFinished,  // another racer of the race finished
  kCombo1,         // combo steps: kCombo1 + step - 1, each higher than the last (rising)
};

// Combo steps with their own pitch; longer combos repeat the highest.
inline constexpr int kComboSteps = 12;
inline constexpr int kCueCount = static_cast<int>(Cue::kCombo1) + kComboSteps;

// The cue of combo `combo` (Event::combo: 1 for the second clearing piece in a row, ...). combo >= 1.
[[nodiscard]] Cue combo_cue(int combo);
// The cue of `lines` lines cleared, 1..4.
[[nodiscard]] Cue clear_cue(int lines);
// "move", "rotate", ..., "combo 3": for logs and test messages.
[[nodiscard]] const char* cue_name(Cue c);

}  // namespace sr::client::audio
