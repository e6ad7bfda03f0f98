// The contest ladder screen (ladder_view.cpp): the leaderboard and what the screen has to say. Made when the screen is
// opened from the lobby and kept while a game entered from it is played and while a best game is watched (both come
// back to it), dropped by its Back and when the connection ends, so no board or error of a visit shows in the next.
#pragma once

#include <filesystem>
#include <string>

#include "client/lobby/ladder_board.h"

namespace sr::client {

struct LadderState {
  LadderBoard board;
  std::string problem;      // why Play did not send (the entrant name, an old secret file), or Watch cannot show
  std::string secret_note;  // an old secret file sent with the entry (legacy_secret_text)
};

}  // namespace sr::client
