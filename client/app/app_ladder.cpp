// The contest ladder in the app (PROTOCOL.md "Contest ladder"): the leaderboard asked for on entering the screen and on
// Refresh, Watch (a download opened in the replay viewer, which comes back here), and Play: the entrant's secret read
// or made under the config directory (Paths::ladder_secret_file), LadderEnter sent, the game played on the race
// screen like any race, and leaving its room comes back here with a fresh leaderboard.
#include "client/app/app.h"

#include <spdlog/spdlog.h>

#include "net/identity/ladder_secret.h"

namespace sr::client {

void App::open_ladder() {
  if (!ladder_) ladder_.emplace();
  net_menus_.ladder.default_entrant(settings_.player_name);
  if (net_.session().send(protocol::ListLadder{})) ladder_->board.asked();
  screen_ = Screen::kLadder;
}

void App::ladder_received(const protocol::Message& message) {
  if (!ladder_) return;
  LadderBoard& board = ladder_->board;
  switch (board.take(message)) {
    case LadderEvent::kBoard: spdlog::info("ladder: {} entrants shown", board.board()->rows.size()); break;
    case LadderEvent::kListRefused: spdlog::info("ladder: no leaderboard: {}", board.list_refused()); break;
    case LadderEvent::kEnterRefused:
      spdlog::info("ladder: game refused: {}", board.enter_refused());
      // Refused before the name was claimed (the ladder's check, the room limits): the new secret holds nothing.
      // After a claim (the server could not start the game) the file is kept: the name is held by it now.
      if (const auto* n = std::get_if<protocol::Notice>(&message);
          !ladder_->made_secret.empty() && n != nullptr &&
          (n->code == protocol::NoticeCode::kInvalidRequest || n->code == protocol::NoticeCode::kRateLimited ||
           n->code == protocol::NoticeCode::kTooManyRooms || n->code == protocol::NoticeCode::kAlreadyInRoom)) {
        std::error_code ec;
        std::filesystem::remove(ladder_->made_secret, ec);
        spdlog::info("ladder: removed the new secret {}{}", ladder_->made_secret.string(),
                     ec ? " (could not: " + ec.message() + ")" : std::string());
        ladder_->secret_note.clear();
      }
      ladder_->made_secret.clear();
      break;
    case LadderEvent::kGameStarted:
      ladder_->made_secret.clear();  // the name is held by it now
      spdlog::info("ladder: entered as {} ({})", board.entrant(), board.ranked() ? "ranked" : "practice");
      screen_ = Screen::kNet;  // the race screen plays it
      break;
    case LadderEvent::kGameLeft:
      spdlog::info("ladder: left the game of {}", board.entrant());
      if (screen_ == Screen::kNet) {
        open_ladder();  // a fresh leaderboard, with the game just played
      } else if (net_.session().send(protocol::ListLadder{})) {
        board.asked();  // watching a replay: the board is fresh when the viewer comes back
      }
      break;
    case LadderEvent::kWatchRefused: spdlog::info("ladder: {}", board.watch_refused()); break;
    case LadderEvent::kNone: break;
  }
}

void App::ladder_play(const LadderAction& action) {
  LadderState& l = *ladder_;
  l.problem.clear();
  if (auto ok = check_entrant_name(action.entrant); !ok) {
    l.problem = ok.error();
    return;
  }
  const std::filesystem::path file = paths_.ladder_secret_file(action.entrant);
  bool created = false;
  auto secret = net::load_or_create_secret(file, created);
  if (!secret) {
    // Never made anew over a file that is there: the player mends or moves it.
    spdlog::error("ladder: {}", secret.error());
    l.problem = "Cannot enter: " + secret.error() + ".";
    return;
  }
  l.made_secret = created ? file : std::filesystem::path();
  l.secret_note.clear();
  if (created) {
    l.secret_note = new_secret_text(action.entrant, file);
    spdlog::info("ladder: new secret for {} in {}", action.entrant, file.string());
  }
  if (!net_.session().send(protocol::LadderEnter{action.entrant, secret.value(), action.ranked})) {
    l.problem = "Cannot enter: not connected to the server.";
    return;
  }
  l.board.entering(action.entrant, action.ranked);
  spdlog::info("ladder: entering as {} ({})", action.entrant, action.ranked ? "ranked" : "practice");
}

void App::ladder_ui(const MenuNav& nav) {
  if (!ladder_ || !net_.connected()) {  // not reached: both end together with the connection (net_poll)
    ladder_.reset();
    screen_ = Screen::kNet;
    return;
  }
  LadderState& l = *ladder_;
  if (!pending_download_) l.board.watched();  // a download that failed: replay_problem() said why
  const LadderScreenText text{net_.session().welcome().server_name, l.problem, l.secret_note,
                              pending_download_.has_value()};
  const LadderAction a = net_menus_.ladder.draw(l.board, text, nav);
  switch (a.kind) {
    case LadderAction::kBack:
      ladder_.reset();
      screen_ = Screen::kNet;  // the lobby
      break;
    case LadderAction::kRefresh: open_ladder(); break;
    case LadderAction::kWatch:
      l.problem.clear();
      if (net_.session().download_replay(a.game_id)) {
        pending_download_ = a.game_id;
        l.board.watching(a.game_id);
        spdlog::info("ladder: watching game {:016x}", a.game_id);
      } else {
        l.problem = "Cannot ask the server for that replay.";
      }
      break;
    case LadderAction::kPlay: ladder_play(a); break;
    case LadderAction::kNone: break;
  }
}

}  // namespace sr::client
