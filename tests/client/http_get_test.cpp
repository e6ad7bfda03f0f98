// client/web/http_get.h against a loopback server that answers with fixed bytes: what a 200 gives (Content-Length,
// chunked, up to the close), and a sentence of the right kind for everything else: a status, an oversized or cut body,
// a silent server (a short timeout), garbage, nobody listening.
#include "client/web/http_get.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/client/http_test_server.h"

namespace sr::client {
namespace {

using namespace std::chrono_literals;
using sr::test::HttpTestServer;

protocol::WebUrl at(const HttpTestServer& server, std::string path = "/games/00000000000000ff.srr") {
  return protocol::WebUrl{false, "127.0.0.1", server.port(), std::move(path)};
}

std::string text(const std::vector<std::uint8_t>& bytes) { return std::string(bytes.begin(), bytes.end()); }

std::string where(const HttpTestServer& server) { return "127.0.0.1:" + std::to_string(server.port()); }

TEST(HttpGet, ABodyWithContentLengthAndTheRequestItAnswers) {
  HttpTestServer server("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 5\r\n\r\nSRRP!");
  auto got = http_get(at(server));
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(text(got.value()), "SRRP!");
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0],
            "GET /games/00000000000000ff.srr HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(server.port()) +
                "\r\nUser-Agent: stackrace\r\nAccept: */*\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n");
}

TEST(HttpGet, AChunkedBodyIsJoined) {
  HttpTestServer server(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nSRRP\r\nA;ext=1\r\n0123456789\r\n0\r\nX-T: 1\r\n\r\n");
  auto got = http_get(at(server));
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(text(got.value()), "SRRP0123456789");
}

TEST(HttpGet, WithoutALengthTheBodyRunsToTheClose) {
  HttpTestServer server("HTTP/1.0 200 OK\r\n\r\nall of it");
  auto got = http_get(at(server));
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(text(got.value()), "all of it");
}

TEST(HttpGet, NotFoundIsAStatusError) {
  HttpTestServer server("HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found");
  auto got = http_get(at(server));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kStatus);
  EXPECT_EQ(got.error().status, 404);
  EXPECT_EQ(got.error().message, where(server) + " answered 404 Not Found");
}

TEST(HttpGet, AnOversizedBodyIsRefusedByItsLengthOrAsItArrives) {
  HttpGetLimits limits;
  limits.max_body_bytes = 1024;
  HttpTestServer said("HTTP/1.1 200 OK\r\nContent-Length: 1025\r\n\r\n" + std::string(1025, 'x'));
  auto got = http_get(at(said), limits);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kTooLarge);
  EXPECT_EQ(got.error().message, "the answer is over 1 KiB (Content-Length 1025)");

  HttpTestServer unsaid("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + std::string(5000, 'x'));
  got = http_get(at(unsaid), limits);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kTooLarge);
  EXPECT_EQ(got.error().message, "the answer is over 1 KiB");

  HttpTestServer chunked("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n400\r\n" + std::string(1024, 'x') +
                         "\r\n1\r\nx\r\n0\r\n\r\n");
  got = http_get(at(chunked), limits);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kTooLarge);

  HttpTestServer exact("HTTP/1.1 200 OK\r\nContent-Length: 1024\r\n\r\n" + std::string(1024, 'x'));
  got = http_get(at(exact), limits);
  ASSERT_TRUE(got.ok()) << got.error().message;
  EXPECT_EQ(got.value().size(), 1024u);
}

TEST(HttpGet, ABodyCutShortIsAnError) {
  HttpTestServer server("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n" + std::string(50, 'x'));
  auto got = http_get(at(server));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kBadResponse);
  EXPECT_EQ(got.error().message, where(server) + " closed the connection after 50 of 100 bytes");

  HttpTestServer chunk("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc");
  got = http_get(at(chunk));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message, where(chunk) + " closed the connection in the middle of a chunk");

  HttpTestServer head("HTTP/1.1 200 OK\r\nContent-");
  got = http_get(at(head));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().message, where(head) + " closed the connection in the middle of its answer's head");
}

// The server accepts and never answers: the short deadline ends the wait, whatever the machine's load.
TEST(HttpGet, ASilentServerTimesOut) {
  HttpTestServer server("", /*hold_open=*/true);
  HttpGetLimits limits;
  limits.timeout = 300ms;
  auto got = http_get(at(server), limits);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kTimeout);
  EXPECT_EQ(got.error().message, where(server) + " did not answer in time");

  HttpTestServer slow("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", /*hold_open=*/true);
  got = http_get(at(slow), limits);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kTimeout);
}

TEST(HttpGet, GarbageIsNotAnAnswer) {
  HttpTestServer server("SSH-2.0-OpenSSH_9.2\r\n\r\n");
  auto got = http_get(at(server));
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kBadResponse);
  EXPECT_EQ(got.error().message, where(server) + ": the answer is not HTTP/1.x");

  HttpTestServer status("HTTP/1.1 2x0 OK\r\n\r\n");
  EXPECT_EQ(http_get(at(status)).error().message, where(status) + ": the answer's status line is malformed");
  HttpTestServer header("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n");
  EXPECT_EQ(http_get(at(header)).error().message, where(header) + ": the answer has a malformed header line");
  HttpTestServer length("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n");
  EXPECT_EQ(http_get(at(length)).error().message, where(length) + ": the answer's Content-Length is malformed");
  HttpTestServer gzip("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n");
  EXPECT_EQ(http_get(at(gzip)).error().message,
            where(gzip) + ": the answer uses a transfer coding this client does not read (gzip)");
  HttpTestServer chunk("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
  EXPECT_EQ(http_get(at(chunk)).error().message, where(chunk) + " sent a malformed chunk size");
  HttpTestServer huge_head("HTTP/1.1 200 OK\r\nX: " + std::string(20000, 'h') + "\r\n\r\n");
  EXPECT_EQ(http_get(at(huge_head)).error().message, where(huge_head) + " sent a head of over 16 KiB");
  HttpTestServer nothing("");
  EXPECT_EQ(http_get(at(nothing)).error().message, where(nothing) + " closed the connection without an answer");
}

TEST(HttpGet, NobodyListeningIsUnreachable) {
  std::uint16_t port = 0;
  {
    HttpTestServer gone("");
    port = gone.port();
  }  // closed: nothing listens there now
  auto got = http_get(protocol::WebUrl{false, "127.0.0.1", port, "/"});
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error().kind, HttpErrorKind::kUnreachable);
  EXPECT_EQ(got.error().message, "cannot connect to 127.0.0.1:" + std::to_string(port) + ": Connection refused");
  got = http_get(protocol::WebUrl{true, "127.0.0.1", port, "/"});
  EXPECT_EQ(got.error().message, "https is not supported, use http://");
}

}  // namespace
}  // namespace sr::client
