// client/lobby/record_place.h: which race results are asked about (replay::record_board and result_counts, the
// hub's own rules), the exact question, and the line under the results for every answer.
#include "client/lobby/record_place.h"

#include <gtest/gtest.h>

#include <string>

namespace sr::client {
namespace {

using Answer = sr::Result<std::vector<std::uint8_t>, HttpError>;

Answer answer_of(const std::string& text) { return std::vector<std::uint8_t>(text.begin(), text.end()); }

protocol::RacerResult result(protocol::RacerStatus status, engine::TimeUs time_us, std::int64_t score = 0,
                             std::int64_t lines = 40) {
  protocol::RacerResult r;
  r.player_id = 1;
  r.name = "ada";
  r.place = 1;
  r.status = status;
  r.time_us = time_us;
  r.score = score;
  r.lines = lines;
  r.pieces = 101;
  return r;
}

TEST(RecordPlace, AFinishedSprintAsksWithItsTime) {
  engine::GameConfig sprint = engine::make_sprint(40);
  sprint.handling.das_us = 100'000;  // handling never makes a board custom
  auto ask =
      RecordPlaceAsk::make("http://hub.example.org", sprint, result(protocol::RacerStatus::kFinished, 41'234'000));
  ASSERT_TRUE(ask);
  EXPECT_EQ(ask->url(), "http://hub.example.org/api/records/sprint-40l/place?time_us=41234000");
  EXPECT_EQ(ask->board().id, "sprint-40l");
  EXPECT_EQ(ask->value(), 41'234'000);
  EXPECT_FALSE(ask->has_answer());
  EXPECT_EQ(ask->line(), "Asking hub.example.org where this run would place...");
  ask->answered(answer_of(R"({"board":"sprint-40l","list":"trusted","place":4,"of":12})"));
  EXPECT_TRUE(ask->has_answer());
  EXPECT_EQ(ask->line(), "On the records of hub.example.org this run would place #4 of 12 (sprint-40l)");
}

TEST(RecordPlace, ScoresAndTheOtherList) {
  auto ultra = RecordPlaceAsk::make("http://127.0.0.1:8080", engine::make_ultra(120),
                                    result(protocol::RacerStatus::kFinished, 120'000'000, 98'765));
  ASSERT_TRUE(ultra);
  EXPECT_EQ(ultra->url(), "http://127.0.0.1:8080/api/records/ultra-120s/place?score=98765");
  ultra->answered(answer_of(R"({"board":"ultra-120s","list":"other","place":1,"of":0})"));
  EXPECT_EQ(ultra->line(),
            "On the records of 127.0.0.1:8080 this run would place #1 of 0 on its other list (ultra-120s)");
  // A marathon topped out counts (its usual end), with its score.
  auto marathon = RecordPlaceAsk::make("http://h", engine::make_marathon(),
                                       result(protocol::RacerStatus::kToppedOut, 300'000'000, 55'000, 90));
  ASSERT_TRUE(marathon);
  EXPECT_EQ(marathon->url(), "http://h/api/records/marathon-15v/place?score=55000");
}

TEST(RecordPlace, ResultsThatDoNotCountAreNotAsked) {
  const engine::GameConfig sprint = engine::make_sprint(40);
  EXPECT_FALSE(RecordPlaceAsk::make("", sprint, result(protocol::RacerStatus::kFinished, 41'234'000)));  // no hub
  for (auto status :
       {protocol::RacerStatus::kToppedOut, protocol::RacerStatus::kDisconnected, protocol::RacerStatus::kRemoved,
        protocol::RacerStatus::kUnfinished, protocol::RacerStatus::kRacing}) {
    EXPECT_FALSE(RecordPlaceAsk::make("http://h", sprint, result(status, 20'000'000))) << static_cast<int>(status);
  }
  // Ultra is limited by time: a top-out left it early.
  EXPECT_FALSE(RecordPlaceAsk::make("http://h", engine::make_ultra(120),
                                    result(protocol::RacerStatus::kToppedOut, 60'000'000, 5'000)));
  // Endless has no limit, so no board.
  EXPECT_FALSE(RecordPlaceAsk::make("http://h", engine::make_endless(),
                                    result(protocol::RacerStatus::kFinished, 60'000'000, 5'000)));
}

TEST(RecordPlace, ACustomRoomAsksItsCustomBoard) {
  engine::GameConfig custom = engine::make_sprint(40);
  custom.preview = 3;
  auto ask = RecordPlaceAsk::make("http://h", custom, result(protocol::RacerStatus::kFinished, 50'000'000));
  ASSERT_TRUE(ask);
  EXPECT_TRUE(ask->board().custom);
  EXPECT_EQ(ask->board().id.substr(0, 11), "sprint-40l.");
  EXPECT_EQ(ask->url(), "http://h/api/records/" + ask->board().id + "/place?time_us=50000000");
}

TEST(RecordPlace, EveryFailureIsAShortReason) {
  const auto line = [](Answer answer) {
    auto ask = RecordPlaceAsk::make("http://hub.example.org", engine::make_sprint(40),
                                    result(protocol::RacerStatus::kFinished, 41'234'000));
    ask->answered(answer);
    return ask->line();
  };
  EXPECT_EQ(line(sr::fail(HttpError{HttpErrorKind::kTimeout, 0, "hub.example.org:80 did not answer in time"})),
            "Where this run would place on the records is unknown: hub.example.org did not answer in time.");
  EXPECT_EQ(line(sr::fail(HttpError{HttpErrorKind::kUnreachable, 0,
                                    "cannot find the host hub.example.org: Name or "
                                    "service not known"})),
            "Where this run would place on the records is unknown: hub.example.org cannot be reached (cannot find the "
            "host hub.example.org: Name or service not known).");
  EXPECT_EQ(line(answer_of(R"({"error":"no such board"})")),
            "Where this run would place on the records is unknown: hub.example.org did not answer with the records "
            "API's JSON (\"board\" is missing).");
  EXPECT_EQ(line(answer_of(R"({"board":"sprint-40l","list":"trusted","place":40,"of":12})")),
            "Where this run would place on the records is unknown: hub.example.org did not answer with the records "
            "API's JSON (\"place\" is not a whole number from 1 to 13).");
}

TEST(RecordPlace, TheServersNumbersInTheShapeTheBoardsCount) {
  protocol::RacerResult r = result(protocol::RacerStatus::kRemoved, 12'000'000, 7, 3);
  r.unverified_us = 900'000;
  r.reconnects = 2;
  const replay::RacerResult c = counted_result(r);
  EXPECT_EQ(c.status, replay::ResultStatus::kForfeited);
  EXPECT_EQ(c.stats.time_us, 12'000'000);
  EXPECT_EQ(c.stats.score, 7);
  EXPECT_EQ(c.stats.lines, 3);
  EXPECT_EQ(c.stats.pieces, 101);
  EXPECT_EQ(c.unverified_us, 900'000);
  EXPECT_EQ(c.reconnects, 2u);
  EXPECT_EQ(counted_result(result(protocol::RacerStatus::kFinished, 1)).status, replay::ResultStatus::kFinished);
  EXPECT_EQ(counted_result(result(protocol::RacerStatus::kToppedOut, 1)).status, replay::ResultStatus::kToppedOut);
  EXPECT_EQ(counted_result(result(protocol::RacerStatus::kDisconnected, 1)).status,
            replay::ResultStatus::kDisconnected);
  EXPECT_EQ(counted_result(result(protocol::RacerStatus::kUnfinished, 1)).status, replay::ResultStatus::kUnfinished);
}

}  // namespace
}  // namespace sr::client
