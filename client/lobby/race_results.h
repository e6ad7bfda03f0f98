// The race results table as the player reads it: who finished first, then how everyone else's game ended (topped
// out, did not finish, left, removed) instead of a time that looks like a finish. Pure: the screen draws the rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/protocol/messages.h"

namespace sr::client {

struct ResultRow {
  std::string place;  // "1"; "" for a racer without a rank (see result_rows)
  std::string name;
  std::string outcome;  // "1:09.334", "12,345", "topped out at 0:14.722", "12,345 (topped out)", ...
  std::string lines, pieces, pps, kpp;
  std::string unverified;  // "" for a clean run, else the unverified game time
  bool finished = false;
};

// "topped out", "did not finish" (still playing when the race ended), "left" (disconnected), "removed", "finished",
// "racing".
[[nodiscard]] const char* status_words(protocol::RacerStatus status);

// One row per racer: those who finished first (by place), then everyone else (by place, unranked last). For time
// goals (sprint) only a finish has a place and a time; the others say how their game ended and when. For score and
// lines goals everyone is ranked by the server; the outcome is the score (lines), with how the game ended added for
// those who did not finish.
[[nodiscard]] std::vector<ResultRow> result_rows(const protocol::RaceResults& results, engine::GoalKind goal);

// A stored game's line in a server's game list (protocol::GameSummary, racers by place), by the same rules: `racers`
// names them in order, with a place where result_rows would give one and how the game ended for those who did not
// finish ("1. ada, 2. bob (topped out)"; a game of one racer has no places); `result` is the outcome of the first.
struct GameListRow {
  std::string racers;
  std::string result;
};
[[nodiscard]] GameListRow game_list_row(const protocol::GameSummary& game);

// 247 -> "2.47" (the protocol's x100 fixed point).
[[nodiscard]] std::string x100_text(std::uint32_t x100);

}  // namespace sr::client
