// The replay browser and viewer in the app: listing, opening files (also from the command line), downloads from
// the server, and the viewer's boards.
#include "client/app/app.h"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include "client/ui/hud.h"
#include "common/replay/codec.h"

namespace sr::client {

void App::open_replay_browser() {
  if (screen_ == Screen::kMain || screen_ == Screen::kNet) browser_back_ = screen_;
  listing_ = list_local_replays(paths_.replay_dir(), browser_.mode_filter(), browser_.player_filter());
  screen_ = Screen::kReplays;
}

void App::open_viewer_file(const std::filesystem::path& file) {
  if (auto error = viewer_.open(file); !error.empty()) {
    browser_problem_ = error;
    spdlog::error("{}", error);
    open_replay_browser();
    return;
  }
  browser_problem_.clear();
  spdlog::info("viewing {}: {}", file.string(), viewer_.verdict());
  screen_ = Screen::kViewer;
}

void App::replay_poll() {
  if (!pending_download_) return;
  auto bytes = net_.session().take_download(*pending_download_);
  if (!bytes) return;
  pending_download_.reset();
  auto decoded = replay::decode_binary(*bytes);
  if (!decoded) {
    browser_problem_ = "the downloaded replay does not decode: " + decoded.error().describe();
    return;
  }
  if (auto error = viewer_.open(std::move(decoded.value()), "downloaded game"); !error.empty()) {
    browser_problem_ = error;
    return;
  }
  screen_ = Screen::kViewer;
}

void App::replays_ui(double now_s, const MenuNav& nav) {
  if (screen_ == Screen::kReplays) {
    ServerGames server{net_.session().welcome().server_name, server_games_shown_ ? &server_games_ : nullptr,
                       pending_download_.has_value()};
    const BrowserAction a =
        browser_.draw(listing_, paths_.replay_dir(), net_.connected() ? &server : nullptr, browser_problem_, nav);
    switch (a.kind) {
      case BrowserAction::kBack:
        screen_ = browser_back_;  // the main menu, or the lobby it was opened from
        break;
      case BrowserAction::kOpenFile: open_viewer_file(a.file); break;
      case BrowserAction::kRefresh: open_replay_browser(); break;
      case BrowserAction::kServerList:
        open_replay_browser();  // the filters may have changed
        server_games_shown_ = false;
        if (!net_.session().list_games(a.list, browser_.player_filter(), browser_.mode_filter())) {
          browser_problem_ = "cannot ask the server: the player filter is not a name it accepts";
        } else {
          browser_problem_.clear();
        }
        break;
      case BrowserAction::kDownload:
        if (net_.session().download_replay(a.game_id)) {
          pending_download_ = a.game_id;
          browser_problem_.clear();
        } else {
          browser_problem_ = "cannot ask the server for that replay";
        }
        break;
      case BrowserAction::kNone: break;
    }
    return;
  }
  viewer_.tick(viewer_last_s_ > 0 ? now_s - viewer_last_s_ : 0.0);
  viewer_last_s_ = now_s;
  if (viewer_controls_.draw(viewer_, nav) == ViewerAction::kBack) {
    viewer_last_s_ = 0;
    if (options_.replay_file) {
      done_ = true;
    } else if (net_.session().state() == net::Session::State::kRoom) {
      screen_ = Screen::kNet;  // back to the room the replay was watched from
    } else {
      open_replay_browser();
    }
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  layout_viewer(io.DisplaySize.x, io.DisplaySize.y);
  for (std::size_t i = 0; i < viewer_.games().size() && i < viewer_layouts_.size(); ++i) {
    draw_hud(fonts_,
             HudBoard{&viewer_.games()[i], nullptr, viewer_layouts_[i],
                      viewer_.replay().racers[viewer_.racer_of(i)].name, 0},
             now_s);
  }
}

void App::layout_viewer(float w, float h) {
  viewer_layouts_.clear();
  const int n = static_cast<int>(viewer_.games().size());
  if (n == 0) return;
  const float margin = std::min(w, h) * 0.02f;
  const float controls = ImGui::GetFrameHeightWithSpacing() * kViewerControlRows;
  grid_layouts(viewer_layouts_, n, margin, margin, w - 2 * margin, h - 2 * margin - controls);
}

void App::render_viewer(const BoardLook& look, double now_s) {
  for (std::size_t i = 0; i < viewer_.games().size() && i < viewer_layouts_.size(); ++i) {
    BoardLook l = look;
    l.dim = viewer_.games()[i].over();
    draw_board(batch_, viewer_layouts_[i], viewer_.games()[i], nullptr, l, now_s);
  }
}

}  // namespace sr::client
