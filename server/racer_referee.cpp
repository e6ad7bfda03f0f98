#include "server/racer_referee.h"

#include <algorithm>

namespace sr::server {

const char* violation_text(Violation v) {
  switch (v) {
    case Violation::kNone: return "no violation";
    case Violation::kTimeWentBack: return "input timestamps went backwards";
    case Violation::kInvalidButtons: return "input had unknown button bits";
    case Violation::kSlowClock: return "game clock fell behind real time (slowed game or stalled connection)";
    case Violation::kFastClock: return "game clock ran ahead of real time";
    case Violation::kInputFlood: return "too many inputs per second";
  }
  return "unknown violation";
}

RacerReferee::RacerReferee(engine::GameConfig config, std::uint64_t seed, PaceLimits limits)
    : game_(std::move(config), seed), limits_(limits) {
  feed(0, std::nullopt);
}

void RacerReferee::feed(TimeUs t, std::optional<Buttons> buttons) {
  if (game_.over()) return;
  const engine::UpdateResult result = game_.update(t, buttons);
  for (const engine::Event& e : result.events) {
    if (digest_.add(e)) digests_.push_back(digest_.value());
  }
}

std::optional<std::uint64_t> RacerReferee::digest_after(std::int64_t pieces) const {
  if (pieces < 1 || pieces > static_cast<std::int64_t>(digests_.size())) return std::nullopt;
  return digests_[static_cast<std::size_t>(pieces - 1)];
}

Violation RacerReferee::remove(Violation v) {
  status_ = RacerStatus::kRemoved;
  removal_ = v;
  return v;
}

void RacerReferee::sync_status() {
  if (status_ != RacerStatus::kRacing || !game_.over()) return;
  status_ = game_.state().finished ? RacerStatus::kFinished : RacerStatus::kToppedOut;
}

Violation RacerReferee::on_batch(TimeUs real_us, std::span<const InputChange> changes, TimeUs clock_us) {
  if (status_ != RacerStatus::kRacing) return Violation::kNone;
  for (const InputChange& c : changes) {
    if (c.time_us < clock_us_) return remove(Violation::kTimeWentBack);
    if ((c.buttons & ~engine::button::kAll) != 0) return remove(Violation::kInvalidButtons);
    recent_change_times_.push_back(c.time_us);
    while (recent_change_times_.front() <= c.time_us - 1'000'000) recent_change_times_.pop_front();
    if (static_cast<int>(recent_change_times_.size()) > limits_.max_changes_per_second) {
      return remove(Violation::kInputFlood);
    }
    clock_us_ = c.time_us;
    // A change to the buttons already held changes nothing: it is not logged (a replay may not hold one) or fed.
    if (c.buttons == (log_.empty() ? Buttons{0} : log_.back().buttons)) continue;
    log_.push_back(c);
    feed(c.time_us, c.buttons);
  }
  if (clock_us < clock_us_) return remove(Violation::kTimeWentBack);
  clock_us_ = clock_us;
  feed(clock_us, std::nullopt);
  sync_status();
  if (status_ != RacerStatus::kRacing) return Violation::kNone;
  return check_pace(real_us);
}

Violation RacerReferee::check_pace(TimeUs real_us) {
  if (status_ != RacerStatus::kRacing) return Violation::kNone;
  // During the countdown real time is negative and nobody has vouched for any game time yet.
  if (real_us < 0 && clock_us_ == 0) return Violation::kNone;
  if (clock_us_ > real_us + limits_.max_lead_us) return remove(Violation::kFastClock);
  // The smallest lag within the window, kept as a monotonic queue: a sample with a larger lag than a newer one can
  // never be the minimum again, so only increasing lags stay, and the front is the answer.
  const TimeUs lag = real_us - clock_us_;
  while (!lag_samples_.empty() && lag_samples_.back().second >= lag) lag_samples_.pop_back();
  lag_samples_.emplace_back(real_us, lag);
  while (lag_samples_.front().first < real_us - limits_.lag_window_us) lag_samples_.pop_front();
  if (real_us < limits_.pace_grace_us + limits_.lag_window_us) return Violation::kNone;
  if (lag_samples_.front().second > limits_.max_lag_us) return remove(Violation::kSlowClock);
  return Violation::kNone;
}

void RacerReferee::disconnect() {
  if (status_ == RacerStatus::kRacing) status_ = RacerStatus::kDisconnected;
}

}  // namespace sr::server
