// The replay browser (local replays from the store's index, filtered by mode and player; a server's recent games
// and personal bests, downloaded on demand) and the viewer's controls (play/pause, speed, seek bar, piece steps,
// per-racer stats, the verification badge). Boards are drawn by the app's renderer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/game/replay_list.h"
#include "client/game/replay_viewer.h"
#include "client/ui/menu.h"
#include "common/protocol/messages.h"

namespace sr::client {

struct BrowserAction {
  enum Kind { kNone, kBack, kOpenFile, kRefresh, kServerList, kDownload } kind = kNone;
  std::filesystem::path file;     // kOpenFile
  protocol::GameListKind list{};  // kServerList
  std::uint64_t game_id = 0;      // kDownload
};

class ReplayBrowser {
 public:
  // `server_games` is the last list a server sent (nullptr when not connected).
  BrowserAction draw(const ReplayListing& local, const std::filesystem::path& replay_dir,
                     const protocol::GameList* server_games, const std::string& problem, const MenuNav& nav);
  [[nodiscard]] std::optional<engine::ModeKind> mode_filter() const;
  [[nodiscard]] std::string player_filter() const { return player_; }

 private:
  int mode_ = 0;  // 0 = every mode
  char player_[25] = "";
};

enum class ViewerAction { kNone, kBack };

// The viewer's control panel at the bottom of the window, in frame heights (boards are laid out above it).
inline constexpr float kViewerControlRows = 5.5f;

class ViewerControls {
 public:
  ViewerAction draw(ReplayViewer& viewer, const MenuNav& nav);
  [[nodiscard]] std::int64_t last_seek_us() const { return last_seek_us_; }

 private:
  std::int64_t last_seek_us_ = -1;
};

}  // namespace sr::client
