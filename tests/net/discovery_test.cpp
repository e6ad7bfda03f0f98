// Finding servers (net/discovery): the tolerant parsers of the info JSON and a directory's list, and ServerQuery's
// matching of answers to queries and its ping, against a scripted responder on loopback and a fake clock.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <thread>

#include "common/protocol/server_query.h"
#include "net/discovery/server_info.h"
#include "net/discovery/server_query.h"

namespace sr::net {
namespace {

using namespace std::chrono_literals;

constexpr const char* kExample =
    R"({"name":"Ada's server","protocol":9,"version":"0.9.0","players":3,"capacity":256,)"
    R"("rooms":[{"name":"sprint 40","mode":"sprint","racers":2,"max_racers":8,"phase":"racing"}],)"
    R"("racing":true,"ladder":false,"web":"http://example.org:8080/","port":7777})";

TEST(ServerInfoJson, ReadsTheDocumentsExample) {
  const auto info = parse_server_info(kExample);
  ASSERT_TRUE(info) << info.error();
  EXPECT_EQ(info.value().name, "Ada's server");
  EXPECT_EQ(info.value().protocol, 9u);
  EXPECT_EQ(info.value().version, "0.9.0");
  EXPECT_EQ(info.value().players, 3u);
  EXPECT_EQ(info.value().capacity, 256u);
  ASSERT_EQ(info.value().rooms.size(), 1u);
  EXPECT_EQ(info.value().rooms[0].name, "sprint 40");
  EXPECT_EQ(info.value().rooms[0].mode, "sprint");
  EXPECT_EQ(info.value().rooms[0].racers, 2u);
  EXPECT_EQ(info.value().rooms[0].max_racers, 8u);
  EXPECT_EQ(info.value().rooms[0].phase, "racing");
  EXPECT_TRUE(info.value().racing);
  EXPECT_FALSE(info.value().ladder);
  EXPECT_EQ(info.value().web, "http://example.org:8080/");
  EXPECT_EQ(info.value().port, 7777);
}

TEST(ServerInfoJson, IgnoresUnknownFieldsAndTakesMistypedOnesAsMissing) {
  const auto info = parse_server_info(
      R"({"name":"x","protocol":8,"port":1,"future":{"a":[1,2]},"players":"many","rooms":[3,{"name":"r","racers":-1}]})");
  ASSERT_TRUE(info) << info.error();
  EXPECT_EQ(info.value().protocol, 8u);
  EXPECT_EQ(info.value().players, 0u);
  ASSERT_EQ(info.value().rooms.size(), 1u);
  EXPECT_EQ(info.value().rooms[0].name, "r");
  EXPECT_EQ(info.value().rooms[0].racers, 0u);
  EXPECT_EQ(info.value().web, "");
}

TEST(ServerInfoJson, RefusesWhatIsNotAServersInfo) {
  EXPECT_EQ(parse_server_info("{\"name\":").error(), "the info is not JSON");
  EXPECT_EQ(parse_server_info("[1]").error(), "the info is not a JSON object");
  EXPECT_EQ(parse_server_info(R"({"protocol":7,"port":1})").error(), "the info has no name");
  EXPECT_EQ(parse_server_info(R"({"name":"x","port":1})").error(), "the info has no protocol version");
  EXPECT_EQ(parse_server_info(R"({"name":"x","protocol":7,"port":70000})").error(), "the info has no game port");
}

TEST(DirectoryList, ReadsEveryWellFormedServerAndSkipsTheRest) {
  const std::string list = std::string(R"({"servers":[)") +
                           R"({"address":"203.0.113.7","port":7777,"name":"a","protocol":7,"players":3,"seen_s":4},)"
                           R"({"address":"2001:db8::1","port":7000,"name":"b","protocol":7},)"
                           R"({"port":7777,"name":"no address","protocol":7},)"
                           R"({"address":"198.51.100.1","name":"no port","protocol":7},)" +
                           R"(7]})";
  const auto servers = parse_directory_servers(list);
  ASSERT_TRUE(servers) << servers.error();
  ASSERT_EQ(servers.value().size(), 2u);
  EXPECT_EQ(servers.value()[0].address, "203.0.113.7");
  EXPECT_EQ(servers.value()[0].info.port, 7777);
  EXPECT_EQ(servers.value()[0].info.players, 3u);
  EXPECT_EQ(servers.value()[0].seen_s, 4u);
  EXPECT_EQ(servers.value()[1].address, "2001:db8::1");
  EXPECT_EQ(servers.value()[1].info.name, "b");
  EXPECT_EQ(parse_directory_servers(R"({"list":[]})").error(), "the server list has no \"servers\" array");
  EXPECT_EQ(parse_directory_servers("nope").error(), "the server list is not JSON");
}

// A scripted server on 127.0.0.1: answers each query with `json`, or with a wrong nonce, or not at all.
class ScriptedServer {
 public:
  ScriptedServer() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);
    socklen_t length = sizeof a;
    EXPECT_EQ(getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &length), 0);
    port_ = ntohs(a.sin_port);
    timeval wait{5, 0};  // a test that waits longer has failed
    (void)setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  }
  ~ScriptedServer() { ::close(fd_); }
  [[nodiscard]] std::uint16_t port() const { return port_; }
  // Reads one query (blocking, 5 s at most) and answers it with `json` under the nonce plus `nonce_offset`.
  bool answer(const std::string& json, std::uint64_t nonce_offset = 0) {
    std::array<std::uint8_t, 2048> buffer;
    sockaddr_in from{};
    socklen_t length = sizeof from;
    const ssize_t got = ::recvfrom(fd_, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &length);
    if (got < 0) return false;
    const auto nonce =
        protocol::decode_query(std::span<const std::uint8_t>(buffer.data(), static_cast<std::size_t>(got)));
    if (!nonce) return false;
    const auto info = protocol::encode_info(*nonce + nonce_offset, json);
    return ::sendto(fd_, info.data(), info.size(), 0, reinterpret_cast<const sockaddr*>(&from), length) ==
           static_cast<ssize_t>(info.size());
  }

 private:
  int fd_ = -1;
  std::uint16_t port_ = 0;
};

// Polls until `done` or 5 s.
bool poll_until(ServerQuery& query, const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    query.poll();
    std::this_thread::sleep_for(1ms);
  }
  return done();
}

TEST(ServerQuery, TheAnswerGivesThePingByTheQuerysClock) {
  std::int64_t now_us = 1'000;
  ServerQuery query([&] { return now_us; });
  ScriptedServer server;
  ASSERT_TRUE(query.query("127.0.0.1", server.port()));
  now_us = 4'500;  // the answer is read 3.5 ms later by the fake clock
  ASSERT_TRUE(server.answer(kExample));
  ASSERT_TRUE(poll_until(query, [&] { return !query.servers().empty(); }));
  const FoundServer& found = query.servers()[0];
  EXPECT_EQ(found.ping_us, 3'500);
  EXPECT_EQ(found.seen_us, 4'500);
  EXPECT_EQ(found.address, "127.0.0.1");
  EXPECT_EQ(found.port, 7777);  // the info's game port, not the port that answered
  EXPECT_FALSE(found.from_lan);
  EXPECT_EQ(found.info.name, "Ada's server");
}

TEST(ServerQuery, AnswersWithAnotherNonceOrBadJsonAreIgnored) {
  ServerQuery query;
  ScriptedServer server;
  ASSERT_TRUE(query.query("127.0.0.1", server.port()));
  ASSERT_TRUE(server.answer(kExample, 1));  // not our nonce
  ASSERT_TRUE(poll_until(query, [&] { return query.ignored() == 1; }));
  ASSERT_TRUE(query.query("127.0.0.1", server.port()));
  ASSERT_TRUE(server.answer("{not json"));
  ASSERT_TRUE(poll_until(query, [&] { return query.ignored() == 2; }));
  EXPECT_TRUE(query.servers().empty());
  // A good answer to a third query is taken.
  ASSERT_TRUE(query.query("127.0.0.1", server.port()));
  ASSERT_TRUE(server.answer(kExample));
  ASSERT_TRUE(poll_until(query, [&] { return query.servers().size() == 1; }));
}

TEST(ServerQuery, AnUnansweredQueryIsForgottenAfterFiveSeconds) {
  std::int64_t now_us = 0;
  ServerQuery query([&] { return now_us; });
  ScriptedServer server;
  ASSERT_TRUE(query.query("127.0.0.1", server.port()));
  now_us = ServerQuery::kForgetQueryAfterUs + 1;
  // Sending another query forgets the old one: its late answer is ignored.
  ScriptedServer other;
  ASSERT_TRUE(query.query("127.0.0.1", other.port()));
  ASSERT_TRUE(server.answer(kExample));
  ASSERT_TRUE(poll_until(query, [&] { return query.ignored() == 1; }));
  EXPECT_TRUE(query.servers().empty());
}

TEST(ServerQuery, AnUnknownHostIsASentence) {
  ServerQuery query;
  const auto sent = query.query("no-such-host.invalid", 7777);
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().rfind("cannot find no-such-host.invalid: ", 0), 0u) << sent.error();
}

}  // namespace
}  // namespace sr::net
