// The menus' own state (app.cpp, app_net.cpp): selections, typed text, the server address. Unlike the screens of a
// game, a race or a replay, these are kept for the whole run on purpose: each menu reopens on the choice last made,
// and the multiplayer menu still holds the address after a connection ends (to connect again).
#pragma once

#include "client/ui/ladder_screen.h"
#include "client/ui/menu.h"
#include "client/ui/net_screens.h"
#include "client/ui/puzzle_screens.h"
#include "client/ui/screens.h"
#include "client/ui/settings_screen.h"

namespace sr::client {

// The main menu and the menus reached from it without a connection.
struct MenuScreens {
  Menu main;
  SoloMenu solo;
  BotMenu bot;
  CustomMenu custom;
  PuzzleMenu puzzles;
  SettingsScreen settings;
};

// The multiplayer menus: the server list (connect or host), the lobby, the room between races, and the contest
// ladder's entrant form (its name and ranked choice kept for the run).
struct NetMenus {
  ServerListScreen server_list;
  LobbyScreen lobby;
  RoomScreen room;
  LadderScreen ladder;
};

}  // namespace sr::client
