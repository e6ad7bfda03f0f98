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

}  // namespace sr::engine
