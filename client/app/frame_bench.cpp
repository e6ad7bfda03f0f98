#include "client/app/frame_bench.h"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace sr::client {

using engine::Buttons;
namespace button = engine::button;

void FrameBench::start(int frames_per_phase) {
  frames_ = frames_per_phase;
  phase_ = 0;
  reset_games(1);
}

void FrameBench::reset_games(int n) {
  games_.clear();
  next_action_.assign(static_cast<std::size_t>(n), 0);
  step_of_.assign(static_cast<std::size_t>(n), 0);
  now_us_ = 0;
  for (int i = 0; i < n; ++i) games_.emplace_back(engine::make_sprint(1000), 1000 + static_cast<std::uint64_t>(i));
}

// One press or release per action, cycling through a placement: rotate (sometimes), tap sideways 0..3 times,
// hard drop. This only presses buttons; the engine decides what they do.
void FrameBench::drive(std::size_t i, engine::TimeUs t) {
  auto& game = games_[i];
  if (game.over()) {
    game = engine::Game(engine::make_sprint(1000), game.seed() + 16);
    next_action_[i] = 0;
    return;
  }
  int& k = step_of_[i];
  const int placement = k / 12, s = k % 12;
  const int taps = (placement * 5 + static_cast<int>(i)) % 4;
  const Buttons dir = ((placement + static_cast<int>(i)) % 2) ? button::kMoveLeft : button::kMoveRight;
  const Buttons rot = (placement % 3 == 0) ? button::kRotateCw : (placement % 3 == 1 ? button::kRotateCcw : 0);
  Buttons b = 0;
  if (s == 0) b = rot;
  if (s >= 2 && s < 2 + 2 * taps && s % 2 == 0) b = dir;
  if (s == 10) b = button::kHardDrop;
  (void)game.update(t, b);
  k = (k + 1);
}

void FrameBench::step() {
  now_us_ += 16'667;
  for (std::size_t i = 0; i < games_.size(); ++i) {
    while (next_action_[i] <= now_us_) {
      const engine::TimeUs t = std::max(next_action_[i], games_[i].now());
      drive(i, t);
      next_action_[i] = t + 9'000 + static_cast<engine::TimeUs>(i) * 500;
    }
    (void)games_[i].update(std::max(now_us_, games_[i].now()));
  }
}

namespace {

double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string summary(const char* what, std::vector<double> s) {
  if (s.empty()) return {};
  std::sort(s.begin(), s.end());
  double sum = 0;
  for (double v : s) sum += v;
  const std::size_t p99 = std::min(s.size() - 1, static_cast<std::size_t>(static_cast<double>(s.size()) * 0.99));
  char line[160];
  std::snprintf(line, sizeof line, "%s avg %.2f ms, p99 %.2f ms, max %.2f ms", what,
                sum / static_cast<double>(s.size()) * 1000.0, s[p99] * 1000.0, s.back() * 1000.0);
  return line;
}

}  // namespace

void FrameBench::record(double frame_s) {
  const double cpu = process_cpu_s();
  const double cpu_frame = last_cpu_s_ < 0 ? frame_s : cpu - last_cpu_s_;
  last_cpu_s_ = cpu;
  if (!active()) return;
  if (warmup_left_ > 0) {
    --warmup_left_;
    return;
  }
  wall_[phase_].push_back(frame_s);
  cpu_[phase_].push_back(cpu_frame);
  if (static_cast<int>(wall_[phase_].size()) >= frames_) {
    ++phase_;
    warmup_left_ = kWarmupFrames;
    if (phase_ == 1) reset_games(16);
  }
}

std::string FrameBench::report() const {
  std::string out;
  for (int p = 0; p < 2; ++p) {
    if (wall_[p].empty()) continue;
    char head[64];
    std::snprintf(head, sizeof head, "%2d board%s (%zu frames): ", p == 0 ? 1 : 16, p == 0 ? " " : "s",
                  wall_[p].size());
    out += head + summary("CPU", cpu_[p]) + " | " + summary("wall", wall_[p]) + "\n";
  }
  return out;
}

}  // namespace sr::client
