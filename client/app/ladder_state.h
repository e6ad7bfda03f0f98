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
  std::string problem;      // why Play did not send (the entrant name, the secret file), or Watch cannot show
  std::string secret_note;  // where the secret the game has just made is kept (new_secret_text)
  // The secret file made for the entry waiting for the server's answer: removed again if the server refuses it before
  // claiming the name (a name held by another secret keeps no file of ours, and the screen says no more about it).
  std::filesystem::path made_secret;
};

}  // namespace sr::client
