// hub/address_limiter.h: address groups, and the token bucket's table bounded by evicting the least recently seen.
#include "hub/address_limiter.h"

#include <gtest/gtest.h>

namespace sr::hub {
namespace {

TEST(AddressGroup, Ipv4IsItselfAndIpv6IsItsSlash64) {
  EXPECT_EQ(address_group("203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(address_group("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
  EXPECT_EQ(address_group("::1"), "::/64");
  EXPECT_EQ(canonical_address("::ffff:203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(canonical_address("::ffff:1"), "::ffff:1");
  EXPECT_EQ(canonical_address("2001:db8::1"), "2001:db8::1");
}

TEST(AddressRateLimiter, ABucketRefillsAtItsRateUpToItsBurst) {
  AddressRateLimiter limiter(5, 10, 100);
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(limiter.allow("a", 1'000));
  EXPECT_FALSE(limiter.allow("a", 1'000));
  EXPECT_FALSE(limiter.allow("a", 1'199));
  EXPECT_TRUE(limiter.allow("a", 1'200));
  // A long silence refills to the burst, no more.
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(limiter.allow("a", 100'000));
  EXPECT_FALSE(limiter.allow("a", 100'000));
  // A clock going backwards adds nothing.
  EXPECT_FALSE(limiter.allow("a", 50'000));
}

TEST(AddressRateLimiter, TheTableForgetsTheLeastRecentlySeenAddress) {
  AddressRateLimiter limiter(1, 1, 2);
  EXPECT_TRUE(limiter.allow("a", 0));
  EXPECT_TRUE(limiter.allow("b", 0));
  EXPECT_FALSE(limiter.allow("a", 0));  // a is now the most recently seen
  EXPECT_TRUE(limiter.allow("c", 0));   // forgets b
  EXPECT_EQ(limiter.size(), 2u);
  EXPECT_FALSE(limiter.allow("a", 0)) << "a was kept";
  EXPECT_TRUE(limiter.allow("b", 0)) << "b was forgotten and starts full";
  EXPECT_EQ(limiter.size(), 2u);
}

}  // namespace
}  // namespace sr::hub
