// Rooms on their own, with a recording outbox and a fake clock: when their periodic work happens.
#include "server/room.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include "common/engine/config.h"
#include "common/replay/replay.h"
#include "server/replay_writer.h"
#include "tests/server/lobby_race_fixture.h"
#include "tests/support/status.h"

namespace sr::server {
namespace {

using lobby_test::kMs;

// Remembers, for every LiveStats sent, the tick it was sent in and the room's race (by the first recipient).
class StatsOutbox : public Outbox {
 public:
  void close_quietly(PlayerId) override {}
  void send(PlayerId player, const protocol::Message& message, std::uint8_t) override {
    if (std::holds_alternative<protocol::LiveStats>(message)) stats_to[player].push_back(now);
  }
  void drop(PlayerId, protocol::DisconnectReason, const std::string&) override {}
  void rebind(PlayerId, PlayerId) override {}

  TimeUs now = 0;
  std::map<PlayerId, std::vector<TimeUs>> stats_to;  // player -> times their LiveStats were queued
};

std::uint64_t fixed_seed(void*) { return 7; }

TEST(Stagger, ConsecutiveRoomsAreSpreadOverThePeriod) {
  constexpr TimeUs kPeriod = 100 * kMs;
  constexpr int kRooms = 125;
  std::vector<TimeUs> phases;
  for (RoomId id = 1; id <= kRooms; ++id) {
    const TimeUs p = stagger(id, kPeriod);
    ASSERT_GE(p, 0);
    ASSERT_LT(p, kPeriod);
    phases.push_back(p);
  }
  std::sort(phases.begin(), phases.end());
  // Evenly spread would leave gaps of 800 us; golden-ratio steps leave at most three gap sizes, none over twice that.
  TimeUs widest = phases.front() + kPeriod - phases.back();
  TimeUs narrowest = widest;
  for (std::size_t i = 1; i < phases.size(); ++i) {
    widest = std::max(widest, phases[i] - phases[i - 1]);
    narrowest = std::min(narrowest, phases[i] - phases[i - 1]);
  }
  EXPECT_LE(widest, 2 * kPeriod / kRooms);
  EXPECT_GE(narrowest, kPeriod / kRooms / 3);
  EXPECT_EQ(stagger(1, 0), 0);
  EXPECT_EQ(stagger(0, kPeriod), 0);
}

// Before rooms kept their own phase, rooms started in the same loop pass sent their live stats in the same pass
// forever after: with 125 rooms of 8, a burst of 1,000 datagrams every 100 ms that held up the relays behind it.
TEST(Room, RoomsStartedTogetherSendLiveStatsInTheirOwnPhaseTenTimesASecond) {
  StatsOutbox outbox;
  RoomServices services;
  services.outbox = &outbox;
  services.next_seed = &fixed_seed;
  services.countdown_us = 3000 * kMs;
  services.live_stats_every_us = 100 * kMs;
  RoomCounters counters;
  constexpr int kRooms = 100;
  std::vector<std::unique_ptr<Room>> rooms;
  std::vector<Player> players(kRooms);
  for (int i = 0; i < kRooms; ++i) {
    protocol::RoomSettings settings;
    settings.name = "room";
    settings.config = engine::make_sprint(40);
    settings.max_racers = 1;
    rooms.push_back(std::make_unique<Room>(static_cast<RoomId>(i + 1), settings, "", services, counters));
    players[static_cast<std::size_t>(i)].id = static_cast<PlayerId>(i + 1);
    players[static_cast<std::size_t>(i)].name = "p" + std::to_string(i + 1);
    players[static_cast<std::size_t>(i)].welcomed = true;
  }
  for (int i = 0; i < kRooms; ++i) {
    Player& p = players[static_cast<std::size_t>(i)];
    ASSERT_FALSE(rooms[static_cast<std::size_t>(i)]->join(p, protocol::Role::kRacer, 0).has_value());
    ASSERT_TRUE(rooms[static_cast<std::size_t>(i)]->handle(p, protocol::SetReady{true}, 0).ok());
  }
  const TimeUs start = services.countdown_us;
  const TimeUs end = start + 2000 * kMs + kLiveStatsHoldUs;  // two seconds of stats, each sent after the hold
  std::map<TimeUs, int> rooms_sending_at;                    // tick -> rooms that sent live stats in it
  for (TimeUs now = 0; now <= end; now += kMs) {
    outbox.now = now;
    for (auto& room : rooms) room->tick(now);
  }
  for (int i = 0; i < kRooms; ++i) {
    const std::vector<TimeUs>& sent = outbox.stats_to[static_cast<PlayerId>(i + 1)];
    ASSERT_FALSE(sent.empty()) << "room " << i + 1;
    EXPECT_GE(sent.front(), start);
    // Within one period, and then the wait for a relay (these racers send nothing: the stats wait it out).
    EXPECT_LE(sent.front(), start + 100 * kMs + kLiveStatsHoldUs);
    for (std::size_t k = 1; k < sent.size(); ++k) EXPECT_EQ(sent[k] - sent[k - 1], 100 * kMs);
    EXPECT_GE(sent.size(), 20u);  // two seconds of racing
    for (TimeUs t : sent) ++rooms_sending_at[t];
  }
  int most = 0;
  for (const auto& [t, n] : rooms_sending_at) most = std::max(most, n);
  EXPECT_LE(most, 2) << "rooms started together send their live stats together";
}

// The room hands the writer inputs and how each game ended; the writer plays the games out (off the main loop) to
// fill in results and checkpoints.
TEST(ReplayWriter, CompletingAJobPlaysEachRacerOutToTheirEnd) {
  ReplayWriter::Job job;
  job.replay.config = engine::make_sprint(40);
  job.replay.seed = 99;
  job.replay.checkpoint_every = 2;
  replay::Racer racer;
  racer.name = "left";
  // Five hard drops, 100 ms apart; the racer then leaves at 2 s.
  for (int i = 0; i < 5; ++i) {
    racer.inputs.push_back({(i + 1) * 100 * kMs, engine::button::kHardDrop});
    racer.inputs.push_back({(i + 1) * 100 * kMs + 50 * kMs, 0});
  }
  job.replay.racers.push_back(racer);
  racer.name = "idle";
  racer.inputs.clear();
  job.replay.racers.push_back(racer);
  job.ends = {{2000 * kMs, replay::ResultStatus::kDisconnected}, {1500 * kMs, replay::ResultStatus::kForfeited}};

  ASSERT_EQ(sr::test::problem_of(ReplayWriter::complete(job)), std::nullopt);
  const replay::Racer& left = job.replay.racers[0];
  EXPECT_EQ(left.result.status, replay::ResultStatus::kDisconnected);
  EXPECT_EQ(left.result.stats.time_us, 2000 * kMs);
  EXPECT_EQ(left.result.stats.pieces, 5);
  EXPECT_EQ(left.checkpoints.size(), 2u);  // after pieces 2 and 4
  EXPECT_NE(left.result.final_hash, 0u);
  const replay::Racer& idle = job.replay.racers[1];
  EXPECT_EQ(idle.result.status, replay::ResultStatus::kForfeited);
  EXPECT_EQ(idle.result.stats.time_us, 1500 * kMs);
  EXPECT_EQ(idle.result.stats.pieces, 0);
  EXPECT_EQ(sr::test::problem_of(replay::check_replay(job.replay)), std::nullopt);

  job.ends.pop_back();
  EXPECT_EQ(sr::test::problem_of(ReplayWriter::complete(job)), "the race's end is not known for every racer");
}

}  // namespace
}  // namespace sr::server
