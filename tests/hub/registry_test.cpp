// hub/registry.h: the registration flow of common/protocol/DIRECTORY.md section 3 with a fake clock (every call takes
// now_ms) and counting tokens, the caps, and the rate limit.
#include "hub/registry.h"

#include <gtest/gtest.h>

#include "hub/hub_pages.h"
#include "tests/hub/hub_test_support.h"

namespace sr::hub::test {
namespace {

constexpr const char* kAddress = "203.0.113.7";
constexpr const char* kChallengeBody = R"({"status":"challenge","retry_ms":500})";

std::string token(unsigned n) {
  char text[33];
  std::snprintf(text, sizeof text, "%032x", n);
  return text;
}

std::string listed_body(const std::string& secret) {
  return R"({"status":"listed","secret":")" + secret + R"(","every_s":10,"expires_s":30})";
}

TEST(Registry, AServerIsChallengedListedRenewedAndExpires) {
  Registry r(HubLimits{}, CountingTokens());

  const RegisterAnswer a = r.register_server(kAddress, body(7777), 0);
  EXPECT_EQ(a.outcome, Outcome::kChallenged);
  EXPECT_EQ(a.http_status, 202);
  EXPECT_EQ(a.body, kChallengeBody);
  EXPECT_EQ(a.address, kAddress);
  EXPECT_EQ(a.port, 7777);
  EXPECT_EQ(a.challenge_token, token(1));
  EXPECT_EQ(r.open_challenges(), 1u);
  EXPECT_TRUE(r.listed(0).empty()) << "not listed before it answers the challenge";

  const RegisterAnswer b = r.register_server(kAddress, body(7777, token(1)), 400);
  EXPECT_EQ(b.outcome, Outcome::kListed);
  EXPECT_EQ(b.http_status, 200);
  EXPECT_EQ(b.body, listed_body(token(2)));
  EXPECT_TRUE(b.challenge_token.empty());
  EXPECT_EQ(r.open_challenges(), 0u);
  ASSERT_EQ(r.listed(400).size(), 1u);
  EXPECT_EQ(r.listed(400)[0].address, kAddress);
  EXPECT_EQ(r.listed(400)[0].port, 7777);
  EXPECT_EQ(r.listed(400)[0].info.name, "Ada's server");
  EXPECT_EQ(r.listed(400)[0].seen_s, 0);
  EXPECT_EQ(r.listed(10'399)[0].seen_s, 9);

  const RegisterAnswer c = r.register_server(kAddress, body(7777, "", token(2), info_json("Ada's renamed")), 10'400);
  EXPECT_EQ(c.outcome, Outcome::kRenewed);
  EXPECT_EQ(c.http_status, 200);
  EXPECT_EQ(c.body, listed_body(token(2))) << "a renewal keeps the secret";
  ASSERT_EQ(r.listed(10'400).size(), 1u);
  EXPECT_EQ(r.listed(10'400)[0].info.name, "Ada's renamed");

  // expires_s = 30 after the latest renewal.
  EXPECT_EQ(r.listed(40'399).size(), 1u);
  EXPECT_TRUE(r.listed(40'400).empty());
  r.expire(40'400);
  EXPECT_EQ(r.listed_count(), 0u);

  // The next registration, secret and all, starts with a challenge again.
  const RegisterAnswer d = r.register_server(kAddress, body(7777, "", token(2)), 40'400);
  EXPECT_EQ(d.outcome, Outcome::kChallenged);
  EXPECT_EQ(d.challenge_token, token(3));

  EXPECT_EQ(r.count(Outcome::kChallenged), 2u);
  EXPECT_EQ(r.count(Outcome::kListed), 1u);
  EXPECT_EQ(r.count(Outcome::kRenewed), 1u);
}

TEST(Registry, AskingAgainBeforeAnsweringSendsTheSameToken) {
  Registry r(HubLimits{}, CountingTokens());
  EXPECT_EQ(r.register_server(kAddress, body(7777), 0).challenge_token, token(1));
  EXPECT_EQ(r.register_server(kAddress, body(7777), 500).challenge_token, token(1));
  EXPECT_EQ(r.open_challenges(), 1u);
}

TEST(Registry, AWrongTokenIsRefused) {
  Registry r(HubLimits{}, CountingTokens());
  (void)r.register_server(kAddress, body(7777), 0);
  const RegisterAnswer a = r.register_server(kAddress, body(7777, token(9)), 100);
  EXPECT_EQ(a.outcome, Outcome::kWrongToken);
  EXPECT_EQ(a.http_status, 403);
  EXPECT_EQ(a.body, R"({"error":"the token is not the one the directory sent to 203.0.113.7:7777"})");
  EXPECT_TRUE(r.listed(100).empty());
  // The token of another address's challenge proves nothing here either.
  (void)r.register_server("198.51.100.1", body(7777), 0);  // token 2
  EXPECT_EQ(r.register_server(kAddress, body(7777, token(2)), 100).outcome, Outcome::kWrongToken);
  EXPECT_EQ(r.register_server(kAddress, body(7778, token(1)), 100).outcome, Outcome::kChallenged)
      << "no challenge open for that port: a new one";
}

TEST(Registry, AWrongSecretIsRefusedAndTheListingKept) {
  Registry r(HubLimits{}, CountingTokens());
  ASSERT_EQ(list_server(r, kAddress, 7777, 0), token(2));
  const RegisterAnswer a = r.register_server(kAddress, body(7777, "", token(7), info_json("Mallory")), 100);
  EXPECT_EQ(a.outcome, Outcome::kWrongSecret);
  EXPECT_EQ(a.http_status, 403);
  EXPECT_EQ(
      a.body,
      R"({"error":"the secret does not match this server's listing; register without it to be challenged again"})");
  ASSERT_EQ(r.listed(100).size(), 1u);
  EXPECT_EQ(r.listed(100)[0].info.name, "Ada's server");
}

TEST(Registry, AChallengeLapsesAfterItsTime) {
  Registry r(HubLimits{}, CountingTokens());
  (void)r.register_server(kAddress, body(7777), 0);
  const RegisterAnswer late = r.register_server(kAddress, body(7777, token(1)), 10'000);
  EXPECT_EQ(late.outcome, Outcome::kChallenged) << "the lapsed token starts a new challenge";
  EXPECT_EQ(late.challenge_token, token(2));
  EXPECT_EQ(r.register_server(kAddress, body(7777, token(2)), 19'999).outcome, Outcome::kListed);
}

TEST(Registry, AnAddressListsAtMostItsServers) {
  HubLimits limits;
  limits.servers_per_address = 2;
  Registry r(limits, CountingTokens());
  EXPECT_FALSE(list_server(r, kAddress, 7001, 0).empty());
  EXPECT_FALSE(list_server(r, kAddress, 7002, 0).empty());
  const RegisterAnswer a = r.register_server(kAddress, body(7003), 0);
  EXPECT_EQ(a.outcome, Outcome::kAddressServers);
  EXPECT_EQ(a.http_status, 429);
  EXPECT_EQ(a.body, R"({"error":"203.0.113.7 has 2 servers listed, the most"})");
  EXPECT_EQ(r.open_challenges(), 0u) << "refused before anything is stored";
  // A listed server may still be challenged again (a restart that lost its secret), and another address lists.
  EXPECT_EQ(r.register_server(kAddress, body(7001), 0).outcome, Outcome::kChallenged);
  EXPECT_FALSE(list_server(r, "198.51.100.1", 7003, 0).empty());
  // Once one expires, there is room again.
  EXPECT_EQ(r.register_server(kAddress, body(7003), 30'000).outcome, Outcome::kChallenged);
}

TEST(Registry, AnAddressHasAtMostItsOpenChallenges) {
  HubLimits limits;
  limits.challenges_per_address = 3;
  Registry r(limits, CountingTokens());
  for (int port = 7001; port <= 7003; ++port) {
    EXPECT_EQ(r.register_server(kAddress, body(port), 0).outcome, Outcome::kChallenged);
  }
  const RegisterAnswer a = r.register_server(kAddress, body(7004), 0);
  EXPECT_EQ(a.outcome, Outcome::kAddressChallenges);
  EXPECT_EQ(a.http_status, 429);
  EXPECT_EQ(a.body, R"({"error":"203.0.113.7 has 3 challenges open, the most"})");
  EXPECT_EQ(r.open_challenges(), 3u);
  // Lapsed challenges make room.
  EXPECT_EQ(r.register_server(kAddress, body(7004), 10'000).outcome, Outcome::kChallenged);
  EXPECT_EQ(r.open_challenges(), 1u);
}

TEST(Registry, AFullDirectoryAnswers503) {
  HubLimits limits;
  limits.max_servers = 2;
  limits.max_challenges = 3;
  Registry r(limits, CountingTokens());
  EXPECT_FALSE(list_server(r, "198.51.100.1", 7777, 0).empty());
  EXPECT_FALSE(list_server(r, "198.51.100.2", 7777, 0).empty());
  const RegisterAnswer a = r.register_server("198.51.100.3", body(7777), 0);
  EXPECT_EQ(a.outcome, Outcome::kFull);
  EXPECT_EQ(a.http_status, 503);
  EXPECT_EQ(a.body, R"({"error":"the directory is full; try again later"})");
  EXPECT_EQ(r.listed_count(), 2u);

  // Open challenges in all: three may be open (for listed servers re-proving themselves), not four.
  Registry c(limits, CountingTokens());
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(c.register_server("198.51.100." + std::to_string(i), body(7777), 0).outcome, Outcome::kChallenged);
  }
  EXPECT_EQ(c.register_server("198.51.100.4", body(7777), 0).outcome, Outcome::kFull);
  EXPECT_EQ(c.open_challenges(), 3u);
  EXPECT_EQ(c.count(Outcome::kFull), 1u);
}

TEST(Registry, RegistrationsPerSecondAreLimitedPerAddress) {
  HubLimits limits;  // 5 a second after a burst of 10
  Registry r(limits, CountingTokens());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(r.register_server(kAddress, body(7777), 0).outcome, Outcome::kChallenged);
  const RegisterAnswer a = r.register_server(kAddress, body(7777), 0);
  EXPECT_EQ(a.outcome, Outcome::kRateLimited);
  EXPECT_EQ(a.http_status, 429);
  EXPECT_EQ(a.body, R"({"error":"too many registrations from 203.0.113.7: at most 5 a second"})");
  EXPECT_EQ(r.register_server(kAddress, body(7777), 199).outcome, Outcome::kRateLimited);
  EXPECT_EQ(r.register_server(kAddress, body(7777), 200).outcome, Outcome::kChallenged) << "one token per 200 ms";
  EXPECT_EQ(r.register_server(kAddress, body(7777), 200).outcome, Outcome::kRateLimited);
  EXPECT_EQ(r.register_server("198.51.100.1", body(7777), 0).outcome, Outcome::kChallenged) << "another address";
  // Malformed bodies count too: a flood of garbage is limited like the rest.
  EXPECT_EQ(r.register_server(kAddress, "garbage", 200).outcome, Outcome::kRateLimited);
  EXPECT_EQ(r.count(Outcome::kRateLimited), 4u);
}

TEST(Registry, AnIpv6Slash64CountsAsOneAddress) {
  HubLimits limits;
  limits.servers_per_address = 1;
  Registry r(limits, CountingTokens());
  EXPECT_FALSE(list_server(r, "2001:db8:1:2::10", 7777, 0).empty());
  const RegisterAnswer a = r.register_server("2001:db8:1:2::11", body(7777), 0);
  EXPECT_EQ(a.outcome, Outcome::kAddressServers);
  EXPECT_EQ(a.body, R"({"error":"2001:db8:1:2::/64 has 1 servers listed, the most"})");
  EXPECT_FALSE(list_server(r, "2001:db8:1:3::10", 7777, 0).empty()) << "another /64";
}

TEST(Registry, AnIpv4ClientOfADualStackSocketIsListedAtItsIpv4Address) {
  Registry r(HubLimits{}, CountingTokens());
  const RegisterAnswer a = r.register_server("::ffff:203.0.113.7", body(7777), 0);
  EXPECT_EQ(a.address, "203.0.113.7");
  ASSERT_FALSE(list_server(r, "::ffff:203.0.113.7", 7777, 0).empty());
  EXPECT_EQ(r.listed(0)[0].address, "203.0.113.7");
}

TEST(Registry, TheListIsExactForAKnownRegistry) {
  Registry r(HubLimits{}, CountingTokens());
  const std::string bare = R"({"name":"b <b>","protocol":7,"players":0,"capacity":16})";
  ASSERT_FALSE(list_server(r, "2001:db8::1", 7777, 1'000, bare).empty());
  ASSERT_FALSE(list_server(r, kAddress, 7777, 0).empty());
  EXPECT_EQ(servers_json(r.listed(5'500)),
            R"({"servers":[)"
            R"({"address":"2001:db8::1","port":7777,"name":"b \u003cb\u003e","protocol":7,"version":"","players":0,)"
            R"("capacity":16,"rooms":[],"racing":false,"ladder":false,"seen_s":4},)"
            R"({"address":"203.0.113.7","port":7777,"name":"Ada's server","protocol":7,"version":"0.9.0","players":3,)"
            R"("capacity":256,"rooms":[{"name":"sprint 40","mode":"sprint","racers":2,"max_racers":8,)"
            R"("phase":"racing"}],"racing":true,"ladder":false,"web":"http://example.org:8080/","seen_s":5}]})");
  EXPECT_EQ(servers_json({}), R"({"servers":[]})");
}

}  // namespace
}  // namespace sr::hub::test
