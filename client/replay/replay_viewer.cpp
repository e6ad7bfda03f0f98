#include "client/replay/replay_viewer.h"

#include <algorithm>
#include <chrono>

#include "common/replay/simulate.h"
#include "common/replay/verify.h"
#include "replays/store/file_io.h"

namespace sr::client {

sr::Status<std::string> ReplayViewer::open(const std::filesystem::path& path) {
  auto loaded = replay::load_replay_file(path);
  if (!loaded) return path.filename().string() + ": " + loaded.error().describe();
  return open(std::move(loaded.value()), path.filename().string());
}

sr::Status<std::string> ReplayViewer::open(replay::Replay replay, std::string title) {
  replay_ = std::move(replay);
  title_ = std::move(title);
  const auto report = replay::verify(replay_);
  verified_ = report.verdict == replay::Verdict::kVerified;
  verdict_ = report.message;
  end_us_ = 0;
  for (const auto& r : replay_.racers) end_us_ = std::max(end_us_, r.result.stats.time_us);
  games_.clear();
  playing = false;
  build_curves();
  seek(0);
  if (games_.empty()) return "the replay holds no racer";
  return {};
}

std::int64_t ReplayViewer::seek(engine::TimeUs t) {
  const auto start = std::chrono::steady_clock::now();
  t = std::clamp<engine::TimeUs>(t, 0, end_us_);
  games_.clear();
  racer_of_.clear();
  next_input_.clear();
  for (std::size_t i = 0; i < replay_.racers.size(); ++i) {
    auto g = replay::game_at(replay_, i, replay::ViewPoint{replay::ViewPoint::Kind::kTime, t});
    if (!g) continue;  // a racer that cannot be shown (the verdict says why)
    games_.push_back(std::move(g.value()));
    racer_of_.push_back(i);
    const auto& inputs = replay_.racers[i].inputs;
    next_input_.push_back(
        static_cast<std::size_t>(std::upper_bound(inputs.begin(), inputs.end(), t,
                                                  [](engine::TimeUs v, const auto& c) { return v < c.time_us; }) -
                                 inputs.begin()));
  }
  position_us_ = t;
  carry_us_ = 0;
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
}

void ReplayViewer::build_curves() {
  curves_.clear();
  for (std::size_t i = 0; i < replay_.racers.size(); ++i) {
    const auto& racer = replay_.racers[i];
    std::vector<engine::TimeUs> locks;
    std::vector<std::pair<engine::TimeUs, int>> clears;
    (void)replay::simulate(replay::racer_config(replay_, i), replay_.seed, racer.inputs, racer.result.stats.time_us,
                           replay_.checkpoint_every, [&](const engine::Event& e) {
                             if (e.kind == engine::EventKind::kLock) locks.push_back(e.time_us);
                             if (e.kind == engine::EventKind::kClear) clears.emplace_back(e.time_us, e.lines);
                           });
    Curves c;
    std::size_t li = 0, ci = 0;
    int lines = 0;
    for (int k = 1; k <= kCurvePoints; ++k) {
      const engine::TimeUs t = end_us_ * k / kCurvePoints;
      while (li < locks.size() && locks[li] <= t) ++li;
      while (ci < clears.size() && clears[ci].first <= t) lines += clears[ci++].second;
      // A racer who ended before the race did keeps the pace of their own game (not pieces over a clock that ran
      // on without them).
      const engine::TimeUs played = std::min(t, racer.result.stats.time_us);
      c.pps.push_back(played > 0 ? static_cast<float>(static_cast<double>(li) * 1e6 / static_cast<double>(played))
                                 : 0.0f);
      c.lines.push_back(static_cast<float>(lines));
    }
    curves_.push_back(std::move(c));
  }
}

void ReplayViewer::feed_to(engine::TimeUs t) {
  // The same feeding as replay::simulate: each input in order, then the time, never past the racer's end.
  for (std::size_t i = 0; i < games_.size(); ++i) {
    const auto& racer = replay_.racers[racer_of_[i]];
    const engine::TimeUs until = std::min(t, racer.result.stats.time_us);
    while (next_input_[i] < racer.inputs.size() && racer.inputs[next_input_[i]].time_us <= until) {
      const auto& c = racer.inputs[next_input_[i]++];
      (void)games_[i].update(c.time_us, c.buttons);
    }
    if (until > games_[i].now()) (void)games_[i].update(until, std::nullopt);
  }
  position_us_ = t;
}

void ReplayViewer::tick(double wall_s) {
  if (!playing || games_.empty()) return;
  carry_us_ += wall_s * 1e6 * speed;
  const auto whole = static_cast<engine::TimeUs>(carry_us_);
  carry_us_ -= static_cast<double>(whole);
  const engine::TimeUs t = std::min(end_us_, position_us_ + whole);
  feed_to(t);
  if (t >= end_us_) playing = false;
}

void ReplayViewer::step_piece(std::size_t game, int direction) {
  if (game >= games_.size()) return;
  const std::size_t racer = racer_of_[game];
  const std::int64_t pieces = games_[game].stats().pieces;
  // Just after a lock the count already includes it: going back means the lock before.
  std::int64_t target = pieces + (direction > 0 ? 1 : -1);
  if (direction < 0) {
    auto at = replay::game_at(replay_, racer, replay::ViewPoint{replay::ViewPoint::Kind::kPiece, pieces});
    if (at && at.value().now() < position_us_) target = pieces;
  }
  if (target < 0) target = 0;
  auto g = replay::game_at(replay_, racer, replay::ViewPoint{replay::ViewPoint::Kind::kPiece, target});
  if (!g) return;
  playing = false;
  seek(g.value().now());
}

const char* ReplayViewer::end_banner(std::size_t game) const {
  if (game >= games_.size()) return "";
  const replay::RacerResult& r = replay_.racers[racer_of_[game]].result;
  if (position_us_ < r.stats.time_us && !games_[game].over()) return "";
  switch (r.status) {
    case replay::ResultStatus::kFinished: return "FINISHED";
    case replay::ResultStatus::kToppedOut: return "TOPPED OUT";
    case replay::ResultStatus::kDisconnected: return "LEFT";
    case replay::ResultStatus::kForfeited: return "GAVE UP";
    case replay::ResultStatus::kUnfinished: return "UNFINISHED";
  }
  return "";
}

}  // namespace sr::client
