#include "net/connection.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <string>
#include <vector>

#include "tests/net/fake_server.h"

namespace sr::net {
namespace {

using Kind = Connection::Event::Kind;

class ConnectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(client_.connect("127.0.0.1", server_.port()).ok());
    ASSERT_TRUE(server_.run_until([&] { step(); }, [&] { return client_.state() == Connection::State::kConnected; }));
    ASSERT_TRUE(server_.run_until([&] { step(); }, [&] { return server_.peer() != 0; }));
    events_.clear();
  }
  void step() { client_.poll(1, events_); }
  [[nodiscard]] const Connection::Event* first(Kind kind) const {
    for (const auto& e : events_) {
      if (e.kind == kind) return &e;
    }
    return nullptr;
  }
  // Sends `message` on `channel` and waits for the client to take it (as a message or as a protocol error).
  const Connection::Event& receive(const protocol::Message& message, std::uint8_t channel) {
    server_.send(message, channel);
    EXPECT_TRUE(server_.run_until([&] { step(); }, [&] { return !events_.empty(); }));
    static const Connection::Event kNone{};
    return events_.empty() ? kNone : events_.front();
  }

  test::FakeServer server_;
  Connection client_;
  std::vector<Connection::Event> events_;
};

TEST_F(ConnectionTest, AMessageOnItsOwnChannelIsHandedOut) {
  const Connection::Event& e = receive(protocol::Welcome{7, "fake", "", 0, ""}, protocol::kChannelControl);
  ASSERT_EQ(e.kind, Kind::kMessage) << e.error;
  EXPECT_EQ(*e.message, protocol::Message(protocol::Welcome{7, "fake", "", 0, ""}));
}

TEST_F(ConnectionTest, AMessageOnAnotherChannelIsAProtocolError) {
  const Connection::Event& e = receive(protocol::Welcome{7, "fake", "", 0, ""}, protocol::kChannelRace);
  EXPECT_EQ(e.kind, Kind::kBadMessage);
  EXPECT_FALSE(e.message.has_value());
  EXPECT_EQ(e.error, "a message against the protocol (Welcome on channel 1, not 0)");
}

TEST_F(ConnectionTest, AMessageOnlyClientsSendIsAProtocolError) {
  const Connection::Event& e = receive(protocol::Hello{"mallory", "x"}, protocol::kChannelControl);
  EXPECT_EQ(e.kind, Kind::kBadMessage);
  EXPECT_EQ(e.error, "a message against the protocol (servers may not send Hello)");
}

TEST_F(ConnectionTest, AMessageEitherSideSendsIsHandedOut) {
  const Connection::Event& e = receive(protocol::Ping{42}, protocol::kChannelControl);
  ASSERT_EQ(e.kind, Kind::kMessage) << e.error;
  EXPECT_EQ(*e.message, protocol::Message(protocol::Ping{42}));
}

// Once the server's connection has ended, ENet would let anyone connect to the client's socket on its one peer: a
// stranger is refused, reported once, and the connection stays closed.
TEST_F(ConnectionTest, AStrangerConnectingToOurSocketIsRefused) {
  server_.disconnect(protocol::kClientLeaving);
  ASSERT_TRUE(server_.run_until([&] { step(); }, [&] { return first(Kind::kDisconnected) != nullptr; }));
  sockaddr_in ours{};
  socklen_t length = sizeof ours;
  ASSERT_EQ(getsockname(client_.socket_handle(), reinterpret_cast<sockaddr*>(&ours), &length), 0);

  Connection stranger;
  ASSERT_TRUE(stranger.connect("127.0.0.1", ntohs(ours.sin_port)).ok());
  std::vector<Connection::Event> stranger_events;
  ASSERT_TRUE(server_.run_until(
      [&] {
        step();
        stranger.poll(1, stranger_events);
      },
      [&] { return first(Kind::kIgnored) != nullptr; }));
  const std::string& why = first(Kind::kIgnored)->error;
  EXPECT_EQ(why.rfind("a connection from 127.0.0.1:", 0), 0u) << why;
  EXPECT_NE(why.find(", which is not the server"), std::string::npos) << why;
  EXPECT_EQ(first(Kind::kConnected), nullptr);
  EXPECT_EQ(client_.state(), Connection::State::kDisconnected);
  // Whatever the stranger sends now reaches nobody.
  (void)stranger.send(protocol::Welcome{1, "stranger", "", 0, ""});
  stranger.flush();
  for (int i = 0; i < 50; ++i) step();
  EXPECT_EQ(first(Kind::kMessage), nullptr);
  EXPECT_EQ(client_.state(), Connection::State::kDisconnected);
}

// A connection made from a chosen local address sends from it (the abuse suite's newcomer comes from an address of its
// own; a LAN test from a namespace's); the server sees that address.
TEST(ConnectionBind, ConnectsFromTheLocalAddressAsked) {
  test::FakeServer server;
  Connection client;
  ASSERT_TRUE(client.connect("127.0.0.1", server.port(), protocol::kProtocolVersion, "127.0.0.9").ok());
  std::vector<Connection::Event> events;
  ASSERT_TRUE(server.run_until([&] { client.poll(1, events); },
                               [&] { return client.state() == Connection::State::kConnected; }));
  sockaddr_in ours{};
  socklen_t length = sizeof ours;
  ASSERT_EQ(getsockname(client.socket_handle(), reinterpret_cast<sockaddr*>(&ours), &length), 0);
  EXPECT_EQ(ntohl(ours.sin_addr.s_addr), 0x7F000009u);  // 127.0.0.9
}

TEST(ConnectionBind, ALocalAddressThatIsNoneIsAnError) {
  Connection client;
  const auto started = client.connect("127.0.0.1", 7878, protocol::kProtocolVersion, "not-an-address");
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.error(), "not a local IPv4 address: 'not-an-address'");
  EXPECT_EQ(client.state(), Connection::State::kIdle);
  EXPECT_EQ(client.socket_handle(), -1);
}

}  // namespace
}  // namespace sr::net
