// The race results table: finishers first, and everyone else's status in words instead of a time that reads like a
// finish ("2 · player · 0:14.722" under the winner's 1:09.334).
#include "client/lobby/race_results.h"

#include <gtest/gtest.h>

namespace sr::client {
namespace {

protocol::RacerResult racer(const std::string& name, std::uint8_t place, protocol::RacerStatus status,
                            engine::TimeUs time_us, std::int64_t score = 0) {
  protocol::RacerResult r;
  r.player_id = place + 1u;
  r.name = name;
  r.place = place;
  r.status = status;
  r.time_us = time_us;
  r.score = score;
  r.lines = 12;
  r.pieces = 30;
  r.pps_x100 = 247;
  r.kpp_x100 = 305;
  return r;
}

std::vector<std::string> summary(const std::vector<ResultRow>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) out.push_back(r.place + " | " + r.name + " | " + r.outcome);
  return out;
}

TEST(RaceResults, ASprintShowsFinishersFirstAndHowTheOthersEnded) {
  protocol::RaceResults results;
  // The server's order ranks a top-out second; one who left and one removed have no place.
  results.racers = {racer("winner", 1, protocol::RacerStatus::kFinished, 69'334'000),
                    racer("player", 2, protocol::RacerStatus::kToppedOut, 14'722'000),
                    racer("quitter", 0, protocol::RacerStatus::kDisconnected, 3'000'000),
                    racer("second", 3, protocol::RacerStatus::kFinished, 80'000'000),
                    racer("cheat", 0, protocol::RacerStatus::kRemoved, 5'500'000),
                    racer("slow", 4, protocol::RacerStatus::kUnfinished, 600'000'000)};
  EXPECT_EQ(summary(result_rows(results, engine::GoalKind::kTime)),
            (std::vector<std::string>{"1 | winner | 1:09.334", "3 | second | 1:20.000",
                                      " | player | topped out at 0:14.722", " | slow | did not finish at 10:00.000",
                                      " | quitter | left at 0:03.000", " | cheat | removed at 0:05.500"}));
  const ResultRow first = result_rows(results, engine::GoalKind::kTime).front();
  EXPECT_TRUE(first.finished);
  EXPECT_EQ(first.lines, "12");
  EXPECT_EQ(first.pps, "2.47");
  EXPECT_EQ(first.kpp, "3.05");
  EXPECT_EQ(first.unverified, "");
}

TEST(RaceResults, AScoreRaceRanksEveryoneAndSaysWhoToppedOut) {
  protocol::RaceResults results;
  results.racers = {racer("a", 1, protocol::RacerStatus::kFinished, 120'000'000, 9'000),
                    racer("b", 2, protocol::RacerStatus::kToppedOut, 50'000'000, 12'345),
                    racer("c", 3, protocol::RacerStatus::kFinished, 120'000'000, 800)};
  EXPECT_EQ(summary(result_rows(results, engine::GoalKind::kScore)),
            (std::vector<std::string>{"1 | a | 9,000", "3 | c | 800", "2 | b | 12,345 (topped out)"}));
}

// The server's game list by the same rules: a top-out in a sprint gets no place and no time that reads like a
// finish, and a game of one racer has no places at all.
TEST(RaceResults, TheGameListPlacesOnlyFinishersOfATimedGame) {
  protocol::GameSummary race;
  race.mode.goal = engine::GoalKind::kTime;
  race.racers = {{"ada", 1, protocol::RacerStatus::kFinished, 69'334'000, 40, 0},
                 {"bob", 2, protocol::RacerStatus::kToppedOut, 14'722'000, 9, 0},
                 {"cy", 0, protocol::RacerStatus::kDisconnected, 3'000'000, 1, 0}};
  GameListRow row = game_list_row(race);
  EXPECT_EQ(row.racers, "1. ada, bob (topped out), cy (left)");
  EXPECT_EQ(row.result, "1:09.334");

  protocol::GameSummary solo;
  solo.mode.goal = engine::GoalKind::kTime;
  solo.racers = {{"bob", 1, protocol::RacerStatus::kToppedOut, 14'722'000, 9, 0}};
  row = game_list_row(solo);
  EXPECT_EQ(row.racers, "bob (topped out)");
  EXPECT_EQ(row.result, "topped out at 0:14.722");

  protocol::GameSummary ultra;
  ultra.mode.goal = engine::GoalKind::kScore;
  ultra.racers = {{"ada", 1, protocol::RacerStatus::kFinished, 120'000'000, 30, 23'456},
                  {"bob", 2, protocol::RacerStatus::kToppedOut, 50'000'000, 9, 12'345}};
  row = game_list_row(ultra);
  EXPECT_EQ(row.racers, "1. ada, 2. bob (topped out)");
  EXPECT_EQ(row.result, "23,456");
  EXPECT_EQ(game_list_row(protocol::GameSummary{}).result, "");
}

}  // namespace
}  // namespace sr::client
