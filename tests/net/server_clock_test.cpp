#include "net/server_clock.h"

#include <gtest/gtest.h>

namespace sr::net {
namespace {

// The server's clock runs 5 s ahead of ours. A ping sent at local 1.000 s takes 80 ms out and 20 ms back: the server
// answers at its 6.080 s, we hear it at 1.100 s. The estimate of server time 6.080 s is local 1.050 s (the middle of
// the round trip) plus half the round trip: 1.100 s, exactly when we heard it, so never ahead of the server.
TEST(ServerClock, AnAsymmetricTripIsNeverEstimatedAheadOfTheServer) {
  ServerClock clock;
  EXPECT_FALSE(clock.local_time_of(0).has_value());
  clock.on_pong(1'000'000, 1'100'000, 6'080'000);
  EXPECT_EQ(clock.best_round_trip_us(), 100'000);
  EXPECT_EQ(clock.local_time_of(6'080'000), 1'100'000);
  // The race starts at server time 9 s: locally 4.02 s at the latest, which is 20 ms late (the true moment is 4 s).
  EXPECT_EQ(clock.local_time_of(9'000'000), 4'020'000);
}

// The best of the recent samples counts: a slow round trip (a resend) does not spoil a good one, and only the last
// kSamplesKept are kept.
TEST(ServerClock, TheShortestRecentRoundTripWins) {
  ServerClock clock;
  clock.on_pong(0, 40'000, 5'020'000);             // 40 ms, symmetric: offset 5 s
  clock.on_pong(1'000'000, 1'900'000, 6'050'000);  // 900 ms (resent): would say the offset is 4.6 s
  EXPECT_EQ(clock.best_round_trip_us(), 40'000);
  EXPECT_EQ(clock.local_time_of(8'000'000), 3'000'000 + 20'000);
  clock.on_pong(-5, -10, 0);  // heard before it was sent: ignored
  EXPECT_EQ(clock.best_round_trip_us(), 40'000);
  for (std::size_t i = 0; i < ServerClock::kSamplesKept; ++i) {
    const TimeUs sent = 2'000'000 + static_cast<TimeUs>(i) * 500'000;
    clock.on_pong(sent, sent + 60'000, sent + 5'000'000 + 30'000);
  }
  EXPECT_EQ(clock.best_round_trip_us(), 60'000);  // the 40 ms sample has aged out
  EXPECT_EQ(clock.local_time_of(8'000'000), 3'000'000 + 30'000);
}

}  // namespace
}  // namespace sr::net
