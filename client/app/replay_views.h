// The replay browser (games on this computer and on the server we are connected to) and the replay viewer. What they
// show is the app's (App::open_replay_browser, App::open_viewer_file: the command line, the lobby, a race's results
// and the contest ladder open them too).
#pragma once

#include "client/app/screen_view.h"

namespace sr::client {

class ReplaysView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "replays"; }
  void ui(double now_s, const MenuNav& nav) override;
};

class ViewerView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  [[nodiscard]] std::string name() const override { return "replay viewer"; }
  void ui(double now_s, const MenuNav& nav) override;
  void render(const BoardLook& look, float w, float h, double now_s) override;
  [[nodiscard]] const std::vector<BoardLayout>& layouts() const override;
  [[nodiscard]] Activity activity() const override;
};

}  // namespace sr::client
