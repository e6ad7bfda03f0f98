// The web pages' limits per address and in all (server/web/web_limits.h), on a fake clock.
#include "server/web/web_limits.h"

#include <gtest/gtest.h>

namespace sr::server::web {
namespace {

WebLimits small() {
  WebLimits l;
  l.max_connections = 5;
  l.max_connections_per_address = 3;
  l.max_streams = 4;
  l.max_streams_per_address = 2;
  l.requests_per_second = 2;
  l.request_burst = 4;
  l.trusted = {"10.0.0.1"};
  return l;
}

TEST(WebLimits, ConnectionsPerAddressAndInAll) {
  AddressLimits limits(small());
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limits.open_connection("1.1.1.1"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_connection("1.1.1.1"), WebRefusal::kConnectionsFromAddress);
  EXPECT_EQ(limits.open_connection("2.2.2.2"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_connection("3.3.3.3"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_connection("4.4.4.4"), WebRefusal::kConnections);
  limits.close_connection("1.1.1.1");
  EXPECT_EQ(limits.connections(), 4u);
  EXPECT_EQ(limits.open_connection("1.1.1.1"), WebRefusal::kNone);
  EXPECT_EQ(limits.refused()[static_cast<std::size_t>(WebRefusal::kConnectionsFromAddress)], 1u);
  EXPECT_EQ(limits.refused()[static_cast<std::size_t>(WebRefusal::kConnections)], 1u);
  // Closing what was never opened changes nothing.
  limits.close_connection("9.9.9.9");
  EXPECT_EQ(limits.connections(), 5u);
}

TEST(WebLimits, StreamsPerAddressAndInAll) {
  AddressLimits limits(small());
  EXPECT_EQ(limits.open_stream("1.1.1.1"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_stream("1.1.1.1"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_stream("1.1.1.1"), WebRefusal::kStreamsFromAddress);
  EXPECT_EQ(limits.open_stream("2.2.2.2"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_stream("3.3.3.3"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_stream("4.4.4.4"), WebRefusal::kStreams);
  limits.close_stream("1.1.1.1");
  EXPECT_EQ(limits.streams(), 3u);
  EXPECT_EQ(limits.open_stream("1.1.1.1"), WebRefusal::kNone);
}

TEST(WebLimits, RequestsRefillAtTheRate) {
  AddressLimits limits(small());
  const std::int64_t t0 = 1'000'000;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(limits.allow_request("1.1.1.1", t0), WebRefusal::kNone) << i;
  EXPECT_EQ(limits.allow_request("1.1.1.1", t0), WebRefusal::kRequestRate);
  EXPECT_EQ(limits.allow_request("2.2.2.2", t0), WebRefusal::kNone);  // another address has its own budget
  EXPECT_EQ(limits.allow_request("1.1.1.1", t0 + 499'999), WebRefusal::kRequestRate);
  EXPECT_EQ(limits.allow_request("1.1.1.1", t0 + 500'000), WebRefusal::kNone);  // 2 a second: one every 0.5 s
  EXPECT_EQ(limits.allow_request("1.1.1.1", t0 + 500'000), WebRefusal::kRequestRate);
}

TEST(WebLimits, TrustedAddressesAreNotLimitedPerAddress) {
  AddressLimits limits(small());
  for (int i = 0; i < 5; ++i) EXPECT_EQ(limits.open_connection("10.0.0.1"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_connection("10.0.0.1"), WebRefusal::kConnections);  // the total still holds
  for (int i = 0; i < 100; ++i) EXPECT_EQ(limits.allow_request("10.0.0.1", 0), WebRefusal::kNone);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(limits.open_stream("10.0.0.1"), WebRefusal::kNone);
  EXPECT_EQ(limits.open_stream("10.0.0.1"), WebRefusal::kStreams);
}

TEST(WebLimits, IdleAddressesAreForgottenOnceTheirBudgetIsFull) {
  AddressLimits limits(small());
  EXPECT_EQ(limits.open_connection("1.1.1.1"), WebRefusal::kNone);
  EXPECT_EQ(limits.allow_request("2.2.2.2", 0), WebRefusal::kNone);
  EXPECT_EQ(limits.addresses(), 2u);
  limits.forget_idle(1'000'000);  // 2.2.2.2's bucket takes 2 s to refill (4 requests at 2 a second)
  EXPECT_EQ(limits.addresses(), 2u);
  limits.forget_idle(2'000'001);
  EXPECT_EQ(limits.addresses(), 1u);  // 1.1.1.1 still has a connection
  limits.close_connection("1.1.1.1");
  limits.forget_idle(2'000'002);
  EXPECT_EQ(limits.addresses(), 0u);
}

}  // namespace
}  // namespace sr::server::web
