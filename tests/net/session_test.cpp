#include "net/session.h"

#include <gtest/gtest.h>

#include "tests/net/fake_server.h"

namespace sr::net {
namespace {

// The server's host sees our Hello, then says what the test makes it say.
class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SessionOptions options;
    options.port = server_.port();
    options.name = "ada";
    ASSERT_TRUE(session_.open(options).ok());
    ASSERT_TRUE(server_.run_until([&] { (void)session_.poll(1); }, [&] { return hello_arrived(); }));
  }
  [[nodiscard]] bool hello_arrived() const {
    for (const auto& e : server_.events()) {
      if (e.kind == server::NetEvent::Kind::kReceive) return true;
    }
    return false;
  }
  [[nodiscard]] bool server_saw_goodbye() const {
    for (const auto& e : server_.events()) {
      if (e.kind == server::NetEvent::Kind::kDisconnect) return e.connect_data == protocol::kClientLeaving;
    }
    return false;
  }

  test::FakeServer server_;
  Session session_;
};

TEST_F(SessionTest, AWelcomeOnItsChannelLetsUsIn) {
  server_.send(protocol::Welcome{5, "fake", "", 0, ""}, protocol::kChannelControl);
  ASSERT_TRUE(server_.run_until([&] { (void)session_.poll(1); },
                                [&] { return session_.state() != Session::State::kConnecting; }));
  EXPECT_EQ(session_.state(), Session::State::kLobby);
  EXPECT_EQ(session_.player_id(), 5u);
}

TEST_F(SessionTest, AMessageOnTheWrongChannelClosesTheConnectionWithTheReason) {
  server_.send(protocol::Welcome{5, "fake", "", 0, ""}, protocol::kChannelBulk);
  ASSERT_TRUE(server_.run_until([&] { (void)session_.poll(1); }, [&] { return server_saw_goodbye(); }));
  (void)session_.poll(1);
  EXPECT_EQ(session_.closed_reason(), "the server sent a message against the protocol (Welcome on channel 3, not 0)");
  EXPECT_NE(session_.state(), Session::State::kLobby) << "the misrouted Welcome was not taken";
}

TEST_F(SessionTest, AMessageOnlyClientsSendClosesTheConnectionWithTheReason) {
  server_.send(protocol::LeaveRoom{}, protocol::kChannelControl);
  ASSERT_TRUE(server_.run_until([&] { (void)session_.poll(1); }, [&] { return server_saw_goodbye(); }));
  EXPECT_EQ(session_.closed_reason(),
            "the server sent a message against the protocol (servers may not send LeaveRoom)");
}

}  // namespace
}  // namespace sr::net
