// One change of a player's button state: the one input type of the whole project. A log of these, with the rules
// version, a GameConfig and a seed, defines a game (docs/ARCHITECTURE.md, "The simulation contract"). The protocol
// streams them, the referee and every client feed them to RacerRuns, replays store them and bots produce them: all
// as this type, never copied into a look-alike.
#pragma once

#include "common/engine/types.h"

namespace sr::engine {

struct InputChange {
  // Game time in microseconds since the game started, >= 0; non-decreasing along a log.
  TimeUs time_us = 0;
  // The full held-button state from time_us on (not a delta): only bits of button::kAll. In a log, each entry
  // differs from the one before it (0 before the first): a "change" to the buttons already held is no change.
  Buttons buttons = 0;
  bool operator==(const InputChange&) const = default;
};

// The grid every change is stamped on: 1 ms. The engine takes any microsecond; stamps on this grid keep replays small
// (the input log codec stores deltas in units of their gcd, common/replay/input_log_codec.h).
inline constexpr TimeUs kInputGridUs = 1000;

// The stamp of a button change that happened at game time `event_us`: the grid point at or before it (floor, also
// for negative times: -1 gives -1000). The one stamping rule of the project: solo games (client/input/game_clock.h),
// the game's races (client/app) and stackrace-bot all stamp through it, so a change is never stamped later than it
// happened, at most 999 us earlier. The referee asks only that stamps never go back and that a racer's game clock
// does not run ahead of real time; rounding down never puts a clock ahead. Replays store any stamp exactly; a replay
// made with another rule (solo games rounded to the nearest millisecond before) plays and verifies the same.
// Precondition: event_us > INT64_MIN + kInputGridUs (any real time).
[[nodiscard]] constexpr TimeUs stamp_on_grid(TimeUs event_us) {
  const TimeUs into = event_us % kInputGridUs;  // -999..999, the sign of event_us
  return event_us - (into < 0 ? into + kInputGridUs : into);
}

}  // namespace sr::engine
