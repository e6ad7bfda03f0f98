// hub/hub_challenge.h: the challenge datagram byte for byte (DIRECTORY.md section 1, KIND 'h'), and the sender's
// refusal of what is not an address. Its delivery is checked end to end in hub_http_test.cpp.
#include "hub/hub_challenge.h"

#include <gtest/gtest.h>

namespace sr::hub {
namespace {

TEST(HubChallenge, TheDatagramIsFrozen) {
  const std::vector<std::uint8_t> d = challenge_datagram("0123456789abcdef0123456789abcdef");
  const std::vector<std::uint8_t> expected = {
      0xFF, 0xFF, 0xFF, 0xFF, 's', 'r', 'h',  // prefix and KIND 'h' (DIRECTORY.md section 1)
      0x01,                                   // version
      '0',  '1',  '2',  '3',  '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f',  // token, 32 hex digits
      '0',  '1',  '2',  '3',  '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
  EXPECT_EQ(d, expected);
  EXPECT_EQ(d.size(), kChallengeBytes);
}

TEST(HubChallenge, TheSenderRefusesWhatIsNotAnAddress) {
  ChallengeSender sender;
  auto sent = sender.send("example.org", 7777, "0123456789abcdef0123456789abcdef");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error(), "'example.org' is not an IP address");
}

}  // namespace
}  // namespace sr::hub
