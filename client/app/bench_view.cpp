#include "client/app/bench_view.h"

#include <imgui.h>

#include <cstdio>
#include <string>

#include "client/app/app.h"
#include "client/app/solo_game.h"
#include "client/ui/hud.h"

namespace sr::client {

void BenchView::layout(float w, float h) {
  const int n = bench_.boards();
  // One board is drawn at the player's board scale; the grid of 16 at full size.
  solo_layouts(layouts_, n, w, h, n == 1 ? app_.settings().visuals.board_scale : 1.0f);
}

void BenchView::ui(double now_s, const MenuNav& /*nav*/) {
  const ImGuiIO& io = ImGui::GetIO();
  layout(io.DisplaySize.x, io.DisplaySize.y);
  const auto& games = bench_.games();
  for (std::size_t i = 0; i < games.size() && i < layouts_.size(); ++i) {
    draw_hud(app_.fonts(), HudBoard{&games[i], nullptr, layouts_[i], "bench " + std::to_string(i + 1), 0}, now_s);
  }
}

void BenchView::render(const BoardLook& look, float w, float h, double now_s) {
  layout(w, h);
  for (std::size_t i = 0; i < bench_.games().size() && i < layouts_.size(); ++i) {
    draw_board(app_.batch(), layouts_[i], bench_.games()[i], nullptr, look, now_s);
  }
}

void BenchView::frame_done(double start_s, double end_s) {
  bench_.record(end_s - start_s);
  if (!bench_.finished()) return;
  std::printf(
      "time per frame at %dx%d, vsync off (CPU: this process, GL driver threads included; wall: polling to "
      "swap):\n%s",
      static_cast<int>(ImGui::GetIO().DisplaySize.x), static_cast<int>(ImGui::GetIO().DisplaySize.y),
      bench_.report().c_str());
  std::fflush(stdout);
  app_.quit();
}

}  // namespace sr::client
