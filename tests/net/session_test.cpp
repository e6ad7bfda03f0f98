#include "net/session.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/protocol/codec.h"
#include "net/identity/run_signature.h"
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
  // Every message the server received from us so far, decoded, in the order they arrived; `channel` keeps only one.
  [[nodiscard]] std::vector<protocol::Message> received(std::optional<std::uint8_t> channel = std::nullopt) const {
    std::vector<protocol::Message> out;
    for (const auto& e : server_.events()) {
      if (e.kind != server::NetEvent::Kind::kReceive || (channel && e.channel != *channel)) continue;
      auto decoded = protocol::decode(e.bytes);
      EXPECT_TRUE(decoded.ok()) << decoded.error().message;
      if (decoded.ok()) out.push_back(std::move(decoded).value());
    }
    return out;
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

// The run the game signs is the one the server receives (PROTOCOL.md "Run signatures"): over ENet, our racer's game
// ends, and the server reads on the race channel every RaceInput, then one RunSigned and nothing after it, signed by
// the key of our Hello over exactly the changes of those RaceInputs.
TEST_F(SessionTest, OurRaceEndsWithOneRunSignedAfterOurLastInputOverTheInputsTheServerReceived) {
  const auto hellos = received(protocol::kChannelControl);
  ASSERT_FALSE(hellos.empty());
  ASSERT_TRUE(std::holds_alternative<protocol::Hello>(hellos.front()));
  const PublicKey our_key = std::get<protocol::Hello>(hellos.front()).key;
  server_.send(protocol::Welcome{5, "fake", "", 0, ""}, protocol::kChannelControl);
  protocol::CountdownStart start;
  start.race_id = 4;
  start.seed = 11;
  start.config = engine::make_master();  // 20G: hard drops top it out in a few seconds of game time
  start.racers = {{5, "ada", engine::Handling{}}, {6, "bob", engine::Handling{}}};
  server_.send(start, protocol::kChannelRace);
  ASSERT_TRUE(server_.run_until([&] { (void)session_.poll(1); }, [&] { return session_.race() != nullptr; }));

  // The race as the game plays it: a hard drop every 100 ms, released 50 ms later, the clock every 10 ms between;
  // then a few more seconds of clock once our game is over.
  TimeUs t = 0;
  for (; !session_.race()->mine()->game().over() && t < 120'000'000; t += 10'000) {
    if (t % 100'000 == 0) {
      session_.race_press(t, engine::button::kHardDrop);
    } else if (t % 100'000 == 50'000) {
      session_.race_press(t, 0);
    } else {
      session_.race_advance(t);
    }
  }
  ASSERT_TRUE(session_.race()->mine()->game().over());
  for (const TimeUs end = t; t < end + 3'000'000; t += 10'000) session_.race_advance(t);
  const auto has_signature = [&] {
    const auto race = received(protocol::kChannelRace);
    return std::any_of(race.begin(), race.end(),
                       [](const auto& m) { return std::holds_alternative<protocol::RunSigned>(m); });
  };
  ASSERT_TRUE(server_.run_until([&] { (void)session_.poll(1); }, has_signature));
  for (int i = 0; i < 20; ++i) {  // anything that would follow it
    (void)session_.poll(1);
    (void)server_.poll();
  }

  const std::vector<protocol::Message> race = received(protocol::kChannelRace);
  ASSERT_FALSE(race.empty());
  ASSERT_TRUE(std::holds_alternative<protocol::RunSigned>(race.back())) << "the signature is the last race message";
  std::vector<engine::InputChange> sent;
  engine::RacerRun referee(engine::make_master(), 11);
  std::size_t signatures = 0;
  for (const auto& m : race) {
    if (const auto* input = std::get_if<protocol::RaceInput>(&m)) {
      EXPECT_EQ(input->race_id, 4u);
      EXPECT_EQ(referee.accept(input->first_seq, input->now_us, input->changes), engine::StreamError::kOk);
      sent.insert(sent.end(), input->changes.begin(), input->changes.end());
    }
    signatures += std::holds_alternative<protocol::RunSigned>(m);
  }
  EXPECT_EQ(signatures, 1u);
  EXPECT_TRUE(referee.game().over()) << "the inputs before the signature take the server's game to its end";
  EXPECT_EQ(sent, session_.race()->mine()->run.log());
  const auto& run_signed = std::get<protocol::RunSigned>(race.back());
  EXPECT_EQ(run_signed.race_id, 4u);
  EXPECT_TRUE(
      verify_run(our_key, run_digest(engine::kRulesVersion, engine::make_master(), 11, sent), run_signed.signature));
  // No input copy after it either (the copies' channel).
  const std::vector<protocol::Message> copies = received(protocol::kChannelRaceFast);
  for (const auto& m : copies) {
    ASSERT_TRUE(std::holds_alternative<protocol::RaceInputCopy>(m));
    EXPECT_LE(std::get<protocol::RaceInputCopy>(m).now_us, referee.now_us());
  }
}

}  // namespace
}  // namespace sr::net
