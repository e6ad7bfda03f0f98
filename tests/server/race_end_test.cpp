// The end of a race with a replay writer: the results wait until the replay is durable (or is known not to be
// stored), go out at a bound when the store is slow, and the room is free for its next race meanwhile. Racers still
// racing when the server ends the race are unfinished. A lobby driven by hand with a fake clock; the writer is never
// started, so its jobs stay queued and the test says when and how each write ended.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "replays/store/replay_store.h"
#include "server/replay_writer.h"
#include "tests/server/lobby_race_fixture.h"

namespace sr::server {
namespace {

using lobby_test::kCountdownUs;
using lobby_test::kMs;
using lobby_test::RaceFixture;

constexpr TimeUs kCapUs = 5000 * kMs;
constexpr TimeUs kWaitUs = 2000 * kMs;

// The fixture's race with a writer and a 5 s cap, run until just after the cap has ended it.
struct EndedRace : RaceFixture {
  ReplayWriter writer;  // not started unless a directory is given: submit() only queues

  explicit EndedRace(const std::filesystem::path& store = {})
      : RaceFixture([this](RoomServices& s) {
          s.writer = &writer;  // used from the race's end on, once the member is built
          s.max_race_us = kCapUs;
          s.results_wait_us = kWaitUs;
        }) {
    if (!store.empty()) {
      EXPECT_TRUE(writer.start(store).ok());
    }
    run_until(kCountdownUs + kCapUs + 10 * kMs);
  }
  std::uint32_t room_id() const { return outbox.of<protocol::RoomJoined>(1).at(0).room.room_id; }
  // What racer 1 received of the race's end, in order: the message names after the last RacerEnded.
  std::vector<std::string> end_messages() const {
    std::vector<std::string> out;
    for (const auto& m : outbox.sent.at(1)) {
      if (std::holds_alternative<protocol::RaceResults>(m)) out.push_back("RaceResults");
      if (std::holds_alternative<protocol::ReplayStored>(m)) out.push_back("ReplayStored");
      if (const auto* n = std::get_if<protocol::ReplayNotStored>(&m)) out.push_back("ReplayNotStored: " + n->reason);
    }
    return out;
  }
  void written(std::optional<std::string> game_id, std::string reason = {}) {
    ReplayWriter::Done done;
    done.room_id = room_id();
    done.race_id = 1;
    done.game_id = std::move(game_id);
    done.error = reason.empty() ? "" : "cannot write /data/x.srr: No space left on device";
    done.reason = std::move(reason);
    lobby->on_replay_written(done);
  }
};

TEST(RaceEnd, RacersStillRacingAtTheCapAreUnfinished) {
  EndedRace f;
  for (PlayerId about : {1u, 2u}) {
    const auto ended = f.endings(2, about);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0].status, protocol::RacerStatus::kUnfinished);
    EXPECT_EQ(ended[0].reason, "still racing when the race ended");
  }
  f.written(std::string("00000000000000ab"));
  const auto results = f.outbox.of<protocol::RaceResults>(1);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].reason, protocol::RaceEndReason::kTimeUp);
  ASSERT_EQ(results[0].racers.size(), 2u);
  for (const auto& r : results[0].racers) {
    EXPECT_EQ(r.status, protocol::RacerStatus::kUnfinished);
    EXPECT_EQ(r.place, 0);
  }
}

TEST(RaceEnd, TheReplayOfAnUnfinishedRacerSaysUnfinishedAndVerifies) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("sr_race_end_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    EndedRace f(dir);
    // The writer's thread: wait for its one job, with a deadline.
    std::vector<ReplayWriter::Done> done;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (done.empty() && std::chrono::steady_clock::now() < deadline) {
      done = f.writer.collect();
      if (done.empty()) std::this_thread::yield();
    }
    ASSERT_EQ(done.size(), 1u);
    ASSERT_TRUE(done[0].game_id.has_value()) << done[0].error;
    f.lobby->on_replay_written(done[0]);
    EXPECT_EQ(f.end_messages(), (std::vector<std::string>{"RaceResults", "ReplayStored"}));
    auto store = replay::ReplayStore::open(dir);
    ASSERT_TRUE(store.ok());
    const auto games = store.value().recent({});
    ASSERT_TRUE(games.ok());
    ASSERT_EQ(games.value().size(), 1u);
    EXPECT_TRUE(games.value()[0].verified) << games.value()[0].verify_note;
    ASSERT_EQ(games.value()[0].results.size(), 2u);
    for (const auto& r : games.value()[0].results) EXPECT_EQ(r.status, replay::ResultStatus::kUnfinished);
  }
  std::filesystem::remove_all(dir);
}

TEST(RaceEnd, ResultsWaitForTheReplayAndThenSayWhereItIs) {
  EndedRace f;
  EXPECT_TRUE(f.end_messages().empty()) << "no results before the replay is durable";
  EXPECT_EQ(f.outbox.of<protocol::RoomUpdate>(1).back().room.phase, protocol::RoomPhase::kWaiting)
      << "the room is free for the next race meanwhile";
  f.written(std::string("00000000000000ab"));
  EXPECT_EQ(f.end_messages(), (std::vector<std::string>{"RaceResults", "ReplayStored"}));
  EXPECT_EQ(f.outbox.of<protocol::ReplayStored>(2).at(0), (protocol::ReplayStored{1, 0xab}));
}

TEST(RaceEnd, ARaceThatCouldNotBeStoredSaysWhy) {
  EndedRace f;
  f.written(std::nullopt, "the server's disk is full");
  EXPECT_EQ(f.end_messages(), (std::vector<std::string>{"RaceResults", "ReplayNotStored: the server's disk is full"}));
}

// The database was away: the replay is durable in the server's spool, under the id it will have in the database.
// The racers get its id as for any stored race, and a note saying where it is until the database is back.
TEST(RaceEnd, ASpooledRaceSaysWhereItIsAndThatTheDatabaseIsAway) {
  EndedRace f;
  ReplayWriter::Done done;
  done.room_id = f.room_id();
  done.race_id = 1;
  done.game_id = "00000000000000cd";
  done.spooled = true;
  f.lobby->on_replay_written(done);
  EXPECT_EQ(f.end_messages(), (std::vector<std::string>{"RaceResults", "ReplayStored"}));
  EXPECT_EQ(f.outbox.of<protocol::ReplayStored>(2).at(0), (protocol::ReplayStored{1, 0xcd}));
  const auto notices = f.outbox.of<protocol::Notice>(2);
  ASSERT_FALSE(notices.empty());
  EXPECT_EQ(notices.back().text,
            "the server's database is away: this race's replay is kept on the server and stored there when it is back");
  EXPECT_EQ(notices.back().code, protocol::NoticeCode::kInfo);
}

TEST(RaceEnd, AStoredRaceSendsNoDatabaseNote) {
  EndedRace f;
  const std::size_t before = f.outbox.of<protocol::Notice>(2).size();
  f.written(std::string("00000000000000ab"));
  EXPECT_EQ(f.outbox.of<protocol::Notice>(2).size(), before);
}

TEST(RaceEnd, ASlowStoreDelaysTheResultsNoLongerThanTheBound) {
  EndedRace f;
  const TimeUs ended_at = kCountdownUs + kCapUs + 10 * kMs;  // within one 10 ms tick of the cap
  f.run_until(ended_at + kWaitUs - 20 * kMs);
  EXPECT_TRUE(f.end_messages().empty());
  f.run_until(ended_at + kWaitUs);
  EXPECT_EQ(f.end_messages(), (std::vector<std::string>{"RaceResults", "ReplayNotStored: still being written"}));
  f.written(std::string("00000000000000ab"));
  EXPECT_EQ(f.end_messages(),
            (std::vector<std::string>{"RaceResults", "ReplayNotStored: still being written", "ReplayStored"}));
}

TEST(RaceEnd, TheNextRaceStartsWhileTheLastOneIsBeingWritten) {
  EndedRace f;
  f.lobby->handle(1, protocol::SetReady{true}, f.now);
  f.lobby->handle(2, protocol::SetReady{true}, f.now);
  f.run_until(f.now + 10 * kMs);
  const auto countdowns = f.outbox.of<protocol::CountdownStart>(1);
  ASSERT_EQ(countdowns.size(), 2u);
  EXPECT_EQ(countdowns[1].race_id, 2u);
  f.written(std::string("00000000000000ab"));
  const auto results = f.outbox.of<protocol::RaceResults>(1);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].race_id, 1u);
}

TEST(RaceEnd, ALeaverMissesTheResultsTheOthersGet) {
  EndedRace f;
  f.lobby->handle(2, protocol::LeaveRoom{}, f.now);
  f.written(std::string("00000000000000ab"));
  EXPECT_EQ(f.outbox.of<protocol::RaceResults>(1).size(), 1u);
  EXPECT_TRUE(f.outbox.of<protocol::RaceResults>(2).empty());
}

}  // namespace
}  // namespace sr::server
