// The contest ladder's ranking rule (server/ladder_ranking.h) with exact values: the best 3 of up to 10, a game not
// played counting 0, ties to whoever reached the sum first, practice and unfinished games counting nowhere.
#include "server/ladder_ranking.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sr::server {
namespace {

LadderEntry ranked(std::int64_t seq, const std::string& who, std::int64_t score, std::uint64_t game_id = 0) {
  return LadderEntry{seq, who, true, true, score, score / 800, game_id};
}

TEST(LadderRanking, TheBestThreeOfTenCountBestFirst) {
  std::vector<LadderEntry> games;
  const std::int64_t scores[] = {800, 4'000, 1'200, 9'600, 2'000, 0, 4'000, 3'600, 1'800, 7'200};
  for (std::int64_t i = 0; i < 10; ++i) games.push_back(ranked(i + 1, "rocket", scores[i], 100 + i));
  const auto standings = rank_ladder({}, games, LadderRules{10, 3});
  ASSERT_EQ(standings.size(), 1u);
  const LadderStanding& s = standings[0];
  EXPECT_EQ(s.entrant, "rocket");
  EXPECT_EQ(s.ranked_played, 10);
  ASSERT_EQ(s.best.size(), 3u);
  EXPECT_EQ(s.best[0], (protocol::LadderGame{103, 9'600, 12}));
  EXPECT_EQ(s.best[1], (protocol::LadderGame{109, 7'200, 9}));
  // Two games scored 4,000: the earlier one (seq 2) counts.
  EXPECT_EQ(s.best[2], (protocol::LadderGame{101, 4'000, 5}));
  EXPECT_EQ(s.best_sum, 20'800);
  EXPECT_EQ(s.reached_seq, 10);  // the sum was complete with the tenth game
  EXPECT_EQ(protocol::ladder_average_text(s.best_sum, 3), "6933.33");
}

TEST(LadderRanking, AGameNotPlayedCountsZero) {
  // One great game does not beat three good ones: averages 3,333.33 against 3,000.00.
  const std::vector<LadderEntry> games = {ranked(1, "one-shot", 10'000), ranked(2, "steady", 3'000),
                                          ranked(3, "steady", 3'000), ranked(4, "steady", 3'000)};
  const auto standings = rank_ladder({}, games, LadderRules{10, 3});
  ASSERT_EQ(standings.size(), 2u);
  EXPECT_EQ(standings[0].entrant, "one-shot");
  EXPECT_EQ(standings[0].best_sum, 10'000);
  EXPECT_EQ(protocol::ladder_average_text(standings[0].best_sum, 3), "3333.33");
  EXPECT_EQ(standings[1].entrant, "steady");
  EXPECT_EQ(standings[1].best_sum, 9'000);
  EXPECT_EQ(protocol::ladder_average_text(standings[1].best_sum, 3), "3000.00");
}

TEST(LadderRanking, EqualSumsGoToWhoeverReachedThemFirst) {
  // "late" played first but completed its sum at seq 6; "early" completed the same sum at seq 5.
  const std::vector<LadderEntry> games = {ranked(1, "late", 1'000),  ranked(2, "early", 2'000),
                                          ranked(3, "late", 2'000),  ranked(4, "early", 1'000),
                                          ranked(5, "early", 3'000), ranked(6, "late", 3'000)};
  const auto standings = rank_ladder({}, games, LadderRules{10, 3});
  ASSERT_EQ(standings.size(), 2u);
  EXPECT_EQ(standings[0].entrant, "early");
  EXPECT_EQ(standings[0].reached_seq, 5);
  EXPECT_EQ(standings[1].entrant, "late");
  EXPECT_EQ(standings[1].reached_seq, 6);
  EXPECT_EQ(standings[0].best_sum, standings[1].best_sum);
}

// At 0.00 each, an entrant whose ranked game is in progress ranks above one who has played none, whatever their names
// (it was by name: "aaron", who had played nothing, came first).
TEST(LadderRanking, AtEqualSumsAGameInProgressRanksAboveNoGame) {
  const std::vector<LadderEntry> games = {LadderEntry{1, "zoe", true, false, 0, 0, 0}};  // ranked, not ended yet
  const std::vector<std::string> entrants = {"aaron", "zoe", "mia"};
  const auto standings = rank_ladder(entrants, games, LadderRules{10, 3});
  ASSERT_EQ(standings.size(), 3u);
  EXPECT_EQ(standings[0].entrant, "zoe");
  EXPECT_EQ(standings[0].ranked_played, 1);
  EXPECT_EQ(standings[1].entrant, "aaron");
  EXPECT_EQ(standings[2].entrant, "mia");
}

TEST(LadderRanking, PracticeAndUnfinishedGamesCountNowhere) {
  std::vector<LadderEntry> games = {ranked(1, "rocket", 1'200)};
  games.push_back(LadderEntry{2, "rocket", false, true, 50'000, 60, 7});  // practice
  games.push_back(LadderEntry{3, "ROCKET", true, false, 0, 0, 0});        // spent, never finished (a crash)
  const std::vector<std::string> entrants = {"Rocket", "newcomer"};
  const auto standings = rank_ladder(entrants, games, LadderRules{10, 3});
  ASSERT_EQ(standings.size(), 2u);
  EXPECT_EQ(standings[0].entrant, "Rocket") << "spelled as first entered, matched ignoring case";
  EXPECT_EQ(standings[0].ranked_played, 2);
  EXPECT_EQ(standings[0].practice_played, 1);
  EXPECT_EQ(standings[0].best_sum, 1'200);
  ASSERT_EQ(standings[0].best.size(), 1u);
  EXPECT_EQ(standings[1].entrant, "newcomer");
  EXPECT_EQ(standings[1].ranked_played, 0);
  EXPECT_TRUE(standings[1].best.empty());
}

TEST(LadderRanking, TheMessageHoldsTheTopRowsWithinTheRules) {
  std::vector<LadderEntry> games;
  for (std::int64_t i = 0; i < 150; ++i) games.push_back(ranked(i + 1, "e" + std::to_string(i), 100 * i));
  const protocol::Ladder m = ladder_message(rank_ladder({}, games, LadderRules{10, 3}), LadderRules{10, 3});
  EXPECT_EQ(m.ranked_games, 10);
  EXPECT_EQ(m.counted_best, 3);
  EXPECT_EQ(m.entrants, 150u);
  ASSERT_EQ(m.rows.size(), protocol::kMaxLadderRows);
  EXPECT_EQ(m.rows[0].entrant, "e149");
  EXPECT_EQ(protocol::ladder_sum(m.rows[0]), 14'900);
  EXPECT_EQ(m.rows[99].entrant, "e50");
}

TEST(LadderRanking, AveragesAreExactDecimals) {
  EXPECT_EQ(protocol::ladder_average_text(0, 3), "0.00");
  EXPECT_EQ(protocol::ladder_average_text(4'000, 3), "1333.33");
  EXPECT_EQ(protocol::ladder_average_text(5'000, 3), "1666.67");  // rounded half up
  EXPECT_EQ(protocol::ladder_average_text(2, 3), "0.67");
  EXPECT_EQ(protocol::ladder_average_text(1, 200), "0.01");  // 0.005 rounds up
  EXPECT_EQ(protocol::ladder_average_text(199, 200), "1.00");
  EXPECT_EQ(protocol::ladder_average_text(7, 1), "7.00");
}

}  // namespace
}  // namespace sr::server
