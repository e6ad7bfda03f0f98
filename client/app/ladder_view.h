// The contest ladder (PROTOCOL.md "Contest ladder"): the leaderboard, Watch, and entering as a person. Its state and
// the server's answers are the app's (App::open_ladder, App::ladder_received), as they arrive on any screen.
#pragma once

#include "client/app/screen_view.h"

namespace sr::client {

class LadderView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "contest ladder"; }
  void ui(double now_s, const MenuNav& nav) override;
};

}  // namespace sr::client
