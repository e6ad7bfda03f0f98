// client/web/background_get.h: a GET on a thread of its own against a loopback server. The answer comes to ready() and
// take(), the query reaches the server as written, a URL that is no web address is answered at once, and dropping a
// fetch that is still waiting for a silent server returns at once.
#include "client/web/background_get.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/client/http_test_server.h"

namespace sr::client {
namespace {

using namespace std::chrono_literals;
using sr::test::HttpTestServer;

std::string base(const HttpTestServer& server) { return "http://127.0.0.1:" + std::to_string(server.port()); }

TEST(BackgroundGet, TheAnswerComesWithItsQueryAsked) {
  HttpTestServer server("HTTP/1.1 200 OK\r\nContent-Length: 13\r\n\r\n{\"boards\":[]}");
  BackgroundGet get(base(server) + "/api/records/sprint-40l?list=trusted&offset=0&limit=20", HttpGetLimits{});
  ASSERT_TRUE(get.wait_until(std::chrono::steady_clock::now() + 30s));
  EXPECT_TRUE(get.ready());
  auto answer = get.take();
  ASSERT_TRUE(answer.ok()) << answer.error().message;
  EXPECT_EQ(std::string(answer.value().begin(), answer.value().end()), "{\"boards\":[]}");
  EXPECT_FALSE(get.ready());  // taken
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].substr(0, server.requests()[0].find("\r\n")),
            "GET /api/records/sprint-40l?list=trusted&offset=0&limit=20 HTTP/1.1");
}

TEST(BackgroundGet, AFailureIsTheAnswer) {
  HttpTestServer server("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
  BackgroundGet get(base(server) + "/api/records", HttpGetLimits{});
  ASSERT_TRUE(get.wait_until(std::chrono::steady_clock::now() + 30s));
  auto answer = get.take();
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, HttpErrorKind::kStatus);
  EXPECT_EQ(answer.error().status, 404);
}

TEST(BackgroundGet, AnAddressThatIsNotOneIsAnsweredAtOnce) {
  BackgroundGet ftp("ftp://hub.example.org/api/records", HttpGetLimits{});
  ASSERT_TRUE(ftp.ready());
  auto answer = ftp.take();
  ASSERT_FALSE(answer.ok());
  EXPECT_EQ(answer.error().kind, HttpErrorKind::kUnreachable);
  EXPECT_EQ(answer.error().message,
            "\"ftp://hub.example.org/api/records\" is not a web address: it does not start with http:// or https://");
  BackgroundGet space("http://hub.example.org/api/records?list=a b", HttpGetLimits{});
  ASSERT_TRUE(space.ready());
  EXPECT_EQ(space.take().error().message,
            "\"http://hub.example.org/api/records?list=a b\" is not a web address: its query has a ' '");
}

TEST(BackgroundGet, DroppingAFetchStillWaitingNeverWaits) {
  HttpTestServer silent("", true);  // accepts, reads the request, says nothing
  HttpGetLimits limits;
  limits.timeout = 20s;
  const auto start = std::chrono::steady_clock::now();
  {
    BackgroundGet get(base(silent) + "/api/records", limits);
    EXPECT_FALSE(get.ready());
  }
  // Far below the fetch's 20 s: the thread goes on alone and its answer is dropped.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  // A moved-from fetch has nothing to say.
  BackgroundGet a(base(silent) + "/api/records", limits);
  BackgroundGet b = std::move(a);
  EXPECT_FALSE(a.ready());  // NOLINT(bugprone-use-after-move): what a moved-from fetch says is the point
  EXPECT_FALSE(b.ready());
}

}  // namespace
}  // namespace sr::client
