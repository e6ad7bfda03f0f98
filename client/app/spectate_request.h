// --spectate ROOM (net_view.cpp): looking for a public room by name on the server we joined, asking for the room list
// every half second until the room is there (the bots may still be creating it) or the time is up. Made when the
// server first welcomes us and kept for the whole run: like --room and --auto-ready, the command line acts once.
#pragma once

namespace sr::client {

struct SpectateRequest {
  double until_s = 0;      // give up then
  double next_list_s = 0;  // ask for the room list again then
  bool done = false;       // joined, or gave up
};

}  // namespace sr::client
