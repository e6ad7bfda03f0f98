#include "net/host_port.h"

#include <gtest/gtest.h>

namespace sr::net {
namespace {

TEST(HostPort, SplitsEveryFormPlayersType) {
  EXPECT_EQ(split_host_port("race.example.org:7000", 7878), (HostPort{"race.example.org", 7000}));
  EXPECT_EQ(split_host_port("race.example.org", 7878), (HostPort{"race.example.org", 7878}));
  EXPECT_EQ(split_host_port("10.0.0.2:1", 7878), (HostPort{"10.0.0.2", 1}));
  EXPECT_EQ(split_host_port("[fe80::1]:7001", 7878), (HostPort{"fe80::1", 7001}));
  EXPECT_EQ(split_host_port("[fe80::1]", 7878), (HostPort{"fe80::1", 7878}));
  EXPECT_EQ(split_host_port("fe80::1", 7878), (HostPort{"fe80::1", 7878}));
  for (const char* bad : {"", ":7000", "host:", "host:0", "host:65536", "host:7x", "[fe80::1", "[fe80::1]7000", "[]"}) {
    EXPECT_EQ(split_host_port(bad, 7878), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace sr::net
