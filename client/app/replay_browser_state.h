// The replay browser (replay_views.cpp): its filters, the local listing, the server's list it asked for, the problem
// to show, and where its Back goes. Made when the browser is opened from the main menu or the lobby, kept while a
// replay opened from it is watched (the viewer returns to it), and dropped when its Back is taken, so a problem or
// a server list from an earlier visit never shows in the next.
#pragma once

#include <string>

#include "client/app/app_screen.h"
#include "client/replay/replay_list.h"
#include "client/ui/replay_screens.h"
#include "common/protocol/messages.h"

namespace sr::client {

struct ReplayBrowserState {
  ReplayBrowser browser;
  ReplayListing listing;
  std::string problem;
  std::string link_note;  // "link copied: ..." (or why there is no link) after a server game's Copy link
  protocol::GameList server_games;
  bool server_games_shown = false;  // a list has arrived since the browser asked
  Screen back = Screen::kMain;      // the main menu, or the lobby it was opened from
};

}  // namespace sr::client
