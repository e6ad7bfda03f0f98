// --bench-frames: the frame benchmark's screen. Its boards (1, then 16) play bot games as fast as frames are drawn,
// vsync off; after its last phase it prints its report and the game quits. Nothing else runs meanwhile.
#pragma once

#include <vector>

#include "client/app/frame_bench.h"
#include "client/app/screen_view.h"

namespace sr::client {

class BenchView final : public ScreenView {
 public:
  using ScreenView::ScreenView;
  // Starts the benchmark: `frames` frames per phase.
  void start(int frames) { bench_.start(frames); }

  [[nodiscard]] std::string name() const override { return "bench"; }
  void tick(double /*now_s*/) override { bench_.step(); }
  void ui(double now_s, const MenuNav& nav) override;
  void render(const BoardLook& look, float w, float h, double now_s) override;
  [[nodiscard]] const std::vector<BoardLayout>& layouts() const override { return layouts_; }
  [[nodiscard]] Activity activity() const override { return Activity::kUnpaced; }
  void frame_done(double start_s, double end_s) override;

 private:
  void layout(float w, float h);

  FrameBench bench_;
  std::vector<BoardLayout> layouts_;  // laid out again every frame (the board count changes between phases)
};

}  // namespace sr::client
