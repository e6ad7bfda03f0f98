// The multiplayer menus' own state (app_net.cpp, app_ladder.cpp): selections, typed text, the server address. Unlike
// the screens of a race, these are kept for the whole run on purpose: each menu reopens on the choice last made, and
// the multiplayer menu still holds the address after a connection ends (to connect again).
#pragma once

#include "client/ui/ladder_screen.h"
#include "client/ui/net_screens.h"

namespace sr::client {

// The multiplayer menus: the server list (connect or host), the lobby, the room between races, and the contest
// ladder's entrant form (its name and ranked choice kept for the run).
struct NetMenus {
  ServerListScreen server_list;
  LobbyScreen lobby;
  RoomScreen room;
  LadderScreen ladder;
};

}  // namespace sr::client
