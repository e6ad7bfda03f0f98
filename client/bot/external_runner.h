// stackrace-bot --external CMD: a program speaking the Tetris Bot Protocol (TBP) chooses the placements; our input
// generation turns each into key presses, exactly as for the built-in bot.
#pragma once

#include <iosfwd>
#include <string>

#include "client/bot/solo_runner.h"

namespace sr::botcli {

// Plays options.games games with the external bot `command` (run with /bin/sh -c). Prints the same summary lines
// as run_solo. Returns 0 when every game ran, 1 when the bot could not be started or broke the protocol.
int run_external(const SoloOptions& options, const std::string& command, std::ostream& out, std::ostream& err);

}  // namespace sr::botcli
