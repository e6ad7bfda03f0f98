#include "server/racer_referee.h"

#include <fmt/format.h>

#include <algorithm>

namespace sr::server {

const char* violation_text(Violation v) {
  switch (v) {
    case Violation::kNone: return "no violation";
    case Violation::kTimeWentBack: return "input timestamps went backwards";
    case Violation::kInvalidButtons: return "input had unknown button bits";
    case Violation::kSlowClock: return "game clock kept falling behind real time (slowed game)";
    case Violation::kFastClock: return "game clock ran ahead of real time";
    case Violation::kInputFlood: return "too many inputs per second";
    case Violation::kStallBudget: return "inputs stalled for longer than the room's stall budget";
  }
  return "unknown violation";
}

RacerReferee::RacerReferee(engine::GameConfig config, std::uint64_t seed, PaceLimits limits)
    : run_(std::move(config), seed), limits_(limits) {
  (void)run_.advance(0);  // the first piece is out from the start
}

Violation RacerReferee::remove(Violation v) {
  status_ = protocol::RacerStatus::kRemoved;
  removal_ = v;
  return v;
}

void RacerReferee::sync_status() {
  if (status_ != protocol::RacerStatus::kRacing || !run_.game().over()) return;
  status_ = run_.game().state().finished ? protocol::RacerStatus::kFinished : protocol::RacerStatus::kToppedOut;
}

Violation RacerReferee::on_batch(TimeUs real_us, std::span<const engine::InputChange> changes, TimeUs clock_us) {
  if (status_ != protocol::RacerStatus::kRacing) return Violation::kNone;
  const TimeUs vouched_before = run_.now_us();  // pressing the changes below moves the run on
  for (const engine::InputChange& c : changes) {
    if (c.time_us < run_.now_us()) return remove(Violation::kTimeWentBack);
    if ((c.buttons & ~engine::button::kAll) != 0) return remove(Violation::kInvalidButtons);
    recent_change_times_.push_back(c.time_us);
    while (recent_change_times_.front() <= c.time_us - 1'000'000) recent_change_times_.pop_front();
    if (static_cast<int>(recent_change_times_.size()) > limits_.max_changes_per_second) {
      return remove(Violation::kInputFlood);
    }
    // Checked above: no earlier than the run's time, known buttons. A change to the buttons already held is counted
    // but neither logged (a replay may not hold one) nor fed (RacerRun::press).
    (void)run_.press(c.time_us, c.buttons);
  }
  if (clock_us < run_.now_us()) return remove(Violation::kTimeWentBack);
  if (real_us >= 0) least_lag_us_ = std::min(least_lag_us_.value_or(real_us - clock_us), real_us - clock_us);
  const TimeUs behind_us = real_us - start_lag_us();  // the real clock, less the racer's start offset
  // The game time this batch vouches for, (previous clock, clock_us], is unverifiable where it is older than the
  // jitter allowance.
  const TimeUs late_until = std::min(clock_us, behind_us - limits_.max_lag_us);
  if (late_until > vouched_before) {
    unverified_us_ += late_until - vouched_before;
    stalled_us_ += late_until - std::clamp(away_until_us_, vouched_before, late_until);
  }
  (void)run_.advance(clock_us);
  sync_status();
  if (status_ != protocol::RacerStatus::kRacing) return Violation::kNone;
  if (behind_us - clock_us > limits_.max_lag_us) {
    if (!lagging_since_) lagging_since_ = real_us;
    if (real_us >= limits_.pace_grace_us + limits_.lag_window_us &&
        real_us - *lagging_since_ >= limits_.lag_window_us) {
      return remove(Violation::kSlowClock);
    }
  } else {
    lagging_since_.reset();
  }
  return check_pace(real_us);
}

std::string RacerReferee::pace_summary(TimeUs real_us) const {
  return fmt::format(
      "race time {:.3f} s, game clock {:.3f} s, start offset {} ms, unverified {} ms, stall budget used {} ms",
      static_cast<double>(real_us) / 1e6, static_cast<double>(run_.now_us()) / 1e6, start_lag_us() / 1000,
      unverified_us_ / 1000, stalled_us_at(real_us) / 1000);
}

TimeUs RacerReferee::start_lag_us() const {
  return std::clamp<TimeUs>(least_lag_us_.value_or(0), 0, limits_.max_start_lag_us);
}

TimeUs RacerReferee::stalled_us_at(TimeUs real_us) const {
  return stalled_us_ +
         std::max<TimeUs>(0, real_us - start_lag_us() - limits_.max_lag_us - std::max(run_.now_us(), away_until_us_));
}

Violation RacerReferee::check_pace(TimeUs real_us) {
  if (status_ != protocol::RacerStatus::kRacing) return Violation::kNone;
  // During the countdown real time is negative and nobody has vouched for any game time yet.
  if (real_us < 0 && run_.now_us() == 0) return Violation::kNone;
  if (run_.now_us() > real_us + limits_.max_lead_us) return remove(Violation::kFastClock);
  if (suspended_) return Violation::kNone;
  if (stalled_us_at(real_us) > limits_.stall_budget_us) return remove(Violation::kStallBudget);
  return Violation::kNone;
}

void RacerReferee::suspend() {
  if (status_ == protocol::RacerStatus::kRacing) suspended_ = true;
}

void RacerReferee::resume(TimeUs real_us) {
  if (!suspended_) return;
  suspended_ = false;
  ++reconnects_;
  away_until_us_ = std::max(away_until_us_, real_us);
  lagging_since_.reset();
}

void RacerReferee::disconnect() {
  if (status_ == protocol::RacerStatus::kRacing) status_ = protocol::RacerStatus::kDisconnected;
}

void RacerReferee::stop_unfinished() {
  if (status_ == protocol::RacerStatus::kRacing) status_ = protocol::RacerStatus::kUnfinished;
}

}  // namespace sr::server
