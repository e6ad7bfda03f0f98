// The replay browser (local replays from the store's index, filtered by mode and player; a server's recent games
// and personal bests with the same filters, downloaded on demand) and the viewer's controls (play/pause, speed, seek
// bar, piece steps, per-racer stats, the verification badge). Boards are drawn by the app's renderer.
//
// Without a mouse: the browser uses ImGui's navigation (arrows / d-pad, Enter or Space / A, Esc / B); the viewer has
// keys of its own (listed on screen): Space or Enter (A) play/pause, Left/Right (d-pad) a piece, Up/Down the speed,
// Page Up/Down (LB/RB) 10 s, Home/End the start and end, Esc (B) back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/replay/replay_list.h"
#include "client/replay/replay_viewer.h"
#include "client/ui/menu.h"
#include "common/protocol/messages.h"

namespace sr::client {

struct BrowserAction {
  enum Kind { kNone, kBack, kOpenFile, kRefresh, kServerList, kDownload, kCopyLink } kind = kNone;
  std::filesystem::path file;     // kOpenFile
  protocol::GameListKind list{};  // kServerList
  std::uint64_t game_id = 0;      // kDownload, kCopyLink
};

// What the browser knows of the server we are connected to.
struct ServerGames {
  std::string server_name;
  const protocol::GameList* list = nullptr;  // the last list it sent, null before any
  bool downloading = false;
  std::string link_note;  // what the last Copy link did ("link copied: http://...", or that there are no pages)
};

class ReplayBrowser {
 public:
  // `server` is null when not connected. A filter change asks for the local list again (kRefresh) and, when a
  // server list is shown, for the server's list with the new filters (kServerList).
  BrowserAction draw(const ReplayListing& local, const ServerGames* server, const std::string& problem,
                     const MenuNav& nav);
  [[nodiscard]] std::optional<engine::ModeKind> mode_filter() const;
  [[nodiscard]] std::string player_filter() const { return player_; }
  [[nodiscard]] bool hide_given_up() const { return hide_given_up_; }
  // The server list shown last (asked for again when a filter changes).
  [[nodiscard]] std::optional<protocol::GameListKind> server_list() const { return server_list_; }

 private:
  int mode_ = 0;  // 0 = every mode
  char player_[25] = "";
  bool hide_given_up_ = false;
  int filter_open_frames_ = 0;  // a filter's list was open a moment ago (its Esc closed it)
  std::optional<protocol::GameListKind> server_list_;
};

enum class ViewerAction { kNone, kBack };

// The viewer's control panel at the bottom of the window, in frame heights (boards are laid out above it).
inline constexpr float kViewerControlRows = 11.0f;

class ViewerControls {
 public:
  ViewerAction draw(ReplayViewer& viewer, const MenuNav& nav);
  [[nodiscard]] std::int64_t last_seek_us() const { return last_seek_us_; }

 private:
  // One plot over the whole game, `w` x `h` at the cursor: PPS (or lines cleared) of every racer, time ticks in
  // seconds, the playback position, and the values under the mouse.
  static void plot(const ReplayViewer& v, bool lines, float w, float h);

  std::int64_t last_seek_us_ = -1;
  int step_racer_ = 0;  // whose pieces the piece steps follow (index into the viewer's games)
};

}  // namespace sr::client
