// `stackrace-bot --server ... --recorded DIR`: the load generator. Racers that play games recorded beforehand instead
// of thinking: in a race with seed S each sends, at their recorded times (on the 1 ms grid, heartbeats between), the
// changes of a game recorded with seed S and the same rules (its handling included; bot/recorded_games.h). They keep
// no game of their own and read nothing of the other racers' (relayed inputs, live statistics: nobody watches their
// screens), and all share one ENet host, so one process drives thousands of them for little more than their network
// traffic. The server re-simulates every one of them as always. Each racer has its key (bot_key()) and signs a
// recorded game that ended by the engine once it has sent all of it (RunSigned, PROTOCOL.md "Run signatures"), so the
// server checks a signature per racer and race as it does for the game's players. The server must hand out known seeds
// (`stackrace-server --race-seeds FIRST`) and the games be recorded for them (`stackrace-bot --mode sprint --seed FIRST
// --games N --out DIR/`); tests/load/load_test.sh does both. Prints its own lateness (how late it sent its changes):
// while that stays small, what is measured of the server is the server's.
#pragma once

#include "bot/online_runner.h"
#include "bot/recorded_games.h"

namespace sr::botcli {

// Rooms of options.room_size racers each race one race of options.create. Exit code as run_online's (2: could not
// read the games, connect or join; 1: a race failed, had no recorded game, or timed out).
int run_recorded(const OnlineOptions& options);

}  // namespace sr::botcli
