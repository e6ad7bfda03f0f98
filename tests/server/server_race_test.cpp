// Races on a real server over loopback: bots race, spectate, die, and cheat.
#include <gtest/gtest.h>

#include <algorithm>

#include "net/identity/run_signature.h"
#include "tests/server/net_fixture.h"
#include "tests/support/test_keys.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;
using protocol::Role;

protocol::RoomSettings room(const std::string& name, engine::GameConfig config, bool is_private = false) {
  protocol::RoomSettings s;
  s.name = name;
  s.config = std::move(config);
  s.max_racers = 8;
  s.is_private = is_private;
  s.auto_start = true;
  return s;
}

// Creates a room with `host` and has every other client join it as `role`; racers ready up.
void gather(BotClient& host, const std::vector<BotClient*>& others, const protocol::RoomSettings& settings,
            Role role = Role::kRacer) {
  ASSERT_TRUE(host.session().create_room(settings));
  ASSERT_TRUE(BotClient::pump_until(
      {&host}, [&] { return host.session().room().has_value(); }, 5s));
  const std::uint32_t room_id = host.session().room()->room_id;
  for (BotClient* c : others) {
    ASSERT_TRUE(c->session().join_room(room_id, role));
    ASSERT_TRUE(BotClient::pump_until(
        {c}, [&] { return c->session().room().has_value(); }, 5s));
  }
}

bool results_in(const std::vector<BotClient*>& clients) {
  return std::all_of(clients.begin(), clients.end(),
                     [](BotClient* c) { return c->session().results().has_value() && c->session().stored_replay(); });
}

TEST(ServerRace, TwoBotsRaceASprintAndTheReplayVerifies) {
  ServerFixture server;
  BotClient alice("alice", server.port()), bob("bob", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  gather(alice, {&bob}, room("sprint", engine::make_sprint(10)));
  alice.session().set_ready(true);
  bob.session().set_ready(true);
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob},
      [&] {
        return results_in({&alice, &bob});
      },
      120s));

  const protocol::RaceResults& results = *alice.session().results();
  ASSERT_EQ(results.racers.size(), 2u);
  EXPECT_EQ(results.reason, protocol::RaceEndReason::kAllDone);
  for (const auto& r : results.racers) EXPECT_EQ(r.status, protocol::RacerStatus::kFinished) << r.name;
  EXPECT_EQ(results.racers[0].place, 1);
  EXPECT_EQ(results.racers[1].place, 2);
  EXPECT_LE(results.racers[0].time_us, results.racers[1].time_us);
  EXPECT_EQ(*bob.session().results(), results);

  // Each racer's own simulation agrees with the server's numbers.
  for (BotClient* c : {&alice, &bob}) {
    const auto* mine = c->session().race()->mine();
    const auto line = std::find_if(results.racers.begin(), results.racers.end(),
                                   [&](const auto& r) { return r.player_id == mine->entrant.player_id; });
    ASSERT_NE(line, results.racers.end());
    EXPECT_EQ(line->time_us, mine->game().stats().time_us);
    EXPECT_EQ(line->lines, mine->game().stats().lines);
    EXPECT_EQ(line->pieces, mine->game().stats().pieces);
    EXPECT_GE(line->lines, 10);
    EXPECT_EQ(c->notice(protocol::NoticeCode::kDesync), nullptr);
    // Each client pinged the server and read its clock from the Pongs (the race started by it).
    EXPECT_TRUE(c->session().server_clock().best_round_trip_us().has_value());
  }

  // The stored replay verifies and holds exactly what each client sent.
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].verified) << stored[0].message;
  ASSERT_EQ(stored[0].replay.racers.size(), 2u);
  for (BotClient* c : {&alice, &bob}) {
    const auto* mine = c->session().race()->mine();
    const auto racer = std::find_if(stored[0].replay.racers.begin(), stored[0].replay.racers.end(),
                                    [&](const auto& r) { return r.name == mine->entrant.name; });
    ASSERT_NE(racer, stored[0].replay.racers.end());
    const auto sent = c->sent_log();
    ASSERT_EQ(racer->inputs.size(), sent.size());
    for (std::size_t i = 0; i < sent.size(); ++i) {
      EXPECT_EQ(racer->inputs[i].time_us, sent[i].time_us);
      EXPECT_EQ(racer->inputs[i].buttons, sent[i].buttons);
    }
    EXPECT_EQ(racer->result.stats, mine->game().stats());
    EXPECT_EQ(racer->result.final_hash, mine->game().state_hash());
    // The replay names each racer's key, the one their Hello proved (test_key(name): net_fixture.cpp).
    ASSERT_TRUE(racer->key.has_value()) << racer->name;
    EXPECT_EQ(*racer->key, test_key(racer->name).public_key()) << racer->name;
  }
  EXPECT_NE(stored[0].replay.racers[0].key, stored[0].replay.racers[1].key);
}

// Run signatures end to end (PROTOCOL.md "Run signatures", RECORDS.md): two keyed bots race a sprint; each signs its
// run when its game ends, the server keeps both with the replay job, and each verifies against the racer's key and
// the digest computed from the stored replay, as a records hub checks them.
TEST(ServerRace, EachRacersRunSignatureIsKeptAndVerifiesAgainstTheStoredReplay) {
  ReplayJobs jobs;
  server::ServerOptions options;
  options.on_replay_job = jobs.hook();
  ServerFixture server(options);
  BotClient alice("alice", server.port()), bob("bob", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  gather(alice, {&bob}, room("sprint", engine::make_sprint(4)));
  alice.session().set_ready(true);
  bob.session().set_ready(true);
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob},
      [&] {
        return results_in({&alice, &bob});
      },
      120s));

  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].verified) << stored[0].message;
  const std::vector<server::ReplayWriter::Job> handed = jobs.jobs();
  ASSERT_EQ(handed.size(), 1u);
  const server::ReplayWriter::Job& job = handed[0];
  ASSERT_EQ(job.replay.racers.size(), 2u);
  ASSERT_EQ(job.run_signatures.size(), 2u);
  ASSERT_EQ(stored[0].replay.racers.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const replay::Racer& racer = stored[0].replay.racers[i];
    SCOPED_TRACE(racer.name);
    EXPECT_EQ(racer.name, job.replay.racers[i].name);
    EXPECT_EQ(racer.result.status, replay::ResultStatus::kFinished);
    ASSERT_TRUE(job.run_signatures[i].has_value());
    ASSERT_TRUE(racer.key.has_value());
    EXPECT_EQ(*racer.key, test_key(racer.name).public_key());
    EXPECT_TRUE(net::verify_run(*racer.key, net::run_digest(stored[0].replay, i), *job.run_signatures[i]));
    // The very signature the racer's client sent.
    BotClient& client = racer.name == "alice" ? alice : bob;
    ASSERT_TRUE(client.session().race()->run_signed().has_value());
    EXPECT_EQ(client.session().race()->run_signed()->signature, *job.run_signatures[i]);
  }
  EXPECT_NE(job.run_signatures[0], job.run_signatures[1]);
  const server::ServerStats stats = server.stop();
  EXPECT_EQ(stats.rooms_total.run_signatures, 2u);
  EXPECT_EQ(stats.rooms_total.run_signatures_refused, 0u);
}

TEST(ServerRace, SpectatorJoiningMidRaceEndsWithTheRacersBoards) {
  ServerFixture server;
  BotClient alice("alice", server.port(), {}, 4000), bob("bob", server.port(), {}, 4000);
  BotClient carol("carol", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  ASSERT_TRUE(carol.connect());
  gather(alice, {&bob}, room("watched", engine::make_sprint(10)));
  alice.session().set_ready(true);
  bob.session().set_ready(true);
  // Let the race run for a while, then join as a spectator (carol's game keeps its connection serviced meanwhile).
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob, &carol},
      [&] { return alice.session().race() && alice.session().race()->mine()->game().stats().pieces >= 8; }, 60s));
  ASSERT_TRUE(carol.session().join_room(alice.session().room()->room_id, Role::kSpectator));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob, &carol},
      [&] {
        return results_in({&alice, &bob, &carol});
      },
      120s));

  const net::RaceView* watched = carol.session().race();
  ASSERT_NE(watched, nullptr);
  EXPECT_FALSE(watched->racing());
  for (BotClient* racer : {&alice, &bob}) {
    const auto* mine = racer->session().race()->mine();
    const auto* seen = watched->board(mine->entrant.player_id);
    ASSERT_NE(seen, nullptr);
    EXPECT_TRUE(seen->game().over());
    EXPECT_EQ(seen->game().state_hash(), mine->game().state_hash()) << mine->entrant.name;
  }
}

TEST(ServerRace, KilledRacerIsKeptAsDidNotFinishAndTheOthersFinish) {
  // The victim's seat is kept for a Resume for 3 s instead of 60 (the race waits for it).
  server::ServerOptions options;
  options.lobby.resume_window_us = 3'000'000;
  ServerFixture server(options);
  BotClient alice("alice", server.port(), {}, 5000), bob("bob", server.port(), {}, 5000);
  BotClient victim("victim", server.port(), {}, 5000);
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  ASSERT_TRUE(victim.connect());
  gather(alice, {&bob, &victim}, room("deadly", engine::make_sprint(10)));
  for (BotClient* c : {&alice, &bob, &victim}) c->session().set_ready(true);
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob, &victim},
      [&] { return victim.session().race() && victim.session().race()->mine()->game().stats().pieces >= 5; }, 60s));
  victim.kill();
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob},
      [&] {
        return results_in({&alice, &bob});
      },
      120s));

  const auto& results = *alice.session().results();
  ASSERT_EQ(results.racers.size(), 3u);
  for (const auto& r : results.racers) {
    if (r.name == "victim") {
      EXPECT_TRUE(r.status == protocol::RacerStatus::kDisconnected || r.status == protocol::RacerStatus::kRemoved);
      EXPECT_EQ(r.place, 0);
    } else {
      EXPECT_EQ(r.status, protocol::RacerStatus::kFinished) << r.name;
    }
  }
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].verified) << stored[0].message;
  const auto victim_racer = std::find_if(stored[0].replay.racers.begin(), stored[0].replay.racers.end(),
                                         [](const auto& r) { return r.name == "victim"; });
  ASSERT_NE(victim_racer, stored[0].replay.racers.end());
  EXPECT_NE(victim_racer->result.status, replay::ResultStatus::kFinished);
  EXPECT_GE(victim_racer->result.stats.pieces, 5);
}

TEST(ServerRace, SlowClockIsRemovedWhileAnHonestRacerUnderJitterAndLossFinishes) {
  ServerFixture server;
  ClientQuirks slow;
  slow.clock_rate = 0.9;
  ClientQuirks unlucky;
  unlucky.jitter_us = 200'000;
  unlucky.loss_percent = 5;
  BotClient cheat("cheat", server.port(), slow, 2000), honest("honest", server.port(), unlucky, 2000);
  ASSERT_TRUE(cheat.connect());
  ASSERT_TRUE(honest.connect());
  gather(honest, {&cheat}, room("pace", engine::make_sprint(20)));
  cheat.session().set_ready(true);
  honest.session().set_ready(true);

  ASSERT_TRUE(BotClient::pump_until(
      {&cheat, &honest}, [&] { return cheat.session().race() != nullptr; }, 10s));
  const auto race_start = std::chrono::steady_clock::now() + 3s;  // the countdown
  bool removed = false;
  ASSERT_TRUE(BotClient::pump_until(
      {&cheat, &honest},
      [&] {
        const auto* seen =
            honest.session().race() ? honest.session().race()->board(cheat.session().player_id()) : nullptr;
        if (!removed && seen != nullptr && seen->status == protocol::RacerStatus::kRemoved) {
          removed = true;
          EXPECT_LE(std::chrono::steady_clock::now() - race_start, 15s);
          EXPECT_NE(seen->end_reason.find("behind real time"), std::string::npos) << seen->end_reason;
        }
        return results_in({&honest});
      },
      180s));
  EXPECT_TRUE(removed);
  for (const auto& r : honest.session().results()->racers) {
    EXPECT_EQ(r.status, r.name == "honest" ? protocol::RacerStatus::kFinished : protocol::RacerStatus::kRemoved)
        << r.name;
  }
}

TEST(ServerRace, PrivateRoomCannotBeJoinedWithoutItsCode) {
  ServerFixture server;
  BotClient alice("alice", server.port()), bob("bob", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  ASSERT_TRUE(alice.session().create_room(room("secret", engine::make_sprint(), true)));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice}, [&] { return alice.session().room().has_value(); }, 5s));
  const protocol::RoomInfo info = *alice.session().room();
  ASSERT_EQ(info.code.size(), protocol::kRoomCodeLength);

  ASSERT_TRUE(bob.session().list_rooms());
  ASSERT_TRUE(BotClient::pump_until(
      {&bob},
      [&] {
        return std::any_of(bob.received().begin(), bob.received().end(),
                           [](const auto& m) { return std::holds_alternative<protocol::RoomList>(m); });
      },
      5s));
  EXPECT_TRUE(bob.session().room_list().rooms.empty());

  ASSERT_TRUE(bob.session().join_room(info.room_id));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.notice(protocol::NoticeCode::kRoomNotFound); }, 5s));
  const std::string wrong = info.code == "AAAAAA" ? "BBBBBB" : "AAAAAA";
  ASSERT_TRUE(bob.session().join_private(wrong));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.notice(protocol::NoticeCode::kWrongCode); }, 5s));
  EXPECT_FALSE(bob.session().room().has_value());

  ASSERT_TRUE(bob.session().join_private(info.code));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.session().room().has_value(); }, 5s));
  EXPECT_EQ(bob.session().room()->room_id, info.room_id);
}

// One address may hold only so many players: the next one is refused with the reason in words, and the players
// already in stay.
TEST(ServerLobby, PlayersBeyondThePerAddressLimitAreToldWhy) {
  server::ServerOptions options;
  options.lobby.max_per_address = 2;
  ServerFixture server(options);
  BotClient a("alpha", server.port()), b("bravo", server.port()), c("charlie", server.port());
  ASSERT_TRUE(a.connect());
  ASSERT_TRUE(b.connect());
  EXPECT_FALSE(c.connect());
  EXPECT_EQ(c.session().state(), net::Session::State::kClosed);
  EXPECT_NE(c.session().closed_reason().find("at most 2 players from one address"), std::string::npos)
      << c.session().closed_reason();
  EXPECT_EQ(a.session().state(), net::Session::State::kLobby);
  EXPECT_EQ(b.session().state(), net::Session::State::kLobby);
}

// A full server refuses in words, and the address it refused cannot come straight back: its next connection attempts
// are dropped at the connect gate (counted, never a handshake, a Hello and another Reject) until the hold ends, so a
// client retrying in a loop costs next to nothing.
TEST(ServerLobby, AnAddressToldTheServerIsFullIsHeldAtTheGate) {
  server::ServerOptions options;
  options.lobby.max_players = 1;
  ServerFixture server(options);
  BotClient first("first", server.port()), second("second", server.port());
  ASSERT_TRUE(first.connect());
  EXPECT_FALSE(second.connect());
  EXPECT_EQ(second.session().closed_reason(), "the server is full");
  // At once again: nothing answers until the hold (2 s) has passed; then the refusal again, or ENet gives up.
  BotClient third("third", server.port());
  const auto started = std::chrono::steady_clock::now();
  EXPECT_FALSE(third.connect(10s));
  EXPECT_GE(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(server::Server::kFullHoldMs - 100));
  const server::ServerStats stats = server.stop();
  EXPECT_GE(stats.refused[static_cast<std::size_t>(server::Limit::kConnectRate)], 1u);
  EXPECT_EQ(first.session().state(), net::Session::State::kLobby);
}

// LeaveRoom (control channel) can overtake race messages sent just before it (race channel): those are for the race
// the player left, and cost them nothing; a race message for any other race from a player in no room still does.
TEST(ServerRace, RaceMessagesInFlightWhenLeavingAreIgnored) {
  ServerFixture server;
  BotClient alice("alice", server.port(), {}, 3000), bob("bob", server.port(), {}, 3000);
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  gather(alice, {&bob}, room("leaving", engine::make_sprint(40)));
  for (BotClient* c : {&alice, &bob}) c->session().set_ready(true);
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob}, [&] { return bob.session().race() && bob.session().race()->mine()->game().stats().pieces >= 3; },
      60s));
  const std::uint32_t race_id = bob.session().race()->race_id();
  const std::uint32_t seq = bob.session().race()->mine()->run.next_seq();
  const engine::TimeUs at = bob.session().race()->mine()->game().now();
  ASSERT_TRUE(bob.session().leave_room());
  ASSERT_TRUE(bob.session().send(protocol::RaceInput{race_id, seq, at + 1000, {}}));
  ASSERT_TRUE(bob.session().send(protocol::StateHashReport{race_id, 3, at, 0}));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob}, [&] { return !bob.session().room().has_value(); }, 5s));
  // The server answers a request sent after them: it read them and kept bob.
  const std::uint64_t lists = bob.session().room_lists_received();
  ASSERT_TRUE(bob.session().list_rooms());
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob}, [&] { return bob.session().room_lists_received() > lists; }, 5s));
  EXPECT_EQ(bob.session().state(), net::Session::State::kLobby) << bob.session().closed_reason();

  ASSERT_TRUE(bob.session().send(protocol::RaceInput{race_id + 1, 0, 0, {}}));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.session().state() == net::Session::State::kClosed; }, 5s));
  EXPECT_NE(bob.session().closed_reason().find("race messages from a player in no room"), std::string::npos)
      << bob.session().closed_reason();
}

}  // namespace
}  // namespace sr::test
