// The replay lists a server sends the game (ListGames -> GameList): a name that two players' keys raced under is
// listed with "#" and the key's short id, cut to fit the wire's 16 bytes; a name only one key used is listed as it is.
#include "server/replay_service.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "replays/store/file_io.h"
#include "tests/server/lobby_race_fixture.h"

namespace sr::server {
namespace {

replay::RacerKey key_counting_from(std::uint8_t first) {
  replay::RacerKey k{};
  for (std::size_t i = 0; i < k.size(); ++i) k[i] = static_cast<std::uint8_t>(first + i);
  return k;
}

class ReplayServiceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("sr-replay-service-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The golden three-racer race (ada, bo, cy) with racer 0 renamed and keyed, played at `unix_ms`.
  void add(const std::string& name, std::optional<replay::RacerKey> key, std::int64_t unix_ms) {
    auto race = replay::load_replay_file(std::filesystem::path(STACKRACE_TEST_DATA) / "current" / "race_sprint.srr");
    ASSERT_TRUE(race.ok());
    replay::Replay r = race.value();
    r.racers[0].name = name;
    r.racers[0].key = key;
    r.created_unix_ms = unix_ms;
    auto store = replay::ReplayStore::open(dir_, true);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE(store.value().add(r).ok());
  }

  std::vector<std::string> first_racers(protocol::GameListKind kind) {
    ReplayService service;
    EXPECT_TRUE(service.open(dir_).ok());
    lobby_test::RecordingOutbox outbox;
    protocol::ListGames ask;
    ask.kind = kind;
    ask.player = kind == protocol::GameListKind::kPersonalBests ? "sixteen_letters_" : "";
    service.list(7, "asker", ask, outbox);
    const auto lists = outbox.of<protocol::GameList>(7);
    EXPECT_EQ(lists.size(), 1u);
    std::vector<std::string> names;
    for (const auto& g : lists.empty() ? std::vector<protocol::GameSummary>{} : lists[0].games) {
      const auto winner = std::find_if(g.racers.begin(), g.racers.end(), [](const auto& r) { return r.place == 1; });
      names.push_back(winner == g.racers.end() ? std::string("?") : winner->name);
    }
    return names;
  }

  std::filesystem::path dir_;
};

TEST_F(ReplayServiceTest, ANameTwoKeysRacedUnderIsListedWithTheKeysShortId) {
  add("sixteen_letters_", key_counting_from(0), 1'000);  // short id cb2f5160
  add("ada", key_counting_from(0), 2'000);
  add("ada", std::nullopt, 3'000);  // before keys: never "shared"
  EXPECT_EQ(first_racers(protocol::GameListKind::kRecent),
            (std::vector<std::string>{"ada", "ada", "sixteen_letters_"}));

  add("sixteen_letters_", key_counting_from(100), 4'000);  // short id bdf247bd
  EXPECT_EQ(first_racers(protocol::GameListKind::kRecent),
            (std::vector<std::string>{"sixteen#bdf247bd", "ada", "ada", "sixteen#cb2f5160"}));
  // The best of that name: the first played (the same game twice), with its key.
  EXPECT_EQ(first_racers(protocol::GameListKind::kPersonalBests), (std::vector<std::string>{"sixteen#cb2f5160"}));
}

}  // namespace
}  // namespace sr::server
