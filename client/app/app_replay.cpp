// The replay browser and viewer in the app: listing, opening files (also from the command line), downloads from
// the server, and the viewer's boards.
#include "client/app/app.h"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include "client/ui/hud.h"
#include "client/web/game_link.h"
#include "client/web/replay_fetch.h"
#include "common/replay/codec.h"

namespace sr::client {

// Opened from the main menu or the lobby: a fresh browser that goes back there. Opened again from the browser (a
// refresh) or the viewer: the same browser, its listing read again.
void App::open_replay_browser() {
  if (screen_ == Screen::kMain || screen_ == Screen::kNet) {
    browser_.emplace().back = screen_;
  } else if (!browser_) {
    // The viewer of a download that arrived after the browser was closed: back to where the browser would be.
    browser_.emplace().back = net_.connected() ? Screen::kNet : Screen::kMain;
  }
  browser_->listing = list_local_replays(paths_.replay_dir(), browser_->browser.mode_filter(),
                                         browser_->browser.player_filter(), browser_->browser.hide_given_up());
  screen_ = Screen::kReplays;
}

void App::replay_problem(std::string text) {
  if (browser_) {
    browser_->problem = std::move(text);
  } else if (ladder_ && screen_ == Screen::kLadder) {
    ladder_->problem = "Cannot watch that game: " + text;  // asked for with the ladder's Watch
  } else {
    net_.say(std::move(text));  // a replay asked for from the race's results: said in the room
  }
}

sr::Status<std::string> App::open_viewer_file(const std::filesystem::path& file) {
  auto viewer = std::make_unique<ViewerState>();
  if (auto opened = viewer->viewer.open(file); !opened) {
    spdlog::error("{}", opened.error());
    open_replay_browser();
    browser_->problem = opened.error();
    return opened;
  }
  if (browser_) browser_->problem.clear();
  spdlog::info("viewing {}: {}", file.string(), viewer->viewer.verdict());
  viewer_ = std::move(viewer);
  screen_ = Screen::kViewer;
  return {};
}

sr::Status<std::string> App::open_viewer_link(const std::string& link) {
  spdlog::info("downloading the replay of {}", link);
  auto fetched = fetch_replay(link);
  if (!fetched) {
    spdlog::error("{}", fetched.error());
    return fetched.error();
  }
  auto viewer = std::make_unique<ViewerState>();
  if (auto opened = viewer->viewer.open(std::move(fetched.value()), link); !opened) {
    spdlog::error("{}", opened.error());
    return opened;
  }
  spdlog::info("viewing {}: {}", link, viewer->viewer.verdict());
  viewer_ = std::move(viewer);
  screen_ = Screen::kViewer;
  return {};
}

std::string App::copy_game_link(std::uint64_t game_id) {
  const auto address = parse_address(net_.address());
  const auto pages = web_pages(net_.session().welcome(), address ? address->first : std::string());
  if (!pages) return "this server has no web pages: its games have no web links";
  const std::string link = game_link(*pages, game_id);
  window_.set_clipboard(link);
  spdlog::info("link copied: {}", link);
  return "link copied: " + link;
}

void App::replay_poll() {
  if (!pending_download_) return;
  const std::uint64_t game_id = *pending_download_;
  auto bytes = net_.session().take_download(game_id);
  if (!bytes) return;
  pending_download_.reset();
  auto decoded = replay::decode_binary(*bytes);
  if (!decoded) {
    replay_problem("the downloaded replay does not decode: " + decoded.error().describe());
    return;
  }
  auto viewer = std::make_unique<ViewerState>();
  if (auto opened = viewer->viewer.open(std::move(decoded.value()), "downloaded game"); !opened) {
    replay_problem(opened.error());
    return;
  }
  spdlog::info("viewing downloaded game {:016x}: {}", game_id, viewer->viewer.verdict());
  viewer_ = std::move(viewer);
  screen_ = Screen::kViewer;
}

void App::browser_ui(const MenuNav& nav) {
  {
    if (!browser_) open_replay_browser();  // not reached: the browser is made on the way here
    ReplayBrowserState& b = *browser_;
    ServerGames server{net_.session().welcome().server_name, b.server_games_shown ? &b.server_games : nullptr,
                       pending_download_.has_value(), b.link_note};
    const BrowserAction a = b.browser.draw(b.listing, net_.connected() ? &server : nullptr, b.problem, nav);
    switch (a.kind) {
      case BrowserAction::kBack:
        screen_ = b.back;  // the main menu, or the lobby it was opened from
        browser_.reset();
        break;
      case BrowserAction::kOpenFile: (void)open_viewer_file(a.file); break;  // a problem is said in the browser
      case BrowserAction::kRefresh: open_replay_browser(); break;
      case BrowserAction::kServerList:
        open_replay_browser();  // the filters may have changed
        b.server_games_shown = false;
        if (!net_.session().list_games(a.list, b.browser.player_filter(), b.browser.mode_filter())) {
          b.problem = "cannot ask the server: the player filter is not a name it accepts";
        } else {
          b.problem.clear();
        }
        break;
      case BrowserAction::kDownload:
        if (net_.session().download_replay(a.game_id)) {
          pending_download_ = a.game_id;
          b.problem.clear();
        } else {
          b.problem = "cannot ask the server for that replay";
        }
        break;
      case BrowserAction::kCopyLink: b.link_note = copy_game_link(a.game_id); break;
      case BrowserAction::kNone: break;
    }
  }
}

void App::viewer_ui(double now_s, const MenuNav& nav) {
  if (!viewer_) {  // not reached: the viewer is made on the way here
    open_replay_browser();
    return;
  }
  ViewerState& v = *viewer_;
  v.viewer.tick(v.last_s > 0 ? now_s - v.last_s : 0.0);
  v.last_s = now_s;
  if (v.controls.draw(v.viewer, nav) == ViewerAction::kBack) {
    viewer_.reset();
    if (options_.replay_file || options_.replay_link) {
      done_ = true;  // opened from the command line: its Back quits
    } else if (ladder_ && ladder_->board.watching()) {
      ladder_->board.watched();
      screen_ = Screen::kLadder;  // back to the leaderboard the game was watched from
    } else if (net_.session().in_room()) {
      screen_ = Screen::kNet;  // back to the room the replay was watched from
      browser_.reset();
    } else {
      open_replay_browser();
    }
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  layout_viewer(io.DisplaySize.x, io.DisplaySize.y);
  for (std::size_t i = 0; i < v.viewer.games().size() && i < v.layouts.size(); ++i) {
    const engine::Game& game = v.viewer.games()[i];
    draw_hud(fonts_, HudBoard{&game, nullptr, v.layouts[i], v.viewer.replay().racers[v.viewer.racer_of(i)].name, 0},
             now_s);
    // A racer whose game has ended by now: how, and when (as on the race screen).
    if (const char* banner = v.viewer.end_banner(i); banner[0] != 0) {
      draw_banner(fonts_, v.layouts[i], banner, format_time(game.stats().time_us));
    }
  }
}

void App::layout_viewer(float w, float h) {
  if (!viewer_) return;
  viewer_->layouts.clear();
  const int n = static_cast<int>(viewer_->viewer.games().size());
  if (n == 0) return;
  const float margin = std::min(w, h) * 0.02f;
  const float controls = ImGui::GetFrameHeightWithSpacing() * kViewerControlRows;
  grid_layouts(viewer_->layouts, n, margin, margin, w - 2 * margin, h - 2 * margin - controls);
}

void App::render_viewer(const BoardLook& look, double now_s) {
  if (!viewer_) return;  // its Back was taken this frame
  const auto& games = viewer_->viewer.games();
  for (std::size_t i = 0; i < games.size() && i < viewer_->layouts.size(); ++i) {
    BoardLook l = look;
    l.dim = games[i].over();
    draw_board(batch_, viewer_->layouts[i], games[i], nullptr, l, now_s);
  }
}

const std::vector<BoardLayout>& App::viewer_layouts() const {
  static const std::vector<BoardLayout> kNone;
  return viewer_ ? viewer_->layouts : kNone;
}

bool App::viewer_playing() const { return viewer_ && viewer_->viewer.playing; }

}  // namespace sr::client
