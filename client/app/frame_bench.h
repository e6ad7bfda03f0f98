// --bench-frames N: N frames with 1 board, then N frames with 16 boards, each board an engine Game fed a fixed
// pattern of button presses (taps, rotations, hard drops) on simulated time, so every run draws the same boards.
// Prints the average and 99th-percentile time per frame of each phase: CPU time of the whole process (our thread and
// the GL driver's threads; a software renderer's rasterising included) and wall-clock time. The first
// kWarmupFrames of each phase (shader compilation, font atlas upload) are not counted.
#pragma once

#include <string>
#include <vector>

#include "common/engine/game.h"

namespace sr::client {

class FrameBench {
 public:
  static constexpr int kWarmupFrames = 30;
  void start(int frames_per_phase);
  [[nodiscard]] bool active() const { return phase_ >= 0 && phase_ < 2; }
  [[nodiscard]] bool finished() const { return phase_ >= 2; }
  [[nodiscard]] int boards() const { return phase_ == 0 ? 1 : 16; }

  // Advances every board by one simulated 60 Hz frame.
  void step();
  [[nodiscard]] const std::vector<engine::Game>& games() const { return games_; }
  // Records one frame (wall-clock `frame_s`; CPU time is read here); moves to the next phase after N frames.
  void record(double frame_s);
  // "1 board: avg 1.23 ms, p99 2.34 ms over 600 frames\n16 boards: ..."
  [[nodiscard]] std::string report() const;

 private:
  void reset_games(int n);
  void drive(std::size_t i, engine::TimeUs t);

  int frames_ = 0;
  int phase_ = -1;
  engine::TimeUs now_us_ = 0;
  std::vector<engine::Game> games_;
  std::vector<engine::TimeUs> next_action_;
  std::vector<int> step_of_;
  int warmup_left_ = kWarmupFrames;
  double last_cpu_s_ = -1;
  std::vector<double> wall_[2];
  std::vector<double> cpu_[2];
};

}  // namespace sr::client
