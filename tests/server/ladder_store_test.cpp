// The contest ladder on disk (server/ladder_store.h): names held by player keys (and, from before keys, by secrets
// kept only as salted hashes, which pass to a key), games spent, scored and stored, and everything read back after
// reopening.
#include "server/ladder_store.h"

#include <gtest/gtest.h>
#include <sodium.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>

#include "server/ladder.h"
#include "tests/support/test_keys.h"

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

const protocol::PublicKeyBytes kRocket = test::test_key("rocket team").public_key();
const protocol::PublicKeyBytes kThief = test::test_key("thief").public_key();
constexpr std::nullopt_t kNoSecret = std::nullopt;

TEST_F(LadderStoreTest, ANameIsHeldByTheKeyThatClaimedItIgnoringCase) {
  LadderStore store;
  ASSERT_TRUE(store.open(file()).ok());
  EXPECT_EQ(store.claim("Rocket", kRocket, kNoSecret, 1000).value(), LadderStore::Claim::kNew);
  EXPECT_EQ(store.claim("Rocket", kRocket, kNoSecret, 2000).value(), LadderStore::Claim::kHeld);
  EXPECT_EQ(store.claim("ROCKET", kRocket, kNoSecret, 2000).value(), LadderStore::Claim::kHeld);
  EXPECT_EQ(store.claim("rocket", kThief, kNoSecret, 3000).value(), LadderStore::Claim::kOtherKey);
  EXPECT_EQ(store.claim("other", kThief, kNoSecret, 3000).value(), LadderStore::Claim::kNew);
}

TEST_F(LadderStoreTest, GamesAreReadBackAfterReopening) {
  std::int64_t first = 0, third = 0;
  {
    LadderStore store;
    ASSERT_TRUE(store.open(file()).ok());
    ASSERT_EQ(store.claim("rocket", kRocket, kNoSecret, 1000).value(), LadderStore::Claim::kNew);
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
  EXPECT_EQ(store.claim("rocket", kRocket, kNoSecret, 2000).value(), LadderStore::Claim::kHeld);
}

// A ladder from before player keys: entrants held by secrets, kept as salted BLAKE2b hashes, and no key column. Opened
// by this version, an entrant passes to the first key that shows its secret, and then only that key holds it.
TEST_F(LadderStoreTest, AnEntrantHeldByASecretFromBeforeKeysPassesToTheKeyThatShowsIt) {
  constexpr LadderSecret kOld{0x0123456789ABCDEFu, 0x1122334455667788u};
  {
    replay::sqlite::Db db;
    ASSERT_TRUE(db.open(file()).ok());
    ASSERT_TRUE(db.exec("CREATE TABLE entrants (name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE, salt TEXT NOT NULL, "
                        "secret_hash TEXT NOT NULL, created_unix_ms INTEGER NOT NULL);")
                    .ok());
    // The hash as that version made it: BLAKE2b-256 of the secret's 16 bytes (big-endian), keyed by the salt.
    const std::array<unsigned char, 16> salt{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    std::array<unsigned char, 16> secret{};
    for (int i = 0; i < 8; ++i) {
      secret[static_cast<std::size_t>(i)] = static_cast<unsigned char>(kOld.hi >> (56 - 8 * i));
      secret[static_cast<std::size_t>(8 + i)] = static_cast<unsigned char>(kOld.lo >> (56 - 8 * i));
    }
    std::array<unsigned char, 32> hash{};
    crypto_generichash(hash.data(), hash.size(), secret.data(), secret.size(), salt.data(), salt.size());
    char salt_hex[33], hash_hex[65];
    sodium_bin2hex(salt_hex, sizeof salt_hex, salt.data(), salt.size());
    sodium_bin2hex(hash_hex, sizeof hash_hex, hash.data(), hash.size());
    const std::string insert =
        std::string("INSERT INTO entrants VALUES ('Rocket', '") + salt_hex + "', '" + hash_hex + "', 1000);";
    ASSERT_TRUE(db.exec(insert.c_str()).ok());
  }
  LadderStore store;
  const auto opened = store.open(file());
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_EQ(store.claim("rocket", kRocket, kNoSecret, 2000).value(), LadderStore::Claim::kNeedsSecret);
  EXPECT_EQ(store.claim("rocket", kRocket, LadderSecret{kOld.hi, kOld.lo ^ 1}, 2000).value(),
            LadderStore::Claim::kNeedsSecret);
  EXPECT_EQ(store.claim("ROCKET", kRocket, kOld, 2000).value(), LadderStore::Claim::kPassed);
  EXPECT_EQ(store.claim("rocket", kRocket, kNoSecret, 3000).value(), LadderStore::Claim::kHeld);
  EXPECT_EQ(store.claim("rocket", kThief, kOld, 3000).value(), LadderStore::Claim::kOtherKey)
      << "the old secret holds nothing once the entrant passed";
  // The ladder says what to do.
  LadderOptions options;
  options.enabled = true;
  Ladder ladder(options);
  ASSERT_TRUE(ladder.open(dir_ / "ladder.sqlite").ok());
  const auto held = ladder.check("Rocket", kThief, kNoSecret, false, 0);
  ASSERT_FALSE(held.ok());
  EXPECT_EQ(held.error(), "entrant 'Rocket' is held by another player's key (pick another name)");
}

TEST_F(LadderStoreTest, AnUnwritableFileIsASentence) {
  LadderStore store;
  const auto opened = store.open(dir_ / "missing-dir" / "ladder.sqlite");
  ASSERT_FALSE(opened.ok());
  EXPECT_NE(opened.error().find("missing-dir"), std::string::npos) << opened.error();
}

TEST_F(LadderStoreTest, TheLadderRefusesAnotherKeyAndSpentRankedGames) {
  LadderOptions options;
  options.enabled = true;
  options.rules = LadderRules{2, 2};
  Ladder ladder(options);
  ASSERT_TRUE(ladder.open(file()).ok());
  ASSERT_TRUE(ladder.check("rocket", kRocket, kNoSecret, true, 0).ok());
  const auto thief = ladder.check("Rocket", kThief, kNoSecret, false, 0);
  ASSERT_FALSE(thief.ok());
  EXPECT_EQ(thief.error(), "entrant 'Rocket' is held by another player's key (pick another name)");
  ASSERT_TRUE(ladder.start("rocket", true, 7, 1, 0).ok());
  protocol::RaceResults results{1, protocol::RaceEndReason::kTimeUp, 90'000'000, {}};
  results.racers.push_back({3, "bot", 1, protocol::RacerStatus::kFinished, 90'000'000, 9, 7'200, 60, 67, 300, 0, 0});
  ladder.race_ended(7, results);
  ladder.replay_written(7, 1, 0xABCu);
  ASSERT_TRUE(ladder.start("rocket", true, 8, 1, 0).ok());
  ASSERT_TRUE(ladder.check("rocket", kRocket, kNoSecret, false, 0).ok()) << "practice is unlimited";
  const auto spent = ladder.check("rocket", kRocket, kNoSecret, true, 0);
  ASSERT_FALSE(spent.ok());
  EXPECT_EQ(spent.error(), "entrant 'rocket' has played its 2 ranked games (practice games are unlimited)");
  const protocol::Ladder board = ladder.board();
  EXPECT_EQ(board, (protocol::Ladder{2, 2, 1, {{"rocket", 2, {{0xABC, 7'200, 9}}}}}));
  // A full ladder takes no new name, but its entrants go on.
  LadderOptions small = options;
  small.max_entrants = 1;
  Ladder full(small);
  ASSERT_TRUE(full.open(dir_ / "full.sqlite").ok());
  ASSERT_TRUE(full.check("first", kRocket, kNoSecret, false, 0).ok());
  const auto refused = full.check("second", kRocket, kNoSecret, false, 0);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error(), "the ladder is full (1 entrants): enter under a name already on it");
  EXPECT_TRUE(full.check("FIRST", kRocket, kNoSecret, false, 0).ok());
  // The same after reopening: the second game never finished but stays spent.
  Ladder again(options);
  ASSERT_TRUE(again.open(file()).ok());
  EXPECT_EQ(again.board(), board);
  EXPECT_FALSE(again.check("rocket", kRocket, kNoSecret, true, 0).ok());
}

// Practice is unlimited: a practice game is in memory only while it is played, and afterwards only counted.
TEST_F(LadderStoreTest, PracticeGamesAreCountedButNotKeptInMemory) {
  LadderOptions options;
  options.enabled = true;
  Ladder ladder(options);
  ASSERT_TRUE(ladder.open(file()).ok());
  ASSERT_TRUE(ladder.check("rocket", kRocket, kNoSecret, true, 0).ok());
  ASSERT_TRUE(ladder.start("rocket", true, 1, 1, 0).ok());
  protocol::RaceResults results{1, protocol::RaceEndReason::kTimeUp, 90'000'000, {}};
  results.racers.push_back({3, "bot", 1, protocol::RacerStatus::kFinished, 90'000'000, 9, 7'200, 60, 67, 300, 0, 0});
  ladder.race_ended(1, results);
  ladder.replay_written(1, 1, 0xABCu);
  const protocol::Ladder board = ladder.board();
  for (std::uint32_t room = 2; room < 22; ++room) {
    ASSERT_TRUE(ladder.check("rocket", kRocket, kNoSecret, false, 0).ok());
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
