// The end of a race on a real server and its replay store: a server told to stop (SIGTERM) mid-race writes the
// replay first, then sends the results (racers still racing are unfinished, in the results and in the replay), then
// the goodbyes; on a full disk the players are told their race was not stored, and nothing half-written is left.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <thread>

#include "replays/store/file_io.h"
#include "tests/server/net_fixture.h"

namespace sr::test {
namespace {

using namespace std::chrono_literals;

template <class T>
std::vector<T> received_of(const BotClient& c) {
  std::vector<T> out;
  for (const auto& m : c.received()) {
    if (const auto* t = std::get_if<T>(&m)) out.push_back(*t);
  }
  return out;
}

TEST(ServerStore, AtShutDownARunningRaceIsWrittenThenAnnouncedWithItsRacersUnfinished) {
  ServerFixture server;
  BotClient alice("alice", server.port()), bob("bob", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  protocol::RoomSettings settings;
  settings.name = "endless";
  settings.config = engine::make_endless();
  settings.auto_start = true;
  ASSERT_TRUE(alice.session().create_room(settings));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice}, [&] { return alice.session().room().has_value(); }, 5s));
  ASSERT_TRUE(bob.session().join_room(alice.session().room()->room_id, protocol::Role::kRacer));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.session().room().has_value(); }, 5s));
  alice.session().set_ready(true);
  bob.session().set_ready(true);
  ASSERT_TRUE(BotClient::pump_until(
      {&alice, &bob},
      [&] { return alice.session().race() && alice.session().race()->mine()->game().stats().pieces >= 5; }, 60s));

  // stop() blocks until the server's loop has shut down; the clients keep reading meanwhile.
  std::thread stopper([&] { (void)server.stop(); });
  const bool told = BotClient::pump_until(
      {&alice, &bob},
      [&] {
        return !received_of<protocol::ReplayStored>(alice).empty() && !received_of<protocol::ReplayStored>(bob).empty();
      },
      30s);
  stopper.join();
  ASSERT_TRUE(told);

  for (BotClient* c : {&alice, &bob}) {
    const auto results = received_of<protocol::RaceResults>(*c);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].reason, protocol::RaceEndReason::kAborted);
    ASSERT_EQ(results[0].racers.size(), 2u);
    for (const auto& r : results[0].racers) EXPECT_EQ(r.status, protocol::RacerStatus::kUnfinished) << r.name;
    // The results came after the replay was durable, and just before its id.
    const auto& got = c->received();
    const auto at_results = std::find_if(got.begin(), got.end(), [](const protocol::Message& m) {
      return std::holds_alternative<protocol::RaceResults>(m);
    });
    ASSERT_NE(at_results + 1, got.end());
    EXPECT_TRUE(std::holds_alternative<protocol::ReplayStored>(*(at_results + 1)));
  }
  const auto stored = server.stored_replays();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].verified) << stored[0].message;
  for (const auto& r : stored[0].replay.racers) EXPECT_EQ(r.result.status, replay::ResultStatus::kUnfinished);
  EXPECT_EQ(received_of<protocol::ReplayStored>(alice)[0].game_id,
            server::game_id_number(stored[0].file.stem().string()));
}

TEST(ServerStore, OnAFullDiskThePlayersAreToldTheirRaceWasNotStored) {
  ServerFixture server;
  BotClient alice("alice", server.port()), bob("bob", server.port());
  ASSERT_TRUE(alice.connect());
  ASSERT_TRUE(bob.connect());
  protocol::RoomSettings settings;
  settings.name = "full";
  settings.config = engine::make_sprint(4);
  settings.auto_start = true;
  ASSERT_TRUE(alice.session().create_room(settings));
  ASSERT_TRUE(BotClient::pump_until(
      {&alice}, [&] { return alice.session().room().has_value(); }, 5s));
  ASSERT_TRUE(bob.session().join_room(alice.session().room()->room_id, protocol::Role::kRacer));
  ASSERT_TRUE(BotClient::pump_until(
      {&bob}, [&] { return bob.session().room().has_value(); }, 5s));
  replay::set_io_faults({0, ENOSPC});  // every write from now on finds the disk full
  alice.session().set_ready(true);
  bob.session().set_ready(true);
  const bool told = BotClient::pump_until(
      {&alice, &bob},
      [&] { return alice.session().replay_not_stored().has_value() && bob.session().replay_not_stored().has_value(); },
      60s);
  replay::set_io_faults({});
  ASSERT_TRUE(told);
  for (BotClient* c : {&alice, &bob}) {
    ASSERT_TRUE(c->session().results().has_value());
    EXPECT_EQ(*c->session().replay_not_stored(), "the server's disk is full");
    EXPECT_FALSE(c->session().stored_replay().has_value());
    EXPECT_EQ(net::describe_not_stored(*c->session().replay_not_stored()),
              "replay not stored: the server's disk is full");
  }
  const server::ServerStats stats = server.stop();
  EXPECT_EQ(stats.replays_written, 0u);
  EXPECT_EQ(stats.replays_failed, 1u);
  std::vector<std::string> entries;
  for (const auto& e : std::filesystem::directory_iterator(server.data_dir())) {
    const std::string name = e.path().filename().string();
    if (name.rfind("names.sqlite", 0) != 0) entries.push_back(name);  // the names' keys (server/name_book.h)
  }
  EXPECT_EQ(entries, std::vector<std::string>{"index.sqlite"}) << "no replay file, no temporary file";
}

}  // namespace
}  // namespace sr::test
