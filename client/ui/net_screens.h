// The multiplayer screens (ImGui, mouse first; Esc goes back): the server list with direct connect and "Host",
// the lobby (rooms, create, join by code, chat) and the room (members, ready, start, kick, settings, chat).
// Each draws from the session's latest state and sends requests itself; what the app must do is returned.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "client/net/session.h"
#include "client/settings/settings.h"
#include "client/ui/menu.h"

namespace sr::client {

// The room options the server knows, as edited on the create-room and room-settings forms.
struct RoomForm {
  char name[33] = "room";
  int mode = 0;  // 0 sprint, 1 ultra
  int lines = 40;
  int seconds = 120;
  int max_racers = 8;
  bool is_private = false;
  bool auto_start = true;

  [[nodiscard]] protocol::RoomSettings to_settings() const;
  void from_settings(const protocol::RoomSettings& s);
};

struct ServerListAction {
  enum Kind { kNone, kBack, kConnect, kHost } kind = kNone;
  std::string address;     // kConnect: as typed ("host:port")
  std::uint16_t port = 0;  // kHost
};

class ServerListScreen {
 public:
  // `settings.servers` is edited here (the app saves the settings when the list changed).
  ServerListAction draw(Settings& settings, bool& settings_changed, const std::deque<std::string>& messages,
                        const MenuNav& nav);

 private:
  char name_[25] = "";
  char address_[128] = "127.0.0.1:7878";
  char saved_name_[33] = "";
  int host_port_ = 7878;
  int selected_ = -1;
};

enum class LobbyAction { kNone, kDisconnect };

class LobbyScreen {
 public:
  LobbyAction draw(net::Session& session, const std::deque<std::string>& messages, const MenuNav& nav, double now_s);

 private:
  RoomForm form_;
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
  char chat_[201] = "";
};

// Chat lines and recent server messages, then an input line; sends on Enter.
void draw_chat(net::Session& session, char* buffer, std::size_t size, const std::deque<std::string>& messages);

}  // namespace sr::client
