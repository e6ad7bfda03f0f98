// The replay browser and viewer: listing, opening files (also from the command line) and web links, downloads from
// the server, and the viewer's boards.
#include "client/app/replay_views.h"

#include <imgui.h>
#include <spdlog/spdlog.h>

#include "client/app/app.h"
#include "client/app/ladder_view.h"
#include "client/ui/hud.h"
#include "client/web/replay_fetch.h"
#include "common/replay/codec.h"

namespace sr::client {

void ReplaysView::open() {
  const Screen from = app_.screen();
  if (from == Screen::kMain || from == Screen::kNet) {
    browser_.emplace().back = from;
  } else if (!browser_) {
    // The viewer of a download that arrived after the browser was closed: back to where the browser would be.
    browser_.emplace().back = app_.net().connected() ? Screen::kNet : Screen::kMain;
  }
  browser_->listing = list_local_replays(app_.paths().replay_dir(), browser_->browser.mode_filter(),
                                         browser_->browser.player_filter(), browser_->browser.hide_given_up());
  app_.show(Screen::kReplays);
}

void ReplaysView::set_problem(std::string text) {
  if (browser_) browser_->problem = std::move(text);
}

void ReplaysView::net_message(const protocol::Message& m, double /*now_s*/) {
  if (const auto* list = std::get_if<protocol::GameList>(&m)) {
    if (browser_) {  // asked for by the browser (a list for a browser since closed is not shown)
      browser_->server_games = *list;
      browser_->server_games_shown = true;
    }
  }
}

void ReplaysView::ui(double /*now_s*/, const MenuNav& nav) {
  if (!browser_) open();  // not reached: the browser is made on the way here
  ReplayBrowserState& b = *browser_;
  NetPlay& net = app_.net();
  ViewerView& viewer = app_.view<ViewerView>(Screen::kViewer);
  ServerGames server{net.session().welcome().server_name, b.server_games_shown ? &b.server_games : nullptr,
                     viewer.downloading(), b.link_note};
  const BrowserAction a = b.browser.draw(b.listing, net.connected() ? &server : nullptr, b.problem, nav);
  switch (a.kind) {
    case BrowserAction::kBack:
      app_.show(b.back);  // the main menu, or the lobby it was opened from
      browser_.reset();
      break;
    case BrowserAction::kOpenFile: (void)viewer.open_file(a.file); break;  // a problem is said in the browser
    case BrowserAction::kRefresh: open(); break;
    case BrowserAction::kServerList:
      open();  // the filters may have changed
      b.server_games_shown = false;
      if (!net.session().list_games(a.list, b.browser.player_filter(), b.browser.mode_filter())) {
        b.problem = "cannot ask the server: the player filter is not a name it accepts";
      } else {
        b.problem.clear();
      }
      break;
    case BrowserAction::kDownload:
      if (viewer.download(a.game_id)) {
        b.problem.clear();
      } else {
        b.problem = "cannot ask the server for that replay";
      }
      break;
    case BrowserAction::kCopyLink: b.link_note = app_.copy_game_link(a.game_id); break;
    case BrowserAction::kNone: break;
  }
}

sr::Status<std::string> ViewerView::open_file(const std::filesystem::path& file) {
  ReplaysView& browser = app_.view<ReplaysView>(Screen::kReplays);
  auto viewer = std::make_unique<ViewerState>();
  if (auto opened = viewer->viewer.open(file); !opened) {
    spdlog::error("{}", opened.error());
    browser.open();
    browser.set_problem(opened.error());
    return opened;
  }
  browser.set_problem("");
  spdlog::info("viewing {}: {}", file.string(), viewer->viewer.verdict());
  viewer_ = std::move(viewer);
  app_.show(Screen::kViewer);
  return {};
}

sr::Status<std::string> ViewerView::open_link(const std::string& link) {
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
  app_.show(Screen::kViewer);
  return {};
}

bool ViewerView::download(std::uint64_t game_id) {
  if (!app_.net().session().download_replay(game_id)) return false;
  pending_download_ = game_id;
  return true;
}

void ViewerView::problem(std::string text) {
  ReplaysView& browser = app_.view<ReplaysView>(Screen::kReplays);
  if (browser.is_open()) {
    browser.set_problem(std::move(text));
  } else if (app_.screen() == Screen::kLadder) {
    app_.view<LadderView>(Screen::kLadder).set_problem("Cannot watch that game: " + text);  // the ladder's Watch
  } else {
    app_.net().say(std::move(text));  // a replay asked for from the race's results: said in the room
  }
}

void ViewerView::net_message(const protocol::Message& m, double /*now_s*/) {
  const auto* u = std::get_if<protocol::ReplayUnavailable>(&m);
  if (u == nullptr || pending_download_ != u->game_id) return;
  // NetPlay has said so among the server's messages already; the browser says it where it was asked.
  pending_download_.reset();
  app_.view<ReplaysView>(Screen::kReplays)
      .set_problem("the server cannot send that replay: " + net::describe(u->code) +
                   (u->text.empty() ? "" : " (" + u->text + ")"));
}

void ViewerView::net_polled(double /*now_s*/) {
  if (!pending_download_) return;
  const std::uint64_t game_id = *pending_download_;
  auto bytes = app_.net().session().take_download(game_id);
  if (!bytes) return;
  pending_download_.reset();
  auto decoded = replay::decode_binary(*bytes);
  if (!decoded) {
    problem("the downloaded replay does not decode: " + decoded.error().describe());
    return;
  }
  auto viewer = std::make_unique<ViewerState>();
  if (auto opened = viewer->viewer.open(std::move(decoded.value()), "downloaded game"); !opened) {
    problem(opened.error());
    return;
  }
  spdlog::info("viewing downloaded game {:016x}: {}", game_id, viewer->viewer.verdict());
  viewer_ = std::move(viewer);
  app_.show(Screen::kViewer);
}

void ViewerView::ui(double now_s, const MenuNav& nav) {
  if (!viewer_) {  // not reached: the viewer is made on the way here
    app_.open_replay_browser();
    return;
  }
  ViewerState& v = *viewer_;
  v.viewer.tick(v.last_s > 0 ? now_s - v.last_s : 0.0);
  v.last_s = now_s;
  if (v.controls.draw(v.viewer, nav) == ViewerAction::kBack) {
    viewer_.reset();
    LadderView& ladder = app_.view<LadderView>(Screen::kLadder);
    if (app_.options().replay_file || app_.options().replay_link) {
      app_.quit();  // opened from the command line: its Back quits
    } else if (ladder.watching()) {
      ladder.watched();
      app_.show(Screen::kLadder);  // back to the leaderboard the game was watched from
    } else if (app_.net().session().in_room()) {
      app_.show(Screen::kNet);  // back to the room the replay was watched from
      app_.view<ReplaysView>(Screen::kReplays).close();
    } else {
      app_.open_replay_browser();
    }
    return;
  }
  const ImGuiIO& io = ImGui::GetIO();
  layout(io.DisplaySize.x, io.DisplaySize.y);
  for (std::size_t i = 0; i < v.viewer.games().size() && i < v.layouts.size(); ++i) {
    const engine::Game& game = v.viewer.games()[i];
    draw_hud(app_.fonts(),
             HudBoard{&game, nullptr, v.layouts[i], v.viewer.replay().racers[v.viewer.racer_of(i)].name, 0}, now_s);
    // A racer whose game has ended by now: how, and when (as on the race screen).
    if (const char* banner = v.viewer.end_banner(i); banner[0] != 0) {
      draw_banner(app_.fonts(), v.layouts[i], banner, format_time(game.stats().time_us));
    }
  }
}

void ViewerView::layout(float w, float h) {
  if (!viewer_) return;
  viewer_->layouts.clear();
  const int n = static_cast<int>(viewer_->viewer.games().size());
  if (n == 0) return;
  const float margin = std::min(w, h) * 0.02f;
  const float controls = ImGui::GetFrameHeightWithSpacing() * kViewerControlRows;
  grid_layouts(viewer_->layouts, n, margin, margin, w - 2 * margin, h - 2 * margin - controls);
}

void ViewerView::render(const BoardLook& look, float w, float h, double now_s) {
  layout(w, h);
  if (!viewer_) return;  // its Back was taken this frame
  const auto& games = viewer_->viewer.games();
  for (std::size_t i = 0; i < games.size() && i < viewer_->layouts.size(); ++i) {
    BoardLook l = look;
    l.dim = games[i].over();
    draw_board(app_.batch(), viewer_->layouts[i], games[i], nullptr, l, now_s);
  }
}

const std::vector<BoardLayout>& ViewerView::layouts() const {
  return viewer_ ? viewer_->layouts : ScreenView::layouts();
}

Activity ViewerView::activity() const {
  return viewer_ && viewer_->viewer.playing ? Activity::kAnimating : Activity::kIdle;
}

}  // namespace sr::client
