// common/protocol/web_url.h: which addresses a server may announce as its web pages, and their parts.
#include "common/protocol/web_url.h"

#include <gtest/gtest.h>

#include <string>

#include "common/protocol/text.h"

namespace sr::protocol {
namespace {

std::string why_not(std::string_view text) {
  auto url = parse_web_url(text);
  return url ? std::string("(accepted)") : url.error();
}

TEST(WebUrl, PartsOfHttpAndHttpsUrls) {
  EXPECT_EQ(parse_web_url("http://example.org").value(), (WebUrl{false, "example.org", 80, ""}));
  EXPECT_EQ(parse_web_url("http://127.0.0.1:8080/").value(), (WebUrl{false, "127.0.0.1", 8080, "/"}));
  EXPECT_EQ(parse_web_url("https://races.example.org/stack-race/v1").value(),
            (WebUrl{true, "races.example.org", 443, "/stack-race/v1"}));
  EXPECT_EQ(parse_web_url("http://[::1]:9000/sr").value(), (WebUrl{false, "::1", 9000, "/sr"}));
  EXPECT_EQ(parse_web_url("http://h:65535/a%2Fb~c").value(), (WebUrl{false, "h", 65535, "/a%2Fb~c"}));
}

TEST(WebUrl, ToStringWritesThePortOnlyWhenItIsNotTheDefault) {
  EXPECT_EQ(to_string(WebUrl{false, "example.org", 80, "/x"}), "http://example.org/x");
  EXPECT_EQ(to_string(WebUrl{false, "example.org", 443, ""}), "http://example.org:443");
  EXPECT_EQ(to_string(WebUrl{true, "example.org", 443, "/"}), "https://example.org/");
  EXPECT_EQ(to_string(WebUrl{false, "::1", 8080, "/g"}), "http://[::1]:8080/g");
}

TEST(WebUrl, HostileOrMalformedAddressesAreRefusedWithTheReason) {
  EXPECT_EQ(why_not("javascript:alert(1)"), "it does not start with http:// or https://");
  EXPECT_EQ(why_not("HTTP://example.org"), "it does not start with http:// or https://");
  EXPECT_EQ(why_not("ftp://example.org"), "it does not start with http:// or https://");
  EXPECT_EQ(why_not("http://"), "it has no host");
  EXPECT_EQ(why_not("http:///games"), "it has no host");
  EXPECT_EQ(why_not("http://user@evil.example/"), "it has user info ('@') before its host");
  EXPECT_EQ(why_not("http://a b/"), "its host holds a character other than a-z, 0-9, '.' and '-'");
  EXPECT_EQ(why_not("http://-a/"), "its host starts or ends with '.' or '-'");
  EXPECT_EQ(why_not("http://h:0/"), "its port is not a number of 1 to 65535");
  EXPECT_EQ(why_not("http://h:65536/"), "its port is not a number of 1 to 65535");
  EXPECT_EQ(why_not("http://h:080000/"), "its port is not a number of 1 to 65535");
  EXPECT_EQ(why_not("http://h:/"), "it has an empty port");
  EXPECT_EQ(why_not("http://h:8x/"), "its port is not a number of 1 to 65535");
  EXPECT_EQ(why_not("http://[::1/"), "its IPv6 host has no closing ']'");
  EXPECT_EQ(why_not("http://[::g]/"), "its IPv6 host holds a character other than hex, ':' and '.'");
  EXPECT_EQ(why_not("http://h/a?b=1"), "it has a query ('?')");
  EXPECT_EQ(why_not("http://h?b=1"), "it has a query or a fragment");
  EXPECT_EQ(why_not("http://h/a#top"), "it has a fragment ('#')");
  EXPECT_EQ(why_not("http://h/a b"), "its path holds a character that is not allowed there at index 2");
  EXPECT_EQ(why_not("http://h/<script>"), "its path holds a character that is not allowed there at index 1");
  EXPECT_EQ(why_not("http://h/%zz"), "its path has a '%' at index 1 without two hex digits");
  EXPECT_EQ(why_not("http://h/\xE2\x80\xAE"), "its path holds a character that is not allowed there at index 1");
  EXPECT_EQ(why_not("http://h/\n"), "its path holds a character that is not allowed there at index 1");
}

TEST(WebUrl, AtMost200Bytes) {
  const std::string base = "http://h/";
  EXPECT_TRUE(parse_web_url(base + std::string(kMaxWebUrlBytes - base.size(), 'p')).ok());
  EXPECT_EQ(why_not(base + std::string(kMaxWebUrlBytes - base.size() + 1, 'p')), "it has 201 bytes, at most 200");
}

TEST(WebUrl, IsTheTextRuleOfWelcomeWebUrl) {
  EXPECT_TRUE(check_text("", kWebUrlText).ok());
  EXPECT_TRUE(check_text("https://example.org/sr", kWebUrlText).ok());
  EXPECT_EQ(check_text("data:text/html,x", kWebUrlText).error(), "it does not start with http:// or https://");
}

}  // namespace
}  // namespace sr::protocol
