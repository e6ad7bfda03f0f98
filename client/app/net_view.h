// Multiplayer: the server list (connect or host), the lobby, a room, and its races (played or watched) and their
// results. The connection itself is the app's (App::net(): it is serviced on every screen, and the contest ladder and
// the replay browser use it too); this screen draws it and takes our race's keys and pads.
#pragma once

#include "client/app/screen_view.h"

namespace sr::client {

class NetView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // "multiplayer menu", "lobby", "room", "race" or "race results".
  [[nodiscard]] std::string name() const override;
  [[nodiscard]] bool playing() const override;
  void key(const KeyEvent& ev) override;
  void pad(const PadChange& change, double when_s) override;
  void ui(double now_s, const MenuNav& nav) override;
  void render(const BoardLook& look, float w, float h, double now_s) override;
  [[nodiscard]] const std::vector<BoardLayout>& layouts() const override;
  [[nodiscard]] std::vector<std::string> layout_notes() const override;
  [[nodiscard]] Activity activity() const override;
};

}  // namespace sr::client
