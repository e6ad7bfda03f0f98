#include "server/race.h"

#include <algorithm>
#include <tuple>

namespace sr::server {
namespace {

// 0 = finished, 1 = still racing or topped out, 2 = did not finish (disconnected or removed).
int status_group(protocol::RacerStatus s) {
  switch (s) {
    case protocol::RacerStatus::kFinished: return 0;
    case protocol::RacerStatus::kRacing:
    case protocol::RacerStatus::kToppedOut: return 1;
    case protocol::RacerStatus::kDisconnected:
    case protocol::RacerStatus::kRemoved:
    case protocol::RacerStatus::kUnfinished: return 2;  // only once the race is over
  }
  return 2;
}

}  // namespace

Race::Race(engine::GameConfig config, std::uint64_t seed, PaceLimits limits)
    : config_(std::move(config)), seed_(seed), limits_(limits) {}

void Race::add_racer(RacerId id, std::string name, const engine::Handling& handling,
                     std::optional<replay::RacerKey> key) {
  engine::GameConfig own = config_;
  own.handling = handling;
  racers_.push_back(Entry{id, std::move(name), RacerReferee(std::move(own), seed_, limits_), key, std::nullopt});
  over_.reset();
}

const Race::Entry* Race::find(RacerId id) const {
  for (const Entry& e : racers_) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

Race::Entry* Race::find_mutable(RacerId id) {
  for (Entry& e : racers_) {
    if (e.id == id) return &e;
  }
  return nullptr;
}

void Race::keep_run_signature(RacerId id, const protocol::SignatureBytes& signature) {
  if (Entry* e = find_mutable(id)) e->run_signature = signature;
}

Violation Race::on_batch(RacerId id, TimeUs real_us, std::span<const engine::InputChange> changes, TimeUs clock_us) {
  Entry* e = find_mutable(id);
  over_.reset();
  return e ? e->referee.on_batch(real_us, changes, clock_us) : Violation::kNone;
}

void Race::disconnect(RacerId id) {
  over_.reset();
  if (Entry* e = find_mutable(id)) e->referee.disconnect();
}

void Race::stop_unfinished(RacerId id) {
  over_.reset();
  if (Entry* e = find_mutable(id)) e->referee.stop_unfinished();
}

void Race::suspend(RacerId id) {
  over_.reset();
  if (Entry* e = find_mutable(id)) e->referee.suspend();
}

void Race::resume(RacerId id, TimeUs real_us) {
  over_.reset();
  if (Entry* e = find_mutable(id)) e->referee.resume(real_us);
}

std::vector<Race::Removal> Race::tick(TimeUs real_us) {
  over_.reset();
  std::vector<Removal> removed;
  for (Entry& e : racers_) {
    const Violation v = e.referee.check_pace(real_us);
    if (v != Violation::kNone) removed.push_back({e.id, v});
  }
  if (config_.limit == engine::LimitKind::kTime && real_us > config_.limit_value * 1'000'000 + time_limit_grace_us()) {
    for (Entry& e : racers_) e.referee.stop_as_disconnected();
  }
  return removed;
}

bool Race::over() const {
  if (!over_) {
    over_ = std::none_of(racers_.begin(), racers_.end(),
                         [](const Entry& e) { return e.referee.status() == protocol::RacerStatus::kRacing; });
  }
  return *over_;
}

std::vector<Standing> Race::standings() const {
  std::vector<Standing> out;
  out.reserve(racers_.size());
  for (const Entry& e : racers_) {
    const engine::Stats& st = e.referee.game().stats();
    Standing s;
    s.id = e.id;
    s.name = e.name;
    s.status = e.referee.status();
    s.removal = e.referee.removal_reason();
    s.time_us = st.time_us;
    s.lines = st.lines;
    s.lines_left = e.referee.game().lines_left();
    s.score = st.score;
    s.pieces = st.pieces;
    s.key_presses = st.key_presses;
    s.pps_x100 = engine::pps_x100(st.pieces, st.time_us);
    s.kpp_x100 = engine::kpp_x100(st.key_presses, st.pieces);
    s.unverified_us = e.referee.unverified_us();
    s.reconnects = e.referee.reconnects();
    out.push_back(std::move(s));
  }
  const engine::GoalKind goal = config_.goal;
  // Sort key: status group, then the goal (lower is better for every tuple member), then the id for a stable order.
  auto key = [goal](const Standing& s) {
    const int group = status_group(s.status);
    std::int64_t primary = 0, secondary = 0;
    if (group == 0 && goal == engine::GoalKind::kTime) {
      primary = s.time_us;
    } else if (goal == engine::GoalKind::kScore) {
      primary = -s.score;
      secondary = -s.lines;
    } else {
      primary = -s.lines;
      secondary = -s.time_us;  // survived longer
    }
    return std::make_tuple(group, primary, secondary, s.id);
  };
  std::sort(out.begin(), out.end(), [&key](const Standing& a, const Standing& b) { return key(a) < key(b); });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].place = static_cast<int>(i) + 1;
  return out;
}

}  // namespace sr::server
