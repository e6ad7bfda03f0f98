// The contest ladder screen: the leaderboard, Watch, and entering as a person (ladder_view.h).
#include "client/app/ladder_view.h"

#include <spdlog/spdlog.h>

#include "client/app/app.h"
#include "client/app/replay_views.h"
#include "net/identity/ladder_secret.h"

namespace sr::client {

void LadderView::open() {
  if (!ladder_) ladder_.emplace();
  form_.default_entrant(app_.settings().player_name);
  if (app_.net().session().send(protocol::ListLadder{})) ladder_->board.asked();
  app_.show(Screen::kLadder);
}

void LadderView::net_message(const protocol::Message& message, double /*now_s*/) {
  if (!ladder_) return;
  LadderBoard& board = ladder_->board;
  switch (board.take(message)) {
    case LadderEvent::kBoard: spdlog::info("ladder: {} entrants shown", board.board()->rows.size()); break;
    case LadderEvent::kListRefused: spdlog::info("ladder: no leaderboard: {}", board.list_refused()); break;
    case LadderEvent::kEnterRefused: spdlog::info("ladder: game refused: {}", board.enter_refused()); break;
    case LadderEvent::kGameStarted:
      spdlog::info("ladder: entered as {} ({})", board.entrant(), board.ranked() ? "ranked" : "practice");
      app_.show(Screen::kNet);  // the race screen plays it
      break;
    case LadderEvent::kGameLeft:
      spdlog::info("ladder: left the game of {}", board.entrant());
      if (app_.screen() == Screen::kNet) {
        open();  // a fresh leaderboard, with the game just played
      } else if (app_.net().session().send(protocol::ListLadder{})) {
        board.asked();  // watching a replay: the board is fresh when the viewer comes back
      }
      break;
    case LadderEvent::kWatchRefused: spdlog::info("ladder: {}", board.watch_refused()); break;
    case LadderEvent::kNone: break;
  }
}

void LadderView::play(const LadderAction& action) {
  LadderState& l = *ladder_;
  l.problem.clear();
  if (auto ok = check_entrant_name(action.entrant); !ok) {
    l.problem = ok.error();
    return;
  }
  // An entrant claimed before player keys is held by its secret file: sent along (once it passes to our key, the
  // server no longer needs it). Never made: the player's key holds new entrants.
  const std::filesystem::path file = app_.paths().ladder_secret_file(action.entrant);
  auto legacy = net::read_legacy_secret(file);
  if (!legacy) {
    spdlog::error("ladder: {}", legacy.error());
    l.problem = "Cannot enter: " + legacy.error() + ".";
    return;
  }
  l.secret_note = legacy.value() ? legacy_secret_text(action.entrant, file) : std::string();
  if (!app_.net().session().send(protocol::LadderEnter{action.entrant, action.ranked, legacy.value()})) {
    l.problem = "Cannot enter: not connected to the server.";
    return;
  }
  l.board.entering(action.entrant, action.ranked);
  spdlog::info("ladder: entering as {} ({})", action.entrant, action.ranked ? "ranked" : "practice");
}

void LadderView::ui(double /*now_s*/, const MenuNav& nav) {
  if (!ladder_ || !app_.net().connected()) {  // not reached: both end together with the connection (net_poll)
    ladder_.reset();
    app_.show(Screen::kNet);
    return;
  }
  LadderState& l = *ladder_;
  ViewerView& viewer = app_.view<ViewerView>(Screen::kViewer);
  if (!viewer.downloading()) l.board.watched();  // a download that failed: the viewer said why (ViewerView::problem)
  const LadderScreenText text{app_.net().session().welcome().server_name, l.problem, l.secret_note,
                              viewer.downloading()};
  const LadderAction a = form_.draw(l.board, text, nav);
  switch (a.kind) {
    case LadderAction::kBack:
      ladder_.reset();
      app_.show(Screen::kNet);  // the lobby
      break;
    case LadderAction::kRefresh: open(); break;
    case LadderAction::kWatch:
      l.problem.clear();
      if (viewer.download(a.game_id)) {
        l.board.watching(a.game_id);
        spdlog::info("ladder: watching game {:016x}", a.game_id);
      } else {
        l.problem = "Cannot ask the server for that replay.";
      }
      break;
    case LadderAction::kPlay: play(a); break;
    case LadderAction::kNone: break;
  }
}

void LadderView::watched() {
  if (ladder_) ladder_->board.watched();
}

void LadderView::set_problem(std::string text) {
  if (ladder_) ladder_->problem = std::move(text);
}

void LadderView::connection_closed() {
  ladder_.reset();
  if (app_.screen() == Screen::kLadder) app_.show(Screen::kNet);  // the multiplayer menu says why
}

}  // namespace sr::client
