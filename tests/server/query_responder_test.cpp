// Server queries and hub challenges as the game loop answers them (server/query_responder.h), with a fake clock.
#include "server/query_responder.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include "common/protocol/server_query.h"

namespace sr::server {
namespace {

IpAddress v4(const char* text) {
  in_addr a{};
  EXPECT_EQ(inet_pton(AF_INET, text, &a), 1);
  return ipv4_address(a.s_addr);
}

const std::string kToken = "00112233445566778899aabbccddeeff";

TEST(QueryResponder, AnswersAQueryWithTheNonceAndTheInfo) {
  QueryResponder responder;
  responder.set_info_source([] { return std::string(R"({"name":"x"})"); });
  const auto reply = responder.handle(protocol::encode_query(42), v4("192.0.2.1"), 1'000);
  ASSERT_TRUE(reply);
  EXPECT_EQ(*reply, protocol::encode_info(42, R"({"name":"x"})"));
  EXPECT_EQ(responder.answered(), 1u);
  EXPECT_EQ(responder.dropped(), 0u);
}

TEST(QueryResponder, IgnoresQueriesOfAnotherLengthOrVersionWithoutCountingThem) {
  QueryResponder responder;
  auto short_query = protocol::encode_query(1);
  short_query.pop_back();
  auto other_version = protocol::encode_query(1);
  other_version[7] = 2;
  EXPECT_FALSE(responder.handle(short_query, v4("192.0.2.1"), 0));
  EXPECT_FALSE(responder.handle(other_version, v4("192.0.2.1"), 0));
  EXPECT_EQ(responder.answered(), 0u);
  EXPECT_EQ(responder.dropped(), 0u);
}

TEST(QueryResponder, AnswersTwentyASecondFromOneAddress) {
  QueryResponder responder;
  int answered = 0;
  for (int i = 0; i < 30; ++i) answered += responder.handle(protocol::encode_query(i), v4("192.0.2.1"), 0) ? 1 : 0;
  EXPECT_EQ(answered, 20);
  EXPECT_EQ(responder.answered(), 20u);
  EXPECT_EQ(responder.dropped(), 10u);
  // Another address has its own 20.
  EXPECT_TRUE(responder.handle(protocol::encode_query(99), v4("192.0.2.2"), 0));
  // 49 ms later not one more from the first; at 50 ms one (20 a second).
  EXPECT_FALSE(responder.handle(protocol::encode_query(1), v4("192.0.2.1"), 49'999));
  EXPECT_TRUE(responder.handle(protocol::encode_query(1), v4("192.0.2.1"), 50'000));
  EXPECT_FALSE(responder.handle(protocol::encode_query(1), v4("192.0.2.1"), 50'000));
  // A second later, a full 20 again.
  answered = 0;
  for (int i = 0; i < 30; ++i)
    answered += responder.handle(protocol::encode_query(i), v4("192.0.2.1"), 2'000'000) ? 1 : 0;
  EXPECT_EQ(answered, 20);
}

TEST(QueryResponder, AnswersTwoThousandASecondInAll) {
  QueryResponder responder;
  int answered = 0;
  // 300 addresses, 10 queries each, all at once: 3,000 asked, within every address's 20.
  for (std::uint32_t a = 0; a < 300; ++a) {
    for (int i = 0; i < 10; ++i) {
      answered += responder.handle(protocol::encode_query(i), ipv4_address(htonl(0x0A000000u + a)), 0) ? 1 : 0;
    }
  }
  EXPECT_EQ(answered, 2000);
  EXPECT_EQ(responder.dropped(), 1000u);
  // 10 ms later the total has 20 more (2,000 a second), whichever addresses ask.
  answered = 0;
  for (std::uint32_t a = 300; a < 340; ++a) {
    answered += responder.handle(protocol::encode_query(1), ipv4_address(htonl(0x0A000000u + a)), 10'000) ? 1 : 0;
  }
  EXPECT_EQ(answered, 20);
}

TEST(QueryResponder, ForgetsAddressesIdleForASecond) {
  QueryResponder responder;
  for (std::uint32_t a = 0; a < 50; ++a) (void)responder.handle(protocol::encode_query(1), ipv4_address(a), 0);
  EXPECT_EQ(responder.addresses_tracked(), 50u);
  (void)responder.handle(protocol::encode_query(1), v4("192.0.2.1"), 1'000'000);
  EXPECT_EQ(responder.addresses_tracked(), 1u);
}

TEST(QueryResponder, RebuildsTheInfoWhenAQueryFindsItOlderThan200Ms) {
  QueryResponder responder;
  int built = 0;
  responder.set_info_source([&] { return "{\"n\":" + std::to_string(++built) + "}"; });
  EXPECT_EQ(*responder.handle(protocol::encode_query(1), v4("192.0.2.1"), 0), protocol::encode_info(1, R"({"n":1})"));
  EXPECT_EQ(*responder.handle(protocol::encode_query(2), v4("192.0.2.1"), 199'999),
            protocol::encode_info(2, R"({"n":1})"));
  EXPECT_EQ(*responder.handle(protocol::encode_query(3), v4("192.0.2.1"), 200'000),
            protocol::encode_info(3, R"({"n":2})"));
  EXPECT_EQ(built, 2);
}

TEST(HubChallenge, TakenFromTheDirectorysAddressOnly) {
  DirectoryLink link;
  link.set_directory_addresses({v4("203.0.113.5")});
  QueryResponder responder;
  responder.set_directories({&link});
  EXPECT_FALSE(responder.handle(protocol::encode_challenge(kToken), v4("198.51.100.9"), 0));
  EXPECT_EQ(link.take_token(0), std::nullopt);
  EXPECT_FALSE(responder.handle(protocol::encode_challenge(kToken), v4("203.0.113.5"), 0));  // never answered
  EXPECT_EQ(responder.challenges_kept(), 1u);
  EXPECT_EQ(link.take_token(1'000), kToken);
  EXPECT_EQ(link.take_token(1'000), std::nullopt);  // used once
}

TEST(HubChallenge, IgnoredWhenTheServerIsNotPublic) {
  QueryResponder responder;  // no directories
  EXPECT_FALSE(responder.handle(protocol::encode_challenge(kToken), v4("203.0.113.5"), 0));
  EXPECT_EQ(responder.challenges_kept(), 0u);
}

TEST(HubChallenge, TheLatestTokenIsKeptFor60Seconds) {
  DirectoryLink link;
  link.set_directory_addresses({v4("203.0.113.5")});
  const std::string later = "ffeeddccbbaa99887766554433221100";
  EXPECT_TRUE(link.offer_token(v4("203.0.113.5"), kToken, 0));
  EXPECT_TRUE(link.offer_token(v4("203.0.113.5"), later, 1'000));
  EXPECT_EQ(link.take_token(60'001'000), later);  // 60 s after it came
  EXPECT_TRUE(link.offer_token(v4("203.0.113.5"), kToken, 0));
  EXPECT_EQ(link.take_token(60'000'001), std::nullopt);
}

}  // namespace
}  // namespace sr::server
