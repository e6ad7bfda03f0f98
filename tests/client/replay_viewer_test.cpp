#include "client/replay/replay_viewer.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

#include "common/replay/board_text.h"
#include "tests/support/status.h"

namespace sr::client {
namespace {

const std::string kSprint = std::string(STACKRACE_TEST_DATA) + "/bot_sprint.srr";

// The first 20 lines of `stackrace-replay board FILE ARGS`: the matrix rows.
std::string tool_rows(const std::string& file, const std::string& args) {
  const std::string command = std::string(STACKRACE_REPLAY_TOOL) + " board " + file + " " + args;
  FILE* p = popen(command.c_str(), "r");
  if (p == nullptr) return "cannot run " + command;
  std::string out;
  std::array<char, 256> buf{};
  int lines = 0;
  while (lines < 20 && std::fgets(buf.data(), buf.size(), p) != nullptr) {
    out += buf.data();
    if (out.back() == '\n') ++lines;
  }
  pclose(p);
  return out;
}

std::string rows(const engine::Game& game) {
  const std::string text = replay::board_text(game);
  std::size_t end = 0;
  for (int i = 0; i < 20; ++i) end = text.find('\n', end) + 1;
  return text.substr(0, end);
}

TEST(ReplayViewer, OpensAndVerifiesAGoldenReplay) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kSprint)), std::nullopt);
  EXPECT_TRUE(v.verified()) << v.verdict();
  EXPECT_GT(v.end_us(), 0);
  EXPECT_EQ(v.position_us(), 0);
}

TEST(ReplayViewer, SeekShowsTheBoardTheReplayToolShows) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kSprint)), std::nullopt);
  const engine::TimeUs t = v.end_us() / 2 / 1000 * 1000;
  v.seek(t);
  EXPECT_EQ(rows(v.games().at(0)), tool_rows(kSprint, "--time-ms " + std::to_string(t / 1000)));
}

TEST(ReplayViewer, PlayingForwardMatchesSeeking) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kSprint)), std::nullopt);
  v.playing = true;
  v.speed = 8.0;
  const engine::TimeUs target = v.end_us() * 3 / 4 / 1000 * 1000;
  while (v.position_us() + 40'000 < target) v.tick(0.005);  // 40 ms of game per tick
  v.playing = false;
  const engine::TimeUs at = v.position_us();
  const std::string played = rows(v.games().at(0));
  v.seek(at);
  EXPECT_EQ(played, rows(v.games().at(0)));
}

TEST(ReplayViewer, StepsOnePieceForwardAndBack) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kSprint)), std::nullopt);
  v.seek(v.end_us() / 2);
  const std::int64_t pieces = v.games().at(0).stats().pieces;
  v.step_piece(0, +1);
  EXPECT_EQ(v.games().at(0).stats().pieces, pieces + 1);
  EXPECT_EQ(rows(v.games().at(0)), tool_rows(kSprint, "--piece " + std::to_string(pieces + 1)));
  v.step_piece(0, -1);
  EXPECT_EQ(v.games().at(0).stats().pieces, pieces);
}

TEST(ReplayViewer, CurvesEndAtTheRecordedLinesAndPace) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kSprint)), std::nullopt);
  ASSERT_EQ(v.curves().size(), v.replay().racers.size());
  const auto& stats = v.replay().racers[0].result.stats;
  const auto& c = v.curves()[0];
  ASSERT_EQ(c.lines.size(), static_cast<std::size_t>(ReplayViewer::kCurvePoints));
  EXPECT_EQ(c.lines.back(), static_cast<float>(stats.lines));
  EXPECT_NEAR(c.pps.back(), static_cast<double>(stats.pieces) * 1e6 / static_cast<double>(stats.time_us), 0.01);
}

// A race replay (tests/data/race_sprint.srr): ada finished at 35.475 s, bo topped out at 10.800 s, cy disconnected
// at 10.226 s.
const std::string kRace = std::string(STACKRACE_TEST_DATA) + "/race_sprint.srr";

TEST(ReplayViewer, ARaceEndsWhenItsLastRacerEnds) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kRace)), std::nullopt);
  ASSERT_EQ(v.games().size(), 3u);
  EXPECT_TRUE(v.verified()) << v.verdict();
  // Not the first racer's end, nor the one who stopped first, nor their last inputs: the end of the race.
  EXPECT_EQ(v.end_us(), 35'475'000);
  v.seek(v.end_us() + 1'000'000);  // past the end: clamped
  EXPECT_EQ(v.position_us(), 35'475'000);
  EXPECT_EQ(v.games()[0].now(), 35'475'000);
  EXPECT_EQ(v.games()[1].now(), 10'800'000);  // topped out
  EXPECT_EQ(v.games()[2].now(), 10'226'000);  // disconnected
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(v.racer_of(i), i);
    EXPECT_EQ(rows(v.games()[i]), tool_rows(kRace, "--racer " + std::to_string(i))) << "racer " << i;
  }
}

TEST(ReplayViewer, RacersWhoStoppedStayAtTheirEndWhileTheRacePlaysOn) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kRace)), std::nullopt);
  v.seek(10'000'000);
  EXPECT_EQ(rows(v.games()[1]), tool_rows(kRace, "--racer 1 --time-ms 10000"));
  v.playing = true;
  v.speed = 4.0;
  while (v.position_us() < 20'000'000) v.tick(0.01);  // through bo's and cy's ends
  EXPECT_EQ(v.games()[1].now(), 10'800'000);
  EXPECT_EQ(v.games()[2].now(), 10'226'000);
  EXPECT_EQ(rows(v.games()[1]), tool_rows(kRace, "--racer 1"));
  EXPECT_EQ(rows(v.games()[2]), tool_rows(kRace, "--racer 2"));
  EXPECT_EQ(rows(v.games()[0]), tool_rows(kRace, "--racer 0 --time-ms " + std::to_string(v.position_us() / 1000)));
}

// Each racer who has ended by the viewer's position gets a banner saying how: none before, the right words after.
TEST(ReplayViewer, ARacerWhoEndedSaysHow) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kRace)), std::nullopt);
  v.seek(10'000'000);  // everyone still playing
  for (std::size_t i = 0; i < 3; ++i) EXPECT_STREQ(v.end_banner(i), "") << i;
  v.seek(10'226'000);  // cy has just left
  EXPECT_STREQ(v.end_banner(0), "");
  EXPECT_STREQ(v.end_banner(1), "");
  EXPECT_STREQ(v.end_banner(2), "LEFT");
  v.seek(10'800'000);  // bo topped out
  EXPECT_STREQ(v.end_banner(1), "TOPPED OUT");
  EXPECT_STREQ(v.end_banner(0), "");
  v.seek(v.end_us());  // the winner finished
  EXPECT_STREQ(v.end_banner(0), "FINISHED");
  EXPECT_STREQ(v.end_banner(3), "");  // no such board
}

TEST(ReplayViewer, EachRacersPaceCurveEndsAtTheirOwnPace) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(kRace)), std::nullopt);
  ASSERT_EQ(v.curves().size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const auto& stats = v.replay().racers[i].result.stats;
    const auto& c = v.curves()[i];
    EXPECT_EQ(c.lines.back(), static_cast<float>(stats.lines)) << "racer " << i;
    // bo: 31 pieces in 10.8 s is 2.87 PPS at the end of the race too, not 31 / 35.475 s.
    EXPECT_NEAR(c.pps.back(), static_cast<double>(stats.pieces) * 1e6 / static_cast<double>(stats.time_us), 0.01)
        << "racer " << i;
  }
}

TEST(ReplayViewer, SeekingToTheEndOfTheLongestGoldenIsFast) {
  ReplayViewer v;
  ASSERT_EQ(sr::test::problem_of(v.open(std::string(STACKRACE_TEST_DATA) + "/bot_marathon.srr")), std::nullopt);
  const std::int64_t us = v.seek(v.end_us());
  std::printf("seek to the end of a %.1f s game (%zu inputs): %.2f ms\n", static_cast<double>(v.end_us()) / 1e6,
              v.replay().racers.at(0).inputs.size(), static_cast<double>(us) / 1000.0);
  EXPECT_LT(us, 2'000'000);  // generous under sanitizers; the release measurement is in the README
}

}  // namespace
}  // namespace sr::client
