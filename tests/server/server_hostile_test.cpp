// Malformed and hostile traffic against a real server while a race is on: the sender is dropped with a reason, the
// server keeps serving, and the race finishes unharmed.
#include <enet/enet.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "common/protocol/codec.h"
#include "tests/server/net_fixture.h"
#include "tests/support/test_keys.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;

// A bare ENet peer that sends whatever bytes a test wants.
class RawPeer {
 public:
  RawPeer(std::uint16_t port, std::uint32_t version) {
    host_ = enet_host_create(nullptr, 1, protocol::kChannelCount, 0, 0);
    ENetAddress address{};
    enet_address_set_host(&address, "127.0.0.1");
    address.port = port;
    peer_ = enet_host_connect(host_, &address, protocol::kChannelCount, version);
    wait_for([this] { return connected_ || disconnected_; }, 5s);
  }
  ~RawPeer() { enet_host_destroy(host_); }

  void send(std::uint8_t channel, const std::vector<std::uint8_t>& bytes) {
    enet_peer_send(peer_, channel, enet_packet_create(bytes.data(), bytes.size(), ENET_PACKET_FLAG_RELIABLE));
    enet_host_flush(host_);
  }
  void send(const protocol::Message& m) {
    send(protocol::message_channel(protocol::message_id(m)), protocol::encode(m));
  }
  bool wait_for(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (!done() && std::chrono::steady_clock::now() < end) poll(5);
    return done();
  }
  // Answers the server's KeyChallenge with a Hello signed by the test key of `name`.
  bool hello(const std::string& name) {
    if (!wait_for([this] { return find<protocol::KeyChallenge>() != nullptr; }, 5s)) return false;
    send(signed_hello(name, find<protocol::KeyChallenge>()->challenge, test_key(name)));
    return wait_for([this] { return find<protocol::Welcome>() != nullptr; }, 5s);
  }
  template <typename T>
  const T* find() const {
    for (const auto& m : received_) {
      if (const T* t = std::get_if<T>(&m)) return t;
    }
    return nullptr;
  }
  [[nodiscard]] bool disconnected() const { return disconnected_; }
  // Waits for the server to drop us; returns the reason it gave (empty if it gave none).
  std::string dropped_reason() {
    wait_for([this] { return disconnected_; }, 10s);
    const auto* bye = find<protocol::Disconnecting>();
    return bye != nullptr ? bye->text : std::string();
  }

  void poll(std::uint32_t timeout_ms) {
    ENetEvent event;
    if (enet_host_service(host_, &event, timeout_ms) <= 0) return;
    do {
      if (event.type == ENET_EVENT_TYPE_CONNECT) connected_ = true;
      if (event.type == ENET_EVENT_TYPE_DISCONNECT) disconnected_ = true;
      if (event.type == ENET_EVENT_TYPE_RECEIVE) {
        auto decoded = protocol::decode(std::span<const std::uint8_t>(event.packet->data, event.packet->dataLength));
        if (decoded.ok()) received_.push_back(decoded.value());
        enet_packet_destroy(event.packet);
      }
    } while (enet_host_check_events(host_, &event) > 0);
  }

 private:
  ENetHost* host_ = nullptr;
  ENetPeer* peer_ = nullptr;
  bool connected_ = false;
  bool disconnected_ = false;
  std::vector<protocol::Message> received_;
};

class ServerHostile : public ::testing::Test {
 protected:
  void SetUp() override {
    alice_ = std::make_unique<BotClient>("alice", server_.port(), ClientQuirks{}, 3000);
    bob_ = std::make_unique<BotClient>("bob", server_.port(), ClientQuirks{}, 3000);
    ASSERT_TRUE(alice_->connect());
    ASSERT_TRUE(bob_->connect());
    protocol::RoomSettings s;
    s.name = "victims";
    s.config = engine::make_sprint(10);
    ASSERT_TRUE(alice_->session().create_room(s));
    ASSERT_TRUE(BotClient::pump_until(
        {alice_.get()}, [&] { return alice_->session().room().has_value(); }, 5s));
    ASSERT_TRUE(bob_->session().join_room(alice_->session().room()->room_id));
    ASSERT_TRUE(BotClient::pump_until(
        {bob_.get()}, [&] { return bob_->session().room().has_value(); }, 5s));
    alice_->session().set_ready(true);
    bob_->session().set_ready(true);
    ASSERT_TRUE(BotClient::pump_until(
        {alice_.get(), bob_.get()}, [&] { return alice_->session().race() && *alice_->session().race_time_us() > 0; },
        10s));
  }

  // Keeps the race (and the hostile peers' connections) going until `done`.
  void race_while(const std::vector<RawPeer*>& peers, const std::function<bool()>& done) {
    BotClient::pump_until(
        {alice_.get(), bob_.get()},
        [&] {
          for (RawPeer* p : peers) p->poll(0);
          return done();
        },
        15s);
  }

  void expect_race_unharmed() {
    ASSERT_TRUE(BotClient::pump_until(
        {alice_.get(), bob_.get()},
        [&] { return alice_->session().stored_replay() && bob_->session().stored_replay(); }, 120s));
    for (const auto& r : alice_->session().results()->racers) {
      EXPECT_EQ(r.status, protocol::RacerStatus::kFinished) << r.name;
    }
    const auto stored = server_.stored_replays();
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_TRUE(stored[0].verified) << stored[0].message;
    // The server still welcomes newcomers.
    BotClient late("late", server_.port());
    EXPECT_TRUE(late.connect());
  }

  ServerFixture server_;
  std::unique_ptr<BotClient> alice_, bob_;
};

TEST_F(ServerHostile, WrongProtocolVersionIsToldTheServersVersion) {
  RawPeer peer(server_.port(), protocol::kProtocolVersion + 41);
  race_while({&peer}, [&] { return peer.find<protocol::Reject>() != nullptr && peer.disconnected(); });
  const auto* reject = peer.find<protocol::Reject>();
  ASSERT_NE(reject, nullptr);
  EXPECT_EQ(reject->reason, protocol::RejectReason::kVersionMismatch);
  EXPECT_EQ(reject->server_version, protocol::kProtocolVersion);
  EXPECT_NE(reject->text.find("server speaks version " + std::to_string(protocol::kProtocolVersion)), std::string::npos)
      << reject->text;
  expect_race_unharmed();
}

TEST_F(ServerHostile, RandomBytesTruncatedUnknownAndOversizedMessagesGetTheSenderDropped) {
  engine::Random rng(99);
  std::vector<std::unique_ptr<RawPeer>> peers;
  std::vector<std::vector<std::uint8_t>> payloads;
  for (int i = 0; i < 5; ++i) {
    std::vector<std::uint8_t> junk(1 + rng.below(200));
    for (auto& b : junk) b = static_cast<std::uint8_t>(rng.below(256));
    junk[0] = static_cast<std::uint8_t>(std::max<std::uint32_t>(1, junk[0]) % 40 + 1);  // a real id, junk fields
    payloads.push_back(junk);
  }
  auto hello = protocol::encode(protocol::Hello{"truncated", "raw"});
  hello.resize(hello.size() - 3);
  payloads.push_back(hello);
  payloads.push_back({0xEE, 1, 2, 3});                                                    // unknown id
  payloads.push_back(std::vector<std::uint8_t>(protocol::kMaxMessageBytes + 100, 0x01));  // oversized
  payloads.push_back({});                                                                 // empty
  for (const auto& bytes : payloads) {
    peers.push_back(std::make_unique<RawPeer>(server_.port(), protocol::kProtocolVersion));
    peers.back()->send(protocol::kChannelControl, bytes);
  }
  std::vector<RawPeer*> raw;
  for (const auto& p : peers) raw.push_back(p.get());
  race_while(raw, [&] { return std::all_of(raw.begin(), raw.end(), [](RawPeer* p) { return p->disconnected(); }); });
  for (std::size_t i = 0; i < peers.size(); ++i) {
    EXPECT_TRUE(peers[i]->disconnected()) << "payload " << i;
    const auto* bye = peers[i]->find<protocol::Disconnecting>();
    const auto* reject = peers[i]->find<protocol::Reject>();
    EXPECT_TRUE(bye != nullptr || reject != nullptr) << "payload " << i << " got no reason";
  }
  expect_race_unharmed();
}

TEST_F(ServerHostile, ServerOnlyMessagesAndRaceInputsFromOutsidersGetTheSenderDropped) {
  RawPeer impostor(server_.port(), protocol::kProtocolVersion);
  ASSERT_TRUE(impostor.hello("impostor"));
  impostor.send(protocol::Welcome{1, "fake", "", 0, ""});
  RawPeer outsider(server_.port(), protocol::kProtocolVersion);
  ASSERT_TRUE(outsider.hello("outsider"));
  outsider.send(protocol::RaceInput{alice_->session().race()->race_id(), 0, 1000, {{1000, engine::button::kHardDrop}}});
  RawPeer watcher(server_.port(), protocol::kProtocolVersion);
  ASSERT_TRUE(watcher.hello("watcher"));
  watcher.send(protocol::JoinRoom{alice_->session().room()->room_id, "", protocol::Role::kSpectator});
  race_while({&impostor, &outsider, &watcher}, [&] { return watcher.find<protocol::CatchUpEnd>() != nullptr; });
  ASSERT_NE(watcher.find<protocol::CatchUpEnd>(), nullptr);
  watcher.send(protocol::RaceInput{alice_->session().race()->race_id(), 0, 1000, {{1000, engine::button::kHardDrop}}});

  race_while({&impostor, &outsider, &watcher},
             [&] { return impostor.disconnected() && outsider.disconnected() && watcher.disconnected(); });
  EXPECT_NE(impostor.dropped_reason().find("may not send Welcome"), std::string::npos);
  EXPECT_NE(outsider.dropped_reason().find("no room"), std::string::npos);
  EXPECT_NE(watcher.dropped_reason().find("not racing"), std::string::npos);
  expect_race_unharmed();
}

}  // namespace
}  // namespace sr::test
