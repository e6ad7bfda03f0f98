// The server's clock as seen from this machine, from Ping/Pong round trips (NTP's idea): a Pong carries the server's
// clock when it answered, and the sample with the shortest round trip of the last few is the best estimate.
//
// The race starts at CountdownStart::start_server_us on the server's clock. A client that started its game clock
// when the message arrived would run behind by the message's trip, seconds when a lossy link had it resent; with
// this estimate it starts on time. The estimate is made late by half the best round trip, so that our game clock is
// never ahead of the server's (the referee removes a clock that runs ahead).
//
// Pure arithmetic on the times it is given: no clock, no network (tests/net/server_clock_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

#include "common/engine/types.h"

namespace sr::net {

using engine::TimeUs;

class ServerClock {
 public:
  static constexpr std::size_t kSamplesKept = 8;

  // A Pong for our Ping sent at local time `sent_us`, received at local time `received_us`, carrying the server's
  // clock when it answered. Samples that cannot be (received before sent) are ignored.
  void on_pong(TimeUs sent_us, TimeUs received_us, TimeUs server_us);

  // The local time at which the server's clock reads `server_us` (plus half the best round trip); nullopt before
  // the first sample.
  [[nodiscard]] std::optional<TimeUs> local_time_of(TimeUs server_us) const;
  [[nodiscard]] std::optional<TimeUs> best_round_trip_us() const;

 private:
  struct Sample {
    TimeUs round_trip_us = 0;
    TimeUs offset_us = 0;  // server time - local time, at the middle of the round trip
  };
  [[nodiscard]] const Sample* best() const;

  std::deque<Sample> samples_;
};

}  // namespace sr::net
