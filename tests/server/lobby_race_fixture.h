// A lobby with one race of two racers, driven by hand: a recording outbox and a fake clock, no network. For the
// tests of what the server does with a racer's messages mid-race (resume_test, input_copy_test).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "server/lobby.h"
#include "tests/support/test_keys.h"

namespace sr::server::lobby_test {

inline constexpr TimeUs kMs = 1000;
inline constexpr TimeUs kSecond = 1000 * kMs;
inline constexpr TimeUs kCountdownUs = 3 * kSecond;

class RecordingOutbox : public Outbox {
 public:
  void send(PlayerId player, const protocol::Message& message, std::uint8_t) override {
    sent[player].push_back(message);
  }
  void drop(PlayerId player, protocol::DisconnectReason, const std::string& text) override { dropped[player] = text; }
  void close_quietly(PlayerId player) override { closed.push_back(player); }
  void rebind(PlayerId keep, PlayerId from) override { rebinds.emplace_back(keep, from); }
  std::size_t queued_bytes(PlayerId player) const override {
    const auto it = queued.find(player);
    return it == queued.end() ? 0 : it->second;
  }

  template <class T>
  std::vector<T> of(PlayerId player) const {
    std::vector<T> out;
    const auto it = sent.find(player);
    if (it == sent.end()) return out;
    for (const auto& m : it->second) {
      if (const auto* t = std::get_if<T>(&m)) out.push_back(*t);
    }
    return out;
  }

  // The Hello `id` sends as `name`: signed for the challenge this outbox carried to `id` (the latest), by the test
  // key of `name` unless another key is given.
  protocol::Hello hello(PlayerId id, const std::string& name) const { return hello(id, name, test::test_key(name)); }
  protocol::Hello hello(PlayerId id, const std::string& name, const net::PlayerKey& key) const {
    const auto challenges = of<protocol::KeyChallenge>(id);
    EXPECT_FALSE(challenges.empty()) << "no KeyChallenge was sent to " << id;
    return test::signed_hello(name, challenges.empty() ? protocol::KeyChallengeBytes{} : challenges.back().challenge,
                              key);
  }

  // `resume` as connection `id` sends it for racer `name`: signed like hello().
  protocol::Resume resume(PlayerId id, const std::string& name, protocol::Resume resume) const {
    const protocol::Hello signed_as = hello(id, name);
    resume.key = signed_as.key;
    resume.signature = signed_as.signature;
    return resume;
  }

  std::map<PlayerId, std::vector<protocol::Message>> sent;
  std::map<PlayerId, std::string> dropped;
  std::vector<std::pair<PlayerId, PlayerId>> rebinds;
  std::vector<PlayerId> closed;            // close_quietly
  std::map<PlayerId, std::size_t> queued;  // what queued_bytes() answers
};

inline std::uint64_t fixed_seed(void*) { return 7; }

// Two racers, ada (1) and bob (2), in an endless race (it lasts), started at kCountdownUs. `adjust` may change the
// rooms' services first (a replay writer, the race cap); `options` are the lobby's.
struct RaceFixture {
  RecordingOutbox outbox;
  std::unique_ptr<Lobby> lobby;
  TimeUs now = 0;

  explicit RaceFixture(const std::function<void(RoomServices&)>& adjust = {}, LobbyOptions options = {}) {
    RoomServices services;
    services.outbox = &outbox;
    services.next_seed = &fixed_seed;
    services.countdown_us = kCountdownUs;
    if (adjust) adjust(services);
    lobby = std::make_unique<Lobby>(options, services, nullptr, 1);
    for (PlayerId id : {1u, 2u}) {
      EXPECT_TRUE(lobby->connect(id, protocol::kProtocolVersion, "10.0.0." + std::to_string(id) + ":5000", now));
      lobby->handle(id, outbox.hello(id, id == 1 ? "ada" : "bob"), now);
    }
    protocol::RoomSettings settings;
    settings.name = "room";
    settings.config = engine::make_endless();
    settings.auto_start = true;
    lobby->handle(1, protocol::CreateRoom{settings, protocol::Role::kRacer}, now);
    const auto joined = outbox.of<protocol::RoomJoined>(1);
    EXPECT_EQ(joined.size(), 1u);
    lobby->handle(2, protocol::JoinRoom{joined.at(0).room.room_id, "", protocol::Role::kRacer}, now);
    lobby->handle(1, protocol::SetReady{true}, now);
    lobby->handle(2, protocol::SetReady{true}, now);
    run_until(kCountdownUs);
  }
  void run_until(TimeUs t) {
    for (; now < t; now += 10 * kMs) lobby->tick(now);
    now = t;
    lobby->tick(now);
  }
  // Past the room's next relay time: what the inputs so far owe the others and the racer (relays, acks) goes out
  // (Room::send_relays, once every kRelayEveryUs).
  void relay() { run_until(now + kRelayEveryUs); }
  // One batch at race time `race_us` from `player`: an empty batch (the clock) or one change.
  void send_input(PlayerId player, std::uint32_t first_seq, TimeUs race_us,
                  std::vector<engine::InputChange> changes = {}) {
    lobby->handle(player, protocol::RaceInput{1, first_seq, race_us, std::move(changes)}, now);
  }
  // The RacerEnded messages `to` received about racer `about`.
  std::vector<protocol::RacerEnded> endings(PlayerId to, PlayerId about) const {
    std::vector<protocol::RacerEnded> out;
    for (const auto& e : outbox.of<protocol::RacerEnded>(to)) {
      if (e.player_id == about) out.push_back(e);
    }
    return out;
  }
  protocol::RaceSeat seat_of(PlayerId player) const {
    const auto seats = outbox.of<protocol::RaceSeat>(player);
    EXPECT_EQ(seats.size(), 1u);
    return seats.empty() ? protocol::RaceSeat{} : seats.front();
  }
};

}  // namespace sr::server::lobby_test
