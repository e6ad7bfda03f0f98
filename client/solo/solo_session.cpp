#include "client/solo/solo_session.h"

#include <cassert>

namespace sr::client {

SoloSession::SoloSession(engine::GameConfig config, std::uint64_t seed, double wall_s, double countdown_s)
    : run_(std::move(config), seed), go_at_s_(wall_s + (countdown_s > 0 ? countdown_s : 0)) {
  start_if_due(wall_s);
}

void SoloSession::start_if_due(double wall_s) {
  if (phase_ != SessionPhase::kCountdown || wall_s < go_at_s_) return;
  phase_ = SessionPhase::kPlaying;
  clock_.start(go_at_s_);
  apply(0, held_ != 0 ? std::optional<engine::Buttons>(held_) : std::nullopt, wall_s);
}

void SoloSession::apply(engine::TimeUs t, std::optional<engine::Buttons> buttons, double wall_s) {
  if (run_.game().over()) return;
  const auto before = run_.game().active();
  const auto result = run_.update(t, buttons);
  assert(result.error == engine::UpdateError::kOk);  // stamps are monotone and buttons come from bindings
  if (result.error != engine::UpdateError::kOk) return;
  feedback_.on_events(result.events, wall_s);
  audio::append_cues(before, result.events, run_.game().active(), cues_);
  if (cues_.size() > kMaxPendingCues) cues_.erase(cues_.begin(), cues_.end() - kMaxPendingCues);  // nobody listens
  if (run_.game().over()) phase_ = SessionPhase::kOver;
}

void SoloSession::set_buttons(double wall_s, engine::Buttons held) {
  held_ = held;
  if (phase_ == SessionPhase::kCountdown) {
    start_if_due(wall_s);
    return;
  }
  if (phase_ != SessionPhase::kPlaying) return;
  apply(clock_.stamp(wall_s), held, wall_s);
}

void SoloSession::tick(double wall_s) {
  start_if_due(wall_s);
  feedback_.expire(wall_s);
  if (phase_ != SessionPhase::kPlaying) return;
  apply(clock_.stamp(wall_s), std::nullopt, wall_s);
}

void SoloSession::pause(double wall_s) {
  if (phase_ != SessionPhase::kPlaying) return;
  apply(clock_.stamp(wall_s), std::nullopt, wall_s);
  if (phase_ != SessionPhase::kPlaying) return;
  clock_.pause(wall_s);
  phase_ = SessionPhase::kPaused;
}

void SoloSession::resume(double wall_s, engine::Buttons held) {
  if (phase_ != SessionPhase::kPaused) return;
  clock_.resume(wall_s);
  phase_ = SessionPhase::kPlaying;
  held_ = held;
  apply(clock_.stamp(wall_s), held, wall_s);
}

void SoloSession::abandon(double wall_s) {
  if (phase_ == SessionPhase::kOver) return;
  if (phase_ == SessionPhase::kPlaying) apply(clock_.stamp(wall_s), std::nullopt, wall_s);
  abandoned_ = phase_ != SessionPhase::kOver;
  phase_ = SessionPhase::kOver;
}

double SoloSession::countdown_left(double wall_s) const {
  return phase_ == SessionPhase::kCountdown ? go_at_s_ - wall_s : 0.0;
}

}  // namespace sr::client
