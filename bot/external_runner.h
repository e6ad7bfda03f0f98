// stackrace-bot --external CMD: a program speaking the Tetris Bot Protocol (TBP) chooses the placements; the bot
// finds the key presses that reach them by searching the engine's states (common/bot/reach.h, Bot::set_targets).
//
// Session: info -> rules -> ready, then per game: start, and per piece: play (the previous move, as played),
// new_piece (each piece that came into view), suggest -> suggestion; stop after each game, quit at the end. The
// suggestion's moves are tried in the bot's order of preference, and the most preferred one that can be reached is
// played; if none can be reached, the bot has forfeited that game. The rules and start messages carry the
// randomizer extension (tbp_messages.h).
#pragma once

#include <iosfwd>
#include <string>

#include "bot/solo_runner.h"

namespace sr::botcli {

// Milliseconds the external bot gets to send info and ready, and by default to answer each suggest.
inline constexpr int kTbpHandshakeMs = 10'000;
inline constexpr int kTbpSuggestMs = 10'000;

struct ExternalOptions {
  std::string command;            // run with /bin/sh -c
  int think_ms = 0;               // 0..60,000: wall time the bot gets to think between a new position and suggest
  int answer_ms = kTbpSuggestMs;  // 1..600,000: how long a suggestion may take before the game is given up
};

// Plays options.games games with the external bot. Prints the same summary lines as run_solo (decision times are
// wall time, the external bot's thinking included), and a line with the CPU time spent finding key presses.
//
// A bot that does not answer a suggest within answer_ms loses that game (result=slow-answer, counted as a forfeit):
// the delay is reported on `err`, the bot is restarted, and the batch goes on. Returns 0 when every game ran, 1 when
// the bot could not be started (or restarted), died, or broke the protocol.
int run_external(const SoloOptions& options, const ExternalOptions& external, std::ostream& out, std::ostream& err);

}  // namespace sr::botcli
