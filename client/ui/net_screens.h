// The multiplayer screens (ImGui windows; mouse, or keyboard and pad through ImGui's navigation: arrows / d-pad move,
// Enter or Space / A press, Esc / B goes back): the server list with direct connect, "Host" (public or LAN-only)
// and "Browse servers", the lobby (rooms,
// create with every room option, join by code, chat) and the room (members, ready, start, kick, settings, chat).
// Each draws from the session's latest state and sends requests itself; what the app must do is returned.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "client/lobby/room_form.h"
#include "client/settings/settings.h"
#include "client/ui/menu.h"
#include "net/session.h"

namespace sr::client {

struct ServerListAction {
  enum Kind { kNone, kBack, kConnect, kHost, kBrowse } kind = kNone;
  std::string address;     // kConnect: as typed ("host:port")
  std::uint16_t port = 0;  // kHost
};

class ServerListScreen {
 public:
  // `settings.servers` is edited here (the app saves the settings when the list changed).
  ServerListAction draw(Settings& settings, bool& settings_changed, const std::deque<std::string>& messages,
                        const MenuNav& nav);
  // The address field's text (the server last connected to).
  void set_address(const std::string& address);
  // Gives the keyboard (and pad) to the Connect button on the next frame no modal notice covers: after an attempt
  // failed or was cancelled, Enter tries again.
  void focus_connect() { focus_connect_ = true; }

 private:
  char name_[25] = "";
  char address_[128] = "127.0.0.1:7878";
  char saved_name_[33] = "";
  int host_port_ = 7878;
  int selected_ = -1;
  bool focus_connect_ = false;
};

enum class LobbyAction { kNone, kDisconnect, kReplays, kLadder };

class LobbyScreen {
 public:
  LobbyAction draw(net::Session& session, const std::deque<std::string>& messages, const MenuNav& nav, double now_s);

 private:
  RoomForm form_;
  int creator_role_ = 0;  // 0 race, 1 watch
  std::string form_error_;
  char code_[16] = "";
  char chat_[201] = "";
  double last_refresh_s_ = -1e9;
};

class RoomScreen {
 public:
  void draw(net::Session& session, const std::deque<std::string>& messages, const MenuNav& nav);

 private:
  RoomForm form_;
  std::uint32_t form_room_ = 0;
  protocol::RoomSettings shown_;  // the settings form_ was last filled from
  std::string form_error_;
  char chat_[201] = "";
};

// Every room option as ImGui widgets (the mode's own parameters, or every rule of a custom room); disabled when not
// `editable`. True when something changed.
bool draw_room_form(RoomForm& form, bool editable);

// Chat lines and recent server messages, then an input line; sends on Enter.
void draw_chat(net::Session& session, char* buffer, std::size_t size, const std::deque<std::string>& messages);

}  // namespace sr::client
