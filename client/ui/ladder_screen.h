// The "Contest ladder" screen, reached from the lobby (PROTOCOL.md "Contest ladder"): the leaderboard with a Watch
// button for each stored best game, and the form that enters the ladder as a person (entrant name, ranked or
// practice, Play). Mouse, or keyboard and pad through ImGui's navigation like the other multiplayer screens: the
// focus starts on Play, Right reaches Refresh and Back, Down the table's Watch buttons; Esc / B goes back.
// What it shows comes from client/lobby/ladder_board.h; what the player chose is returned for the app to do.
#pragma once

#include <cstdint>
#include <string>

#include "client/lobby/ladder_board.h"
#include "client/ui/menu.h"

namespace sr::client {

struct LadderAction {
  enum Kind { kNone, kBack, kRefresh, kWatch, kPlay } kind = kNone;
  std::uint64_t game_id = 0;  // kWatch
  std::string entrant;        // kPlay: as typed (the app checks it)
  bool ranked = true;         // kPlay
};

// What the app has to say on the screen, beside the board's own state.
struct LadderScreenText {
  std::string server_name;
  std::string problem;       // the entrant form's or the secret file's error, a replay that cannot be shown (red)
  std::string secret_note;   // where a secret the game has just made is kept
  bool downloading = false;  // a replay asked for with Watch is on its way
};

class LadderScreen {
 public:
  // The entrant name the form starts with (the player name), kept once the player has typed another.
  void default_entrant(const std::string& name);
  LadderAction draw(const LadderBoard& board, const LadderScreenText& text, const MenuNav& nav);

 private:
  std::string entrant_;
  bool typed_ = false;
  int kind_ = 0;  // 0 ranked, 1 practice
};

}  // namespace sr::client
