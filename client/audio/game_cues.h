// Which sounds a game makes: a pure mapping from what the engine reported to sound cues, shared by the solo game and
// our own game of a race, and the countdown's beeps. No clock and no audio device: tests give exact inputs and
// expect exact cue lists.
#pragma once

#include <climits>
#include <optional>
#include <span>
#include <vector>

#include "client/audio/cue.h"
#include "common/engine/events.h"
#include "common/engine/game.h"

namespace sr::client::audio {

// Appends the cues of one feeding of a game (one Game::update or RacerRun::press/advance) to `out`, in the order of
// the events, given the active piece before and after it:
// - kMove / kRotate when the same piece is still out and moved sideways / turned (a turn that kicked is a rotate);
//   one of each at most per feeding, however far it went (an ARR of 0 is one move);
// - kHardDrop for a hard drop (and no kLock for the lock it causes), kLock for other locks, kHold;
// - per clear: the lines' cue (kClear1..4), then kSpin or kSpinMini, kBackToBack, the combo step, kPerfectClear;
// - kFinish when the mode's limit was reached, kTopOut when the game was lost.
// Spawns and level-ups make no sound.
void append_cues(const std::optional<engine::ActivePiece>& before, std::span<const engine::Event> events,
                 const std::optional<engine::ActivePiece>& after, std::vector<Cue>& out);

// The countdown's beeps: a tick as each whole second begins (3, 2, 1 for a 3 s countdown) and kGo when it reaches
// zero. Told the time left every frame; each beep sounds once, in the first frame that reaches it.
class CountdownBeeps {
 public:
  // `left_s`: seconds of countdown left (0 or less once the game is on). The cue due now, if any.
  [[nodiscard]] std::optional<Cue> at(double left_s);

 private:
  int shown_ = INT_MAX;  // the whole seconds left at the last call (0 once the game is on)
};

}  // namespace sr::client::audio
