// Server queries on a real server over loopback (common/protocol/DIRECTORY.md, sections 1 and 2): answered on the
// game port and the LAN port with the server's info, malformed ones ignored, the per-address rate held, hub
// challenges taken from the directory's address only, and races undisturbed by queries alongside.
#include "common/protocol/server_query.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <thread>

#include "net/discovery/server_query.h"
#include "tests/server/net_fixture.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// Polls `query` until `done` holds or `timeout` passes; false on timeout.
bool poll_until(net::ServerQuery& query, const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    query.poll();
    if (done()) return true;
    std::this_thread::sleep_for(1ms);  // a poll interval, not a synchronisation: the deadline decides
  }
  return done();
}

// A UDP socket on 127.0.0.1 that sends raw datagrams to the server and reads what comes back.
class RawSocket {
 public:
  RawSocket() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    sockaddr_in self{};
    self.sin_family = AF_INET;
    self.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<const sockaddr*>(&self), sizeof self), 0);
  }
  ~RawSocket() { ::close(fd_); }
  void send(std::uint16_t port, const std::vector<std::uint8_t>& bytes) const {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    to.sin_port = htons(port);
    EXPECT_EQ(::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to),
              static_cast<ssize_t>(bytes.size()));
  }
  // The next datagram waiting, or nullopt.
  std::optional<std::vector<std::uint8_t>> receive() const {
    std::array<std::uint8_t, 2048> buffer;
    const ssize_t got = ::recv(fd_, buffer.data(), buffer.size(), 0);
    if (got < 0) return std::nullopt;
    return std::vector<std::uint8_t>(buffer.begin(), buffer.begin() + got);
  }
  // Waits (with a deadline) for the next datagram.
  std::optional<std::vector<std::uint8_t>> await(std::chrono::milliseconds timeout = 5s) const {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
      if (auto got = receive()) return got;
      std::this_thread::sleep_for(1ms);
    }
    return receive();
  }

 private:
  int fd_ = -1;
};

// A UDP port free now (for the LAN port of a test server).
std::uint16_t free_udp_port() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  EXPECT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);
  socklen_t length = sizeof a;
  EXPECT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&a), &length), 0);
  ::close(fd);
  return ntohs(a.sin_port);
}

protocol::RoomSettings sprint_room(const std::string& name, int lines) {
  protocol::RoomSettings s;
  s.name = name;
  s.config = engine::make_sprint(lines);
  s.max_racers = 8;
  return s;
}

TEST(ServerQueries, AQueryIsAnsweredWithTheServersInfo) {
  ServerFixture server;
  net::ServerQuery query;
  ASSERT_TRUE(query.query("127.0.0.1", server.port()));
  ASSERT_TRUE(poll_until(
      query, [&] { return !query.servers().empty(); }, 5s));
  const net::FoundServer& found = query.servers()[0];
  EXPECT_EQ(found.address, "127.0.0.1");
  EXPECT_EQ(found.port, server.port());
  EXPECT_FALSE(found.from_lan);
  EXPECT_GE(found.ping_us, 0);
  EXPECT_EQ(found.info.name, "test");
  EXPECT_EQ(found.info.protocol, protocol::kProtocolVersion);
  EXPECT_EQ(found.info.version, "0.1.0");
  EXPECT_EQ(found.info.players, 0u);
  EXPECT_EQ(found.info.capacity, 1000u);
  EXPECT_TRUE(found.info.rooms.empty());
  EXPECT_FALSE(found.info.racing);
  EXPECT_FALSE(found.info.ladder);
  EXPECT_EQ(found.info.port, server.port());
  EXPECT_EQ(server.stop().queries_answered, 1u);
}

TEST(ServerQueries, TheInfoShowsPlayersAndPublicRooms) {
  ServerFixture server;
  BotClient alice("alice", server.port()), bob("bob", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  ASSERT_TRUE(alice.session().create_room(sprint_room("sprint 40", 40)));
  auto hidden = sprint_room("hidden", 40);
  hidden.is_private = true;
  ASSERT_TRUE(bob.session().create_room(hidden));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob}, [&] { return alice.session().room().has_value() && bob.session().room().has_value(); }, 5s));

  // The info is rebuilt at most every 200 ms: ask until it shows both players.
  net::ServerQuery query;
  ASSERT_TRUE(poll_until(
      query,
      [&] {
        if (!query.servers().empty() && query.servers()[0].info.players == 2) return true;
        (void)query.query("127.0.0.1", server.port());
        return false;
      },
      5s));
  const net::ServerInfo& info = query.servers()[0].info;
  EXPECT_EQ(info.players, 2u);
  ASSERT_EQ(info.rooms.size(), 1u);  // the private room is not listed
  EXPECT_EQ(info.rooms[0].name, "sprint 40");
  EXPECT_EQ(info.rooms[0].mode, "sprint");
  EXPECT_EQ(info.rooms[0].racers, 1u);
  EXPECT_EQ(info.rooms[0].max_racers, 8u);
  EXPECT_EQ(info.rooms[0].phase, "waiting");
  EXPECT_FALSE(info.racing);
}

TEST(ServerQueries, AQueryOfAnotherLengthOrVersionGetsNothing) {
  ServerFixture server;
  RawSocket socket;
  auto short_query = protocol::encode_query(1);
  short_query.pop_back();
  auto long_query = protocol::encode_query(2);
  long_query.push_back(0);
  auto version_2 = protocol::encode_query(3);
  version_2[7] = 2;
  auto other_kind = protocol::encode_query(4);
  other_kind[6] = 'x';
  for (const auto& bad : {short_query, long_query, version_2, other_kind}) socket.send(server.port(), bad);
  // Then a good one: datagrams on loopback are handled in order, so an answer to a bad one would come first.
  socket.send(server.port(), protocol::encode_query(5));
  const auto answer = socket.await();
  ASSERT_TRUE(answer);
  const auto info = protocol::decode_info(*answer);
  ASSERT_TRUE(info);
  EXPECT_EQ(info->nonce, 5u);
  const server::ServerStats stats = server.stop();
  EXPECT_EQ(socket.receive(), std::nullopt);
  EXPECT_EQ(stats.queries_answered, 1u);
  EXPECT_EQ(stats.queries_dropped, 0u);
  EXPECT_EQ(stats.protocol_errors, 0u);
}

TEST(ServerQueries, OneAddressIsAnsweredTwentyTimesASecond) {
  ServerFixture server;
  RawSocket socket;
  const auto start = Clock::now();
  for (std::uint64_t i = 0; i < 30; ++i) socket.send(server.port(), protocol::encode_query(i));
  const auto sending = Clock::now() - start;
  // Every query is either answered or dropped: wait until the server has seen all 30 (its answers come back in order,
  // the 20th at the latest once the burst is spent).
  std::size_t received = 0;
  while (socket.await(2s)) {
    if (++received == 20) break;
  }
  ASSERT_EQ(received, 20u);
  const server::ServerStats stats = server.stop();
  while (socket.receive()) ++received;
  EXPECT_EQ(stats.queries_answered, received);
  EXPECT_EQ(stats.queries_answered + stats.queries_dropped, 30u);
  // A token comes back every 50 ms: sent within 50 ms, exactly the burst of 20 is answered.
  if (sending < 50ms) {
    EXPECT_EQ(stats.queries_answered, 20u);
  }
}

TEST(ServerQueries, TheLanPortAnswersWithTheGamePort) {
  server::ServerOptions options;
  options.lan_port = free_udp_port();
  ServerFixture server(options);
  net::ServerQuery query;
  ASSERT_TRUE(query.query("127.0.0.1", options.lan_port));
  ASSERT_TRUE(poll_until(
      query, [&] { return !query.servers().empty(); }, 5s));
  EXPECT_EQ(query.servers()[0].port, server.port());
  EXPECT_EQ(query.servers()[0].info.port, server.port());
  EXPECT_EQ(server.stop().queries_answered, 1u);
}

TEST(ServerQueries, RacesRunNormallyWhileQueriesArrive) {
  ServerFixture server;
  BotClient alice("alice", server.port()), bob("bob", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  ASSERT_TRUE(alice.session().create_room(sprint_room("sprint", 4)));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice}, [&] { return alice.session().room().has_value(); }, 5s));
  ASSERT_TRUE(bob.session().join_room(alice.session().room()->room_id, protocol::Role::kRacer));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.session().room().has_value(); }, 5s));
  alice.session().set_ready(true);
  bob.session().set_ready(true);
  net::ServerQuery query;
  std::size_t asked = 0;
  bool saw_racing = false;
  auto next_query = Clock::now();
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob},
      [&] {
        // A query every 100 ms through the countdown and the race (within the rate limit of 20 a second).
        if (query.poll() > 0) saw_racing = saw_racing || query.servers()[0].info.racing;
        if (Clock::now() >= next_query) {
          EXPECT_TRUE(query.query("127.0.0.1", server.port()));
          ++asked;
          next_query += 100ms;
        }
        return alice.session().results().has_value() && bob.session().results().has_value();
      },
      120s));
  EXPECT_EQ(alice.session().results()->reason, protocol::RaceEndReason::kAllDone);
  for (const auto& r : alice.session().results()->racers) EXPECT_EQ(r.status, protocol::RacerStatus::kFinished);
  EXPECT_EQ(alice.notice(protocol::NoticeCode::kDesync), nullptr);
  const server::ServerStats stats = server.stop();
  EXPECT_EQ(stats.queries_answered, asked);
  EXPECT_EQ(stats.protocol_errors, 0u);
  EXPECT_TRUE(saw_racing);
}

TEST(ServerQueries, AChallengeIsTakenFromTheDirectorysAddressOnly) {
  server::DirectoryLink ours, elsewhere;
  in_addr loopback{};
  ASSERT_EQ(inet_pton(AF_INET, "127.0.0.1", &loopback), 1);
  ours.set_directory_addresses({server::ipv4_address(loopback.s_addr)});
  in_addr other{};
  ASSERT_EQ(inet_pton(AF_INET, "192.0.2.1", &other), 1);
  elsewhere.set_directory_addresses({server::ipv4_address(other.s_addr)});
  server::ServerOptions options;
  options.directories = {&ours, &elsewhere};
  ServerFixture server(options);
  RawSocket socket;
  const std::string token = "0123456789abcdef0123456789abcdef";
  socket.send(server.port(), protocol::encode_challenge(token));
  socket.send(server.port(), protocol::encode_query(9));  // answered after the challenge was handled
  ASSERT_TRUE(socket.await());
  const auto now_us = server::NetHost::steady_now_us();
  EXPECT_EQ(ours.take_token(now_us), token);
  EXPECT_EQ(elsewhere.take_token(now_us), std::nullopt);
  EXPECT_EQ(socket.receive(), std::nullopt);  // a challenge is never answered
}

TEST(ServerQueries, AChallengeIsIgnoredByAServerThatIsNotPublic) {
  server::DirectoryLink link;  // not given to the server
  in_addr loopback{};
  ASSERT_EQ(inet_pton(AF_INET, "127.0.0.1", &loopback), 1);
  link.set_directory_addresses({server::ipv4_address(loopback.s_addr)});
  ServerFixture server;
  RawSocket socket;
  socket.send(server.port(), protocol::encode_challenge("0123456789abcdef0123456789abcdef"));
  socket.send(server.port(), protocol::encode_query(9));
  ASSERT_TRUE(socket.await());
  EXPECT_EQ(link.take_token(server::NetHost::steady_now_us()), std::nullopt);
  EXPECT_EQ(server.stop().protocol_errors, 0u);
}

}  // namespace
}  // namespace sr::test
