// client/web/replay_fetch.h: a game's web link to the replay the viewer opens, against a loopback server answering
// with a golden replay's bytes, a 404, or bytes that are no replay.
#include "client/web/replay_fetch.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "common/replay/codec.h"
#include "tests/client/http_test_server.h"

namespace sr::client {
namespace {

using sr::test::HttpTestServer;

std::string golden_bytes() {
  std::ifstream in(std::string(STACKRACE_TEST_DATA) + "/race_sprint.srr", std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string ok_answer(const std::string& body) {
  return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string link(const HttpTestServer& server) {
  return "http://127.0.0.1:" + std::to_string(server.port()) + "/sr/games/00000000000000ff";
}

TEST(ReplayFetch, ALinksReplayIsDownloadedAndDecoded) {
  const std::string bytes = golden_bytes();
  ASSERT_GT(bytes.size(), 100u);
  HttpTestServer server(ok_answer(bytes));
  auto fetched = fetch_replay(link(server));
  ASSERT_TRUE(fetched.ok()) << fetched.error();
  auto expected = replay::decode_binary(std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(fetched.value(), expected.value());
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].substr(0, 43), "GET /sr/games/00000000000000ff.srr HTTP/1.1");
}

TEST(ReplayFetch, AGameTheServerDoesNotHaveIsSaid) {
  HttpTestServer server("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n");
  auto fetched = fetch_replay(link(server));
  ASSERT_FALSE(fetched.ok());
  const std::string where = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(fetched.error(), "cannot download http://" + where + "/sr/games/00000000000000ff.srr: " + where +
                                 " answered 404 Not Found (the server has no such game)");
}

TEST(ReplayFetch, BytesThatAreNoReplayAreRefusedWithTheDecodersSentence) {
  HttpTestServer server(ok_answer("<html>not a replay</html>"));
  auto fetched = fetch_replay(link(server));
  ASSERT_FALSE(fetched.ok());
  EXPECT_EQ(fetched.error(), "what http://127.0.0.1:" + std::to_string(server.port()) +
                                 "/sr/games/00000000000000ff.srr sent is not a replay: at byte 0: not a stackrace "
                                 "replay (the file does not start with \"SRRP\")");
  // A replay cut short decodes no better.
  const std::string bytes = golden_bytes();
  HttpTestServer cut(ok_answer(bytes.substr(0, bytes.size() / 2)));
  fetched = fetch_replay(link(cut));
  ASSERT_FALSE(fetched.ok());
  EXPECT_NE(fetched.error().find("sent is not a replay: "), std::string::npos) << fetched.error();
}

TEST(ReplayFetch, ABadLinkIsRefusedBeforeAnyConnection) {
  EXPECT_EQ(fetch_replay("http://h/replays/1").error(),
            "\"http://h/replays/1\" is not a game's web link: its path must end in /games/ and the game's 16 "
            "lower-case hex digits");
}

}  // namespace
}  // namespace sr::client
