// The server browser's list (Multiplayer > Browse): every server the directories list, every server that answered on
// the local network, and the player's saved and recent servers, one row per address, with what its latest answer
// said (common/protocol/DIRECTORY.md, "The info JSON"; net::ServerInfo) and the ping the game measured. Sorting and
// filtering live here so that they are tested without a window; the screen (client/app/browse_view.h) only draws the
// rows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "net/discovery/server_info.h"
#include "net/host_port.h"

namespace sr::client {

struct BrowserEntry {
  std::string host;  // a name or an IP address (IPv6 without brackets)
  std::uint16_t port = 0;
  std::optional<net::ServerInfo> facts;  // none yet: nothing has answered or listed it
  std::optional<double> ping_ms;         // measured by the game; none: no answer (yet)
  bool listed = false;                   // by a directory
  bool on_lan = false;                   // answered LAN discovery
  bool favourite = false;                // a saved server (Settings::servers)
  bool recent = false;                   // in Settings::recent_servers
  std::string saved_name;                // the favourite's name on the saved list

  // "host:port", with brackets around an IPv6 address: what the game connects to.
  [[nodiscard]] std::string address() const;
  // The name to show: the server's own, else the saved one, else the address.
  [[nodiscard]] std::string shown_name() const;
  // The modes of its rooms, each once, in the rooms' order ("sprint, ultra"); "" without rooms.
  [[nodiscard]] std::string modes() const;
  // Why the game cannot join it ("version 6; this game speaks 7"), or "" when it can (or nothing is known yet).
  [[nodiscard]] std::string cannot_join(std::uint32_t our_protocol) const;
};

enum class BrowserColumn { kName, kPlayers, kRooms, kModes, kPing, kVersion, kAddress };

struct BrowserView {
  std::string filter;        // case-insensitive, matched against name, address, modes and room names
  bool has_players = false;  // only servers with someone on them
  bool saved_only = false;   // only favourites and recent servers
  BrowserColumn sort = BrowserColumn::kPing;
  bool descending = false;
};

class ServerBrowser {
 public:
  // The entry for host:port, made (empty) when new.
  BrowserEntry& at(const std::string& host, std::uint16_t port);
  // A directory listed this server with these facts (its own later answers win: they are fresher).
  void listed(const std::string& host, std::uint16_t port, const net::ServerInfo& facts);
  // The server answered a query (directly or to LAN discovery) after `ping_ms`.
  void answered(const std::string& host, std::uint16_t port, const net::ServerInfo& facts, double ping_ms, bool on_lan);
  // Marks the saved and recent servers (unparsable addresses are left out). Favourites keep their saved name.
  void mark_saved(const std::vector<std::pair<std::string, std::string>>& saved_name_and_address,
                  const std::vector<std::string>& recent, std::uint16_t default_port);
  // Forgets every row's answers, pings and listings (a refresh); favourites and recents stay as rows.
  void clear_answers();
  // The rows to show: filtered and sorted by `view`. Rows with nothing known for the column (no ping, no answer) sort
  // after every known one whatever the direction. Stable: equal rows keep the order they were added in.
  [[nodiscard]] std::vector<const BrowserEntry*> rows(const BrowserView& view) const;
  [[nodiscard]] const std::vector<BrowserEntry>& entries() const { return entries_; }

 private:
  std::vector<BrowserEntry> entries_;
};

}  // namespace sr::client
