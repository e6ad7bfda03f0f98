#include "net/server_clock.h"

namespace sr::net {

void ServerClock::on_pong(TimeUs sent_us, TimeUs received_us, TimeUs server_us) {
  if (received_us < sent_us) return;
  const TimeUs round_trip = received_us - sent_us;
  samples_.push_back({round_trip, server_us - (sent_us + round_trip / 2)});
  if (samples_.size() > kSamplesKept) samples_.pop_front();
}

const ServerClock::Sample* ServerClock::best() const {
  const Sample* best = nullptr;
  for (const Sample& s : samples_) {
    if (best == nullptr || s.round_trip_us < best->round_trip_us) best = &s;
  }
  return best;
}

std::optional<TimeUs> ServerClock::local_time_of(TimeUs server_us) const {
  const Sample* s = best();
  if (s == nullptr) return std::nullopt;
  return server_us - s->offset_us + s->round_trip_us / 2;
}

std::optional<TimeUs> ServerClock::best_round_trip_us() const {
  const Sample* s = best();
  if (s == nullptr) return std::nullopt;
  return s->round_trip_us;
}

}  // namespace sr::net
