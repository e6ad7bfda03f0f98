// stackrace-bot --external CMD: a program speaking the Tetris Bot Protocol (TBP) chooses the placements; the bot
// finds the key presses that reach them by searching the engine's states (common/bot/reach.h, Bot::set_targets).
//
// The conversation is tbp_session.h's. The game's clock stands still while the bot thinks. The suggestion's moves
// are tried in the bot's order of preference, and the most preferred one that can be reached is played; if none can
// be reached, the bot has forfeited that game.
#pragma once

#include <iosfwd>
#include <string>

#include "bot/solo_runner.h"
#include "bot/tbp_session.h"

namespace sr::botcli {

// Plays options.games games with the external bot. Prints the same summary lines as run_solo (decision times are
// wall time, the external bot's thinking included), and a line with the CPU time spent finding key presses.
//
// A bot that does not answer a suggest within answer_ms loses that game (result=slow-answer, counted as a forfeit):
// the delay is reported on `err`, the bot is restarted, and the batch goes on. Returns 0 when every game ran, 1 when
// the bot could not be started (or restarted), died, or broke the protocol.
int run_external(const SoloOptions& options, const ExternalOptions& external, std::ostream& out, std::ostream& err);

}  // namespace sr::botcli
