// Run signatures in a room (server/room_run_signature.cpp, PROTOCOL.md "Run signatures"): a racer's RunSigned is
// checked against their key and the referee's inputs and kept for the replay job; every other one is ignored and
// counted, and the race goes on. Rooms on their own, driven by hand with a fake clock.
#include "server/room.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "net/identity/run_signature.h"
#include "tests/server/lobby_race_fixture.h"
#include "tests/support/test_keys.h"

namespace sr::server {
namespace {

using lobby_test::kCountdownUs;
using lobby_test::kMs;
constexpr std::uint64_t kSeed = 7;

std::uint64_t fixed_seed(void*) { return kSeed; }

class Recorder : public Outbox {
 public:
  void send(PlayerId player, const protocol::Message& message, std::uint8_t) override {
    sent[player].push_back(message);
  }
  void drop(PlayerId player, protocol::DisconnectReason, const std::string& text) override { dropped[player] = text; }
  void close_quietly(PlayerId player) override { dropped[player] = "closed"; }
  void rebind(PlayerId, PlayerId) override {}
  std::map<PlayerId, std::vector<protocol::Message>> sent;
  std::map<PlayerId, std::string> dropped;
};

// A racer's own game as a client plays it (engine::RacerRun), and how much of it went to the server.
struct Client {
  engine::RacerRun run;
  std::size_t sent = 0;  // changes of run.log() sent
  TimeUs sent_now_us = 0;
};

// A room racing the 20G master rules: racers in the order given (the replay's order), the first `keyed` of them with
// their test key (test_key(name)) as if their Hello had proved it, then spectators. The race has begun (countdown
// over). Each racer plays hard drops, each a column further right than the last racer's, and tops out quickly.
class SignedRace {
 public:
  SignedRace(const std::vector<std::string>& racers, std::size_t keyed,
             const std::vector<std::string>& spectators = {}) {
    RoomServices services;
    services.outbox = &outbox;
    services.next_seed = &fixed_seed;
    services.countdown_us = kCountdownUs;
    services.on_replay_job = [this](const ReplayWriter::Job& job) { jobs.push_back(job); };
    protocol::RoomSettings settings;
    settings.name = "room";
    settings.config = engine::make_master();
    settings.max_racers = static_cast<std::uint8_t>(racers.size());
    room = std::make_unique<Room>(1, settings, "", services, counters);
    PlayerId id = 1;
    for (std::size_t i = 0; i < racers.size() + spectators.size(); ++i, ++id) {
      Player& p = players[id];
      p.id = id;
      p.name = i < racers.size() ? racers[i] : spectators[i - racers.size()];
      p.welcomed = true;
      if (i < keyed) p.key = test::test_key(p.name).public_key();
      EXPECT_FALSE(room->join(p, i < racers.size() ? protocol::Role::kRacer : protocol::Role::kSpectator, now));
      if (i < racers.size()) clients.emplace(id, Client{engine::RacerRun(settings.config, kSeed)});
    }
    EXPECT_TRUE(room->start(now));
    run_until(kCountdownUs);
  }

  void run_until(TimeUs t) {
    for (; now < t; now += 10 * kMs) room->tick(now);
    now = t;
    room->tick(now);
  }
  [[nodiscard]] TimeUs race_us() const { return now - kCountdownUs; }

  // Plays every racer until each one's game is over: every 10 ms of real time the room ticks, then each racer's game
  // advances to the race time and sends a RaceInput; every 100 ms racer k taps right k % 3 times (within the input
  // rate), then hard drops and lets go. The room has not ticked since the last inputs: the race is not over yet.
  void play_until_everyone_topped_out() {
    const auto over = [&] {
      return std::all_of(clients.begin(), clients.end(), [](const auto& c) { return c.second.run.game().over(); });
    };
    while (!over() && race_us() < 60'000'000) {
      now += 10 * kMs;
      room->tick(now);
      for (auto& [id, c] : clients) {
        if (c.run.game().over()) continue;
        const TimeUs t = race_us();
        if (t % (100 * kMs) == 0) {
          const auto k = static_cast<TimeUs>((id - 1) % 3);
          for (TimeUs i = 0; i < k; ++i) {
            (void)c.run.press(t + 2 * i * kMs, engine::button::kMoveRight);
            (void)c.run.press(t + (2 * i + 1) * kMs, 0);
          }
          (void)c.run.press(t + 2 * k * kMs, engine::button::kHardDrop);
          (void)c.run.press(t + (2 * k + 1) * kMs, 0);
        }
        (void)c.run.advance(std::max(t, c.run.now_us()));
        send_stream(id);
      }
    }
    ASSERT_TRUE(over());
  }

  // Sends what racer `id` has not sent yet, and its game time.
  void send_stream(PlayerId id) {
    Client& c = clients.at(id);
    const auto& log = c.run.log();
    protocol::RaceInput input{1,
                              static_cast<std::uint32_t>(c.sent),
                              c.run.now_us(),
                              {log.begin() + static_cast<std::ptrdiff_t>(c.sent), log.end()}};
    c.sent = log.size();
    c.sent_now_us = c.run.now_us();
    EXPECT_TRUE(room->handle(players.at(id), input, now).ok());
  }

  // racer `id`'s own signature of `log` (their whole log when not given), by `key` (their own when not given).
  [[nodiscard]] protocol::RunSigned signed_by(
      PlayerId id, const net::PlayerKey& key,
      std::optional<std::vector<engine::InputChange>> log = std::nullopt) const {
    const Client& c = clients.at(id);
    const net::RunDigest digest =
        net::run_digest(engine::kRulesVersion, c.run.game().config(), kSeed, log ? *log : c.run.log());
    return protocol::RunSigned{1, net::sign_run(key, digest)};
  }
  [[nodiscard]] protocol::RunSigned own(PlayerId id) const {
    return signed_by(id, test::test_key(players.at(id).name));
  }
  void send(PlayerId id, const protocol::RunSigned& m) {
    const RequestResult r = room->handle(players.at(id), m, now);
    EXPECT_TRUE(r.ok()) << "a RunSigned is never refused with a notice";
  }

  // The race's end: the job the room handed on (after one more tick).
  const ReplayWriter::Job& job() {
    room->tick(now);
    EXPECT_EQ(jobs.size(), 1u);
    return jobs.back();
  }

  Recorder outbox;
  RoomCounters counters;
  std::map<PlayerId, Player> players;  // stable addresses: the room keeps pointers to them
  std::map<PlayerId, Client> clients;
  std::vector<ReplayWriter::Job> jobs;
  std::unique_ptr<Room> room;
  TimeUs now = 0;
};

// What the hub checks (common/protocol/RECORDS.md, section 3, step 6): each kept signature verifies against the racer's
// key in the replay and the digest computed from the completed replay itself.
void expect_verifies_from_the_replay(ReplayWriter::Job job, std::size_t racer) {
  ASSERT_TRUE(ReplayWriter::complete(job).ok());
  ASSERT_LT(racer, job.run_signatures.size());
  ASSERT_TRUE(job.run_signatures[racer].has_value());
  ASSERT_TRUE(job.replay.racers[racer].key.has_value());
  EXPECT_TRUE(
      net::verify_run(*job.replay.racers[racer].key, net::run_digest(job.replay, racer), *job.run_signatures[racer]));
}

TEST(RoomRunSignature, EachRacersSignatureIsKeptForTheReplayJobRacerForRacer) {
  SignedRace race({"ada", "bob"}, 2);
  race.play_until_everyone_topped_out();
  const protocol::RunSigned ada = race.own(1), bob = race.own(2);
  race.send(2, bob);  // in any order: the job lists them as the replay lists the racers
  race.send(1, ada);
  EXPECT_EQ(race.counters.run_signatures, 2u);
  EXPECT_EQ(race.counters.run_signatures_refused, 0u);

  const ReplayWriter::Job& job = race.job();
  ASSERT_EQ(job.replay.racers.size(), 2u);
  EXPECT_EQ(job.replay.racers[0].name, "ada");
  EXPECT_EQ(job.run_signatures, (std::vector<std::optional<protocol::SignatureBytes>>{ada.signature, bob.signature}));
  EXPECT_EQ(job.replay.racers[0].inputs, race.clients.at(1).run.log());
  EXPECT_EQ(job.replay.racers[1].inputs, race.clients.at(2).run.log());
  expect_verifies_from_the_replay(job, 0);
  expect_verifies_from_the_replay(job, 1);
  EXPECT_TRUE(race.outbox.dropped.empty());
}

TEST(RoomRunSignature, WithoutSignaturesTheJobHasNone) {
  SignedRace race({"ada", "bob"}, 2);
  race.play_until_everyone_topped_out();
  EXPECT_TRUE(race.job().run_signatures.empty());
  EXPECT_EQ(race.counters.run_signatures, 0u);
  EXPECT_EQ(race.counters.run_signatures_refused, 0u);
}

// Every bad one is ignored (no notice, no drop, no removal), counted once, and the race goes on to its end; the one
// good signature among them is the only one the job holds.
TEST(RoomRunSignature, BadSignaturesAreIgnoredAndCountedAndTheRaceGoesOn) {
  // dee has no key (a player made without the handshake); eve watches.
  SignedRace race({"ada", "bob", "cy", "fay", "gus", "dee"}, 5, {"eve"});
  // Too early: ada's game is still on (checked, so a later one is her second).
  race.send(1, race.own(1));
  EXPECT_EQ(race.counters.run_signatures_refused, 1u);
  race.play_until_everyone_topped_out();
  race.send(1, race.own(1));                 // ada: a second one
  protocol::RunSigned forged = race.own(2);  // bob: not a signature
  forged.signature[5] ^= 0x01;
  race.send(2, forged);
  race.send(3, race.signed_by(3, test::test_key("mallory")));  // cy: another key's
  std::vector<engine::InputChange> fewer = race.clients.at(4).run.log();
  ASSERT_FALSE(fewer.empty());
  fewer.pop_back();
  race.send(4, race.signed_by(4, test::test_key("fay"), fewer));  // fay: other inputs than the server's
  race.send(6, race.signed_by(6, test::test_key("dee")));         // dee: no key to check it with
  race.send(7, race.signed_by(1, test::test_key("eve")));         // eve: a spectator
  protocol::RunSigned elsewhere = race.own(5);
  elsewhere.race_id = 2;
  race.send(5, elsewhere);  // gus: a race that does not exist
  EXPECT_EQ(race.counters.run_signatures_refused, 8u);
  EXPECT_EQ(race.counters.run_signatures, 0u);
  const protocol::RunSigned gus = race.own(5);
  race.send(5, gus);  // the good one
  race.send(5, gus);  // and again: a second one
  EXPECT_EQ(race.counters.run_signatures, 1u);
  EXPECT_EQ(race.counters.run_signatures_refused, 9u);

  EXPECT_TRUE(race.outbox.dropped.empty());
  for (const auto& [id, messages] : race.outbox.sent) {
    for (const auto& m : messages) {
      const auto* notice = std::get_if<protocol::Notice>(&m);
      EXPECT_TRUE(notice == nullptr || notice->about != protocol::MessageId::kRunSigned) << id;
    }
  }
  const ReplayWriter::Job& job = race.job();
  ASSERT_EQ(job.run_signatures.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(job.run_signatures[i].has_value(), i == 4) << job.replay.racers[i].name;
  }
  // The race went on to its end: nobody was removed (with no replay writer, the results go out at once).
  std::vector<protocol::RaceResults> results;
  for (const auto& m : race.outbox.sent[1]) {
    if (const auto* r = std::get_if<protocol::RaceResults>(&m)) results.push_back(*r);
  }
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].racers.size(), 6u);
  for (const auto& r : results[0].racers) EXPECT_EQ(r.status, protocol::RacerStatus::kToppedOut) << r.name;
  EXPECT_EQ(job.run_signatures[4], gus.signature);
  EXPECT_FALSE(job.replay.racers[5].key.has_value());
  expect_verifies_from_the_replay(job, 4);
}

// The race is handed to the writer when its last racer's game is over: a signature that comes after that is too late.
TEST(RoomRunSignature, ASignatureAfterTheRaceIsOverIsTooLate) {
  SignedRace race({"ada"}, 1);
  race.play_until_everyone_topped_out();
  EXPECT_TRUE(race.job().run_signatures.empty());
  race.send(1, race.own(1));
  EXPECT_EQ(race.counters.run_signatures_refused, 1u);
  EXPECT_EQ(race.counters.run_signatures, 0u);
  EXPECT_EQ(race.jobs.size(), 1u);
}

// A signature that arrives in the same pass of the server's loop as the racer's last input (the game sends both in
// one flush) is handled before the room looks whether the race is over: the last racer's is kept.
TEST(RoomRunSignature, TheLastRacersSignatureArrivingWithTheirLastInputIsKept) {
  SignedRace race({"ada"}, 1);
  Client& c = race.clients.at(1);
  while (!c.run.game().over() && race.race_us() < 60'000'000) {
    race.now += 10 * kMs;
    const TimeUs t = race.race_us();
    if (t % (100 * kMs) == 0) {
      (void)c.run.press(t, engine::button::kHardDrop);
      (void)c.run.press(t + kMs, 0);
    }
    (void)c.run.advance(std::max(t, c.run.now_us()));
    race.send_stream(1);
    if (c.run.game().over()) race.send(1, race.own(1));  // before the room's next tick
    race.room->tick(race.now);
  }
  ASSERT_EQ(race.jobs.size(), 1u);
  ASSERT_EQ(race.jobs[0].run_signatures.size(), 1u);
  EXPECT_EQ(race.counters.run_signatures, 1u);
  expect_verifies_from_the_replay(race.jobs[0], 0);
}

// A player in no room (they left after their race) is not refused in words for a late signature: it is counted.
TEST(LobbyRunSignature, ASignatureFromAPlayerInNoRoomIsIgnoredQuietly) {
  lobby_test::RaceFixture f;
  f.lobby->handle(2, protocol::LeaveRoom{}, f.now);
  const std::size_t before = f.outbox.sent[2].size();
  f.lobby->handle(2, protocol::RunSigned{1, {}}, f.now);
  EXPECT_EQ(f.lobby->counters().run_signatures_refused, 1u);
  EXPECT_EQ(f.outbox.sent[2].size(), before) << "no notice";
  EXPECT_TRUE(f.outbox.dropped.empty());
}

}  // namespace
}  // namespace sr::server
