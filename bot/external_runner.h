// stackrace-bot --external CMD: a program speaking the Tetris Bot Protocol (TBP) chooses the placements; the bot's
// own input generation turns each into key presses (bot.h Bot::set_targets), exactly as for its own choices.
//
// Session: info -> rules -> ready, then per game: start, and per piece: play (the previous move), new_piece (each
// piece that came into view), suggest -> suggestion; stop after each game, quit at the end. The suggestion's moves
// are tried in the bot's order of preference; if none can be reached, the bot has forfeited that game.
#pragma once

#include <iosfwd>
#include <string>

#include "bot/solo_runner.h"

namespace sr::botcli {

// Milliseconds the external bot gets to send info and ready, and to answer each suggest.
inline constexpr int kTbpHandshakeMs = 10'000;
inline constexpr int kTbpSuggestMs = 10'000;

// Plays options.games games with the external bot `command` (run with /bin/sh -c). Prints the same summary lines
// as run_solo (decision times are wall time, the external bot's thinking included). Returns 0 when every game ran,
// 1 when the bot could not be started, died, timed out or broke the protocol.
int run_external(const SoloOptions& options, const std::string& command, std::ostream& out, std::ostream& err);

}  // namespace sr::botcli
