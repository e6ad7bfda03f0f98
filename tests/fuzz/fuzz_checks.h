// What every fuzz target checks about a replay that decoded: it is valid, it survives both codecs unchanged, and
// (when small enough to play quickly) the verifier can play it without crashing.
#pragma once

#include "common/replay/replay.h"

namespace sr::replay::fuzz {

// Aborts (a fuzzer finding) when a property does not hold.
void check_decoded(const Replay& replay);

}  // namespace sr::replay::fuzz
