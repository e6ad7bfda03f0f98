// The contest ladder (PROTOCOL.md "Contest ladder"): the leaderboard asked for on entering the screen and on Refresh,
// Watch (a download opened in the replay viewer, which comes back here), and Play: LadderEnter sent (the player's key
// holds the entrant; an old secret file under the config directory, Paths::ladder_secret_file, is sent along so that
// an entrant from before player keys passes to the key), the game played on the race screen like any race, and
// leaving its room comes back here with a fresh leaderboard.
#pragma once

#include <optional>
#include <string>

#include "client/app/ladder_state.h"
#include "client/app/screen_view.h"
#include "client/ui/ladder_screen.h"

namespace sr::client {

class LadderView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // Shows the ladder and asks the server for a fresh leaderboard.
  void open();
  // A ladder game entered from here is being played (its room is the server's, for this one game).
  [[nodiscard]] bool playing_game() const { return ladder_ && ladder_->board.playing(); }
  // A best game asked for with Watch is being downloaded or watched; watched() when the viewer comes back.
  [[nodiscard]] bool watching() const { return ladder_ && ladder_->board.watching(); }
  void watched();
  // Said on the ladder (a game that cannot be watched).
  void set_problem(std::string text);

  [[nodiscard]] std::string name() const override { return "contest ladder"; }
  void ui(double now_s, const MenuNav& nav) override;
  void net_message(const protocol::Message& message, double now_s) override;
  void connection_closed() override;

 private:
  void play(const LadderAction& action);

  LadderScreen form_;  // the entrant's name and the ranked choice, kept for the run
  std::optional<LadderState> ladder_;
};

}  // namespace sr::client
