// The contest ladder on disk (server/ladder_store.h): names held by secrets (kept only as salted hashes), games
// spent, scored and stored, and everything read back after reopening.
#include "server/ladder_store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>

#include "server/ladder.h"

namespace sr::server {
namespace {

class LadderStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("stackrace-ladder-" + std::to_string(::getpid()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  [[nodiscard]] std::filesystem::path file() const { return dir_ / "ladder.sqlite"; }
  std::filesystem::path dir_;
};

constexpr LadderSecret kRocket{0x0123456789ABCDEFu, 0x1122334455667788u};

TEST_F(LadderStoreTest, ANameIsHeldByTheSecretThatClaimedItIgnoringCase) {
  LadderStore store;
  ASSERT_TRUE(store.open(file()).ok());
  EXPECT_EQ(store.claim("Rocket", kRocket, 1000).value(), LadderStore::Claim::kNew);
  EXPECT_EQ(store.claim("Rocket", kRocket, 2000).value(), LadderStore::Claim::kHeld);
  EXPECT_EQ(store.claim("ROCKET", kRocket, 2000).value(), LadderStore::Claim::kHeld);
  EXPECT_EQ(store.claim("rocket", LadderSecret{kRocket.hi, kRocket.lo ^ 1}, 3000).value(),
            LadderStore::Claim::kWrongSecret);
  EXPECT_EQ(store.claim("other", LadderSecret{kRocket.hi, kRocket.lo ^ 1}, 3000).value(), LadderStore::Claim::kNew);
}

TEST_F(LadderStoreTest, GamesAreReadBackAfterReopening) {
  std::int64_t first = 0, third = 0;
  {
    LadderStore store;
    ASSERT_TRUE(store.open(file()).ok());
    ASSERT_EQ(store.claim("rocket", kRocket, 1000).value(), LadderStore::Claim::kNew);
    first = store.add_game("rocket", true, 1100).value();
    const std::int64_t second = store.add_game("rocket", false, 1200).value();
    third = store.add_game("rocket", true, 1300).value();
    EXPECT_EQ(second, first + 1);
    EXPECT_EQ(third, first + 2);
    ASSERT_TRUE(store.set_result(first, 4'000, 5).ok());
    ASSERT_TRUE(store.set_replay(first, 0xFEDCBA9876543210u).ok());  // above 2^63: kept bit for bit
    ASSERT_TRUE(store.set_result(second, 800, 1).ok());
  }
  LadderStore store;
  ASSERT_TRUE(store.open(file()).ok());
  const auto contents = store.load();
  ASSERT_TRUE(contents.ok()) << contents.error();
  EXPECT_EQ(contents.value().entrants, std::vector<std::string>{"rocket"});
  const auto& games = contents.value().games;
  ASSERT_EQ(games.size(), 2u) << "the ranked games; the practice game is only counted";
  EXPECT_EQ(contents.value().practice_games, 1u);
  EXPECT_EQ(games[0].seq, first);
  EXPECT_TRUE(games[0].ranked && games[0].scored);
  EXPECT_EQ(games[0].score, 4'000);
  EXPECT_EQ(games[0].lines, 5);
  EXPECT_EQ(games[0].game_id, 0xFEDCBA9876543210u);
  EXPECT_EQ(games[1].seq, third);
  EXPECT_TRUE(games[1].ranked);
  EXPECT_FALSE(games[1].scored) << "spent but never finished";
  EXPECT_EQ(store.claim("rocket", kRocket, 2000).value(), LadderStore::Claim::kHeld);
}

TEST_F(LadderStoreTest, TheSecretIsNotKeptInTheFile) {
  {
    LadderStore store;
    ASSERT_TRUE(store.open(file()).ok());
    ASSERT_EQ(store.claim("rocket", kRocket, 1000).value(), LadderStore::Claim::kNew);
  }
  std::ifstream in(file(), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  for (const char* needle : {"0123456789abcdef", "0123456789ABCDEF", "\x01\x23\x45\x67\x89\xAB\xCD\xEF",
                             "\xEF\xCD\xAB\x89\x67\x45\x23\x01", "1122334455667788"}) {
    EXPECT_EQ(bytes.find(needle), std::string::npos) << "the secret appears in the file";
  }
}

TEST_F(LadderStoreTest, AnUnwritableFileIsASentence) {
  LadderStore store;
  const auto opened = store.open(dir_ / "missing-dir" / "ladder.sqlite");
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("missing-dir"), std::string::npos) << opened.error();
}

TEST_F(LadderStoreTest, TheLadderRefusesAWrongSecretAndSpentRankedGames) {
  LadderOptions options;
  options.enabled = true;
  options.rules = LadderRules{2, 2};
  Ladder ladder(options);
  ASSERT_TRUE(ladder.open(file()).ok());
  ASSERT_TRUE(ladder.check("rocket", kRocket, true, 0).ok());
  const auto thief = ladder.check("Rocket", LadderSecret{1, 2}, false, 0);
  ASSERT_FALSE(thief.ok());
  EXPECT_EQ(thief.error(), "entrant 'Rocket' is held by another secret (pick another name, or use its secret file)");
  ASSERT_TRUE(ladder.start("rocket", true, 7, 1, 0).ok());
  protocol::RaceResults results{1, protocol::RaceEndReason::kTimeUp, 90'000'000, {}};
  results.racers.push_back({3, "bot", 1, protocol::RacerStatus::kFinished, 90'000'000, 9, 7'200, 60, 67, 300, 0, 0});
  ladder.race_ended(7, results);
  ladder.replay_written(7, 1, 0xABCu);
  ASSERT_TRUE(ladder.start("rocket", true, 8, 1, 0).ok());
  ASSERT_TRUE(ladder.check("rocket", kRocket, false, 0).ok()) << "practice is unlimited";
  const auto spent = ladder.check("rocket", kRocket, true, 0);
  ASSERT_FALSE(spent.ok());
  EXPECT_EQ(spent.error(), "entrant 'rocket' has played its 2 ranked games (practice games are unlimited)");
  const protocol::Ladder board = ladder.board();
  EXPECT_EQ(board, (protocol::Ladder{2, 2, 1, {{"rocket", 2, {{0xABC, 7'200, 9}}}}}));
  // A full ladder takes no new name, but its entrants go on.
  LadderOptions small = options;
  small.max_entrants = 1;
  Ladder full(small);
  ASSERT_TRUE(full.open(dir_ / "full.sqlite").ok());
  ASSERT_TRUE(full.check("first", kRocket, false, 0).ok());
  const auto refused = full.check("second", kRocket, false, 0);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), "the ladder is full (1 entrants): enter under a name already on it");
  EXPECT_TRUE(full.check("FIRST", kRocket, false, 0).ok());
  // The same after reopening: the second game never finished but stays spent.
  Ladder again(options);
  ASSERT_TRUE(again.open(file()).ok());
  EXPECT_EQ(again.board(), board);
  EXPECT_FALSE(again.check("rocket", kRocket, true, 0).ok());
}

// Practice is unlimited: a practice game is in memory only while it is played, and afterwards only counted.
TEST_F(LadderStoreTest, PracticeGamesAreCountedButNotKeptInMemory) {
  LadderOptions options;
  options.enabled = true;
  Ladder ladder(options);
  ASSERT_TRUE(ladder.open(file()).ok());
  ASSERT_TRUE(ladder.check("rocket", kRocket, true, 0).ok());
  ASSERT_TRUE(ladder.start("rocket", true, 1, 1, 0).ok());
  protocol::RaceResults results{1, protocol::RaceEndReason::kTimeUp, 90'000'000, {}};
  results.racers.push_back({3, "bot", 1, protocol::RacerStatus::kFinished, 90'000'000, 9, 7'200, 60, 67, 300, 0, 0});
  ladder.race_ended(1, results);
  ladder.replay_written(1, 1, 0xABCu);
  const protocol::Ladder board = ladder.board();
  for (std::uint32_t room = 2; room < 22; ++room) {
    ASSERT_TRUE(ladder.check("rocket", kRocket, false, 0).ok());
    ASSERT_TRUE(ladder.start("rocket", false, room, 1, 0).ok());
    EXPECT_EQ(ladder.games_in_memory(), 2u) << "the ranked game and the practice game being played";
    auto practice = results;
    practice.racers.front().score = 99'999;  // better than the ranked game, and counting nowhere
    ladder.race_ended(room, practice);
    ladder.replay_written(room, 1, 0x1000u + room);
    EXPECT_EQ(ladder.games_in_memory(), 1u);
  }
  EXPECT_EQ(ladder.board(), board);
  EXPECT_EQ(ladder.stats().ranked_games, 1u);
  EXPECT_EQ(ladder.stats().practice_games, 20u);
  Ladder again(options);
  ASSERT_TRUE(again.open(file()).ok());
  EXPECT_EQ(again.games_in_memory(), 1u);
  EXPECT_EQ(again.stats().practice_games, 20u);
  EXPECT_EQ(again.board(), board);
}

}  // namespace
}  // namespace sr::server
