// Request heads as browsers and attackers send them (server/web/http_request.h).
#include "server/web/http_request.h"

#include <gtest/gtest.h>

#include <string>

namespace sr::server::web {
namespace {

ParseResult parse(const std::string& bytes, HttpRequest& req) { return parse_request(bytes, req); }

TEST(HttpRequest, ABrowsersGetIsParsed) {
  HttpRequest req;
  const std::string head =
      "GET /games/0123456789abcdef?x=1 HTTP/1.1\r\nHost: example.org\r\nAccept-Encoding: gzip, br\r\n"
      "If-None-Match:  \"abc\" \r\n\r\n";
  const ParseResult r = parse(head + "GET / HTTP/1.1\r\n", req);
  ASSERT_EQ(r.status, ParseStatus::kDone) << r.error;
  EXPECT_EQ(r.consumed, head.size());
  EXPECT_EQ(req.method, "GET");
  EXPECT_EQ(req.target, "/games/0123456789abcdef?x=1");
  EXPECT_EQ(req.path, "/games/0123456789abcdef");
  EXPECT_EQ(req.query, "x=1");
  EXPECT_EQ(req.version_minor, 1);
  EXPECT_TRUE(req.keep_alive);
  EXPECT_EQ(req.header("host"), "example.org");
  EXPECT_EQ(req.header("if-none-match"), "\"abc\"");
  EXPECT_EQ(req.header("accept"), std::nullopt);
}

TEST(HttpRequest, AHeadWithoutItsBlankLineIsIncomplete) {
  HttpRequest req;
  EXPECT_EQ(parse("GET / HTTP/1.1\r\nHost: x\r\n", req).status, ParseStatus::kIncomplete);
  EXPECT_EQ(parse("", req).status, ParseStatus::kIncomplete);
}

TEST(HttpRequest, ConnectionCloseAndHttp10EndTheConnection) {
  HttpRequest req;
  ASSERT_EQ(parse("GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n", req).status, ParseStatus::kDone);
  EXPECT_FALSE(req.keep_alive);
  ASSERT_EQ(parse("GET / HTTP/1.0\r\n\r\n", req).status, ParseStatus::kDone);
  EXPECT_EQ(req.version_minor, 0);
  EXPECT_FALSE(req.keep_alive);
}

TEST(HttpRequest, EmptyLinesBeforeARequestAreSkipped) {
  HttpRequest req;
  const ParseResult r = parse("\r\n\r\nGET /verify HTTP/1.1\r\n\r\n", req);
  ASSERT_EQ(r.status, ParseStatus::kDone);
  EXPECT_EQ(r.consumed, 4u + 24u);
  EXPECT_EQ(req.path, "/verify");
}

TEST(HttpRequest, PercentEscapesAreDecodedButNeverLeaveTheSite) {
  HttpRequest req;
  ASSERT_EQ(parse("GET /js/a%2Db.js HTTP/1.1\r\n\r\n", req).status, ParseStatus::kDone);
  EXPECT_EQ(req.path, "/js/a-b.js");
  for (const char* target : {"/js/../secret", "/%2e%2e/etc/passwd", "/js/%2E", "/a\\b", "/a%5cb", "/a%00b", "/a%zz",
                             "/a%2", "/games#frag"}) {
    const ParseResult r = parse(std::string("GET ") + target + " HTTP/1.1\r\n\r\n", req);
    EXPECT_EQ(r.status, ParseStatus::kBad) << target;
  }
}

TEST(HttpRequest, MalformedHeadsAreBad) {
  HttpRequest req;
  const char* heads[] = {
      "GET\r\n\r\n",
      "GET /  HTTP/1.1\r\n\r\n",
      "GET / HTTP/2.0\r\n\r\n",
      "GET / HTTP/1.1 extra\r\n\r\n",
      "GE(T / HTTP/1.1\r\n\r\n",
      "GET http://example.org/ HTTP/1.1\r\n\r\n",
      "GET * HTTP/1.1\r\n\r\n",
      "GET /\x7f HTTP/1.1\r\n\r\n",
      "GET /\xc3\xa9 HTTP/1.1\r\n\r\n",
      "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
      "GET / HTTP/1.1\r\n: empty name\r\n\r\n",
      "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
      "GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n",
      "GET / HTTP/1.1\r\nX: a\x01b\r\n\r\n",
      "GET / HTTP/1.1\r\nContent-Length: 1x\r\n\r\n",
  };
  for (const char* head : heads) EXPECT_EQ(parse(head, req).status, ParseStatus::kBad) << head;
}

TEST(HttpRequest, BodiesAreNotTaken) {
  HttpRequest req;
  EXPECT_EQ(parse("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", req).status, ParseStatus::kHasBody);
  EXPECT_EQ(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", req).status, ParseStatus::kHasBody);
  const ParseResult zero = parse("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", req);
  EXPECT_EQ(zero.status, ParseStatus::kDone);
}

TEST(HttpRequest, HugeHeadsAndTooManyHeadersAreRefused) {
  HttpRequest req;
  const std::string big = "GET /" + std::string(kMaxHeadBytes, 'a');
  EXPECT_EQ(parse(big, req).status, ParseStatus::kTooLarge);
  EXPECT_EQ(parse(big + " HTTP/1.1\r\n\r\n", req).status, ParseStatus::kTooLarge);
  std::string many = "GET / HTTP/1.1\r\n";
  for (std::size_t i = 0; i <= kMaxHeaders; ++i) many += "X-" + std::to_string(i) + ": 1\r\n";
  EXPECT_EQ(parse(many + "\r\n", req).status, ParseStatus::kTooLarge);
}

TEST(HttpRequest, QueriesAreDecodedInOrder) {
  const auto q = parse_query("mode=sprint&player=a%20b+c&&flag&empty=&x=%3Cscript%3E");
  ASSERT_TRUE(q.has_value());
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"mode", "sprint"}, {"player", "a b c"}, {"flag", ""}, {"empty", ""}, {"x", "<script>"}};
  EXPECT_EQ(*q, expected);
  EXPECT_FALSE(parse_query("a=%").has_value());
  EXPECT_FALSE(parse_query("a=%00").has_value());
  EXPECT_EQ(percent_decode("a+b"), "a+b");
  EXPECT_EQ(percent_decode("a+b", true), "a b");
}

}  // namespace
}  // namespace sr::server::web
