#include "net/race_view.h"

#include <gtest/gtest.h>

#include <variant>
#include <vector>

namespace sr::net {
namespace {

protocol::CountdownStart master_race() {
  protocol::CountdownStart start;
  start.race_id = 1;
  start.seed = 11;
  start.config = engine::make_master();  // 20G: with no input a piece locks every lock delay
  start.racers = {{1, "me", engine::Handling{}}, {2, "them", engine::Handling{}}};
  return start;
}

template <class T>
std::vector<T> of_kind(const std::vector<protocol::Message>& out) {
  std::vector<T> found;
  for (const auto& m : out) {
    if (const auto* t = std::get_if<T>(&m)) found.push_back(*t);
  }
  return found;
}

// A long frame that locked several pieces reported every one of them with the digest after the last (an honest game
// reported as a desync). Each report must carry the digest right after its own lock, as the referee computes it.
TEST(RaceView, OneFrameThatLocksSeveralPiecesReportsEachLocksOwnDigest) {
  RaceView view(master_race(), 1);
  std::vector<protocol::Message> out;
  view.advance(12'000'000, out);
  const auto reports = of_kind<protocol::StateHashReport>(out);
  ASSERT_GE(reports.size(), 1u);

  engine::RacerRun referee(engine::make_master(), 11);
  for (engine::TimeUs t = 0; t <= 12'000'000; t += 1'000) (void)referee.advance(t);
  for (const auto& r : reports) {
    EXPECT_EQ(r.pieces % RaceView::kReportEveryPieces, 0);
    EXPECT_EQ(referee.digest_after(r.pieces), r.hash) << "piece " << r.pieces;
    EXPECT_EQ(referee.locks()[static_cast<std::size_t>(r.pieces - 1)].time_us, r.time_us);
  }
  // The report follows a RaceInput that vouches for the time of its lock.
  ASSERT_FALSE(out.empty());
  EXPECT_TRUE(std::holds_alternative<protocol::RaceInput>(out.front()));
}

// What our own game reported in the last press or advance (the app sounds it), and a count of those calls.
TEST(RaceView, OwnEventsAreThoseOfTheLastPressOrAdvance) {
  RaceView view(master_race(), 1);
  std::vector<protocol::Message> out;
  EXPECT_EQ(view.own_calls(), 0u);
  view.advance(0, out);  // the first piece spawns
  ASSERT_EQ(view.own_events().size(), 1u);
  EXPECT_EQ(view.own_events()[0].kind, engine::EventKind::kSpawn);
  EXPECT_EQ(view.own_calls(), 1u);
  view.press(10'000, engine::button::kHardDrop, out);
  std::vector<engine::EventKind> kinds;
  for (const auto& e : view.own_events()) kinds.push_back(e.kind);
  ASSERT_GE(kinds.size(), 2u);
  EXPECT_EQ(kinds[0], engine::EventKind::kHardDrop);
  EXPECT_EQ(kinds[1], engine::EventKind::kLock);
  EXPECT_EQ(view.own_calls(), 2u);
  view.press(10'000, engine::button::kHardDrop, out);  // no change: nothing happens, the call still counts
  EXPECT_TRUE(view.own_events().empty());
  EXPECT_EQ(view.own_calls(), 3u);
  RaceView watching(master_race(), 3);  // not racing: never any
  watching.advance(1'000'000, out);
  EXPECT_TRUE(watching.own_events().empty());
}

TEST(RaceView, OnlyRealChangesAreSentAndTheyAreNumberedInOrder) {
  RaceView view(master_race(), 1);
  std::vector<protocol::Message> out;
  view.press(10'000, 0, out);  // nothing was held: no change
  EXPECT_TRUE(out.empty());
  view.press(20'000, engine::button::kMoveLeft, out);
  view.press(30'000, engine::button::kMoveLeft, out);  // a second key of the held action
  view.press(40'000, 0, out);
  const auto inputs = of_kind<protocol::RaceInput>(out);
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].first_seq, 0u);
  EXPECT_EQ(inputs[0].changes, (std::vector<engine::InputChange>{{20'000, engine::button::kMoveLeft}}));
  EXPECT_EQ(inputs[1].first_seq, 1u);
  EXPECT_EQ(inputs[1].changes, (std::vector<engine::InputChange>{{40'000, 0}}));
  EXPECT_EQ(view.mine()->run.log().size(), 2u);
}

// Beside each RaceInput goes an unreliable copy of everything the server has not acknowledged, so that a RaceInput
// held back by a lost packet never holds up the referee (PROTOCOL.md "Input copies").
TEST(RaceView, EachInputGoesWithACopyOfWhatTheServerHasNotAcknowledged) {
  RaceView view(master_race(), 1);
  std::vector<protocol::Message> out;
  view.press(20'000, engine::button::kMoveLeft, out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<protocol::RaceInput>(out[0]));
  EXPECT_EQ(std::get<protocol::RaceInputCopy>(out[1]),
            (protocol::RaceInputCopy{1, 0, 20'000, {{20'000, engine::button::kMoveLeft}}}));

  out.clear();
  view.press(60'000, 0, out);  // nothing acknowledged yet: the copy repeats the first change
  EXPECT_EQ(of_kind<protocol::RaceInputCopy>(out),
            (std::vector<protocol::RaceInputCopy>{{1, 0, 60'000, {{20'000, engine::button::kMoveLeft}, {60'000, 0}}}}));

  view.on_ack({1, 1});
  EXPECT_EQ(view.acked_seq(), 1u);
  view.on_ack({1, 3});  // more than we sent: a broken server, ignored
  view.on_ack({2, 2});  // another race
  EXPECT_EQ(view.acked_seq(), 1u);
  out.clear();
  view.advance(110'000, out);  // the heartbeat's copy starts at the acknowledged change
  EXPECT_EQ(of_kind<protocol::RaceInputCopy>(out),
            (std::vector<protocol::RaceInputCopy>{{1, 1, 110'000, {{60'000, 0}}}}));
  view.on_ack({1, 2});
  out.clear();
  view.advance(160'000, out);  // everything acknowledged: the copy only carries the clock
  EXPECT_EQ(of_kind<protocol::RaceInputCopy>(out), (std::vector<protocol::RaceInputCopy>{{1, 2, 160'000, {}}}));
}

// Copies go at most every kCopyEveryUs of game time (the server's message rate limit), and the next one covers what
// the skipped one would have.
TEST(RaceView, CopiesAreSpacedAndTheNextOneCoversASkippedOne) {
  RaceView view(master_race(), 1);
  std::vector<protocol::Message> out;
  view.press(20'000, engine::button::kMoveLeft, out);
  view.press(25'000, 0, out);
  view.press(30'000, engine::button::kMoveRight, out);
  EXPECT_EQ(of_kind<protocol::RaceInput>(out).size(), 3u);
  ASSERT_EQ(of_kind<protocol::RaceInputCopy>(out).size(), 1u);
  out.clear();
  view.advance(30'000 + RaceView::kHeartbeatUs, out);  // the next heartbeat after the last press
  const auto copies = of_kind<protocol::RaceInputCopy>(out);
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].first_seq, 0u);
  EXPECT_EQ(copies[0].changes.size(), 3u);
  EXPECT_EQ(copies[0].now_us, 30'000 + RaceView::kHeartbeatUs);
}

// A copy holds at most kMaxInputsPerBatch changes, from the acknowledged one on, and then vouches only up to its
// last change (the RaceInputs carry the rest reliably).
TEST(RaceView, ALongUnacknowledgedStreamIsCopiedInOneFullBatch) {
  RaceView view(master_race(), 1);
  std::vector<protocol::Message> out;
  const std::size_t sent = protocol::kMaxInputsPerBatch + 40;
  for (std::size_t i = 0; i < sent; ++i) {
    view.press(static_cast<TimeUs>(i + 1) * 1'000, i % 2 == 0 ? engine::button::kSoftDrop : 0, out);
  }
  ASSERT_EQ(view.mine()->run.log().size(), sent);
  out.clear();
  view.advance(400'000, out);
  const auto copies = of_kind<protocol::RaceInputCopy>(out);
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0].first_seq, 0u);
  EXPECT_EQ(copies[0].changes.size(), protocol::kMaxInputsPerBatch);
  EXPECT_EQ(copies[0].now_us, static_cast<TimeUs>(protocol::kMaxInputsPerBatch) * 1'000);
}

TEST(RaceView, RelayedInputsFeedTheOpponentsRunAndABrokenStreamIsAnError) {
  RaceView view(master_race(), 1);
  std::string error;
  protocol::RacerInputs relay{1, 2, 0, 500'000, {{100'000, engine::button::kHardDrop}, {200'000, 0}}};
  ASSERT_TRUE(view.on_inputs(relay, error)) << error;
  const RacerBoard* them = view.board(2);
  ASSERT_NE(them, nullptr);
  EXPECT_EQ(them->run.log(), relay.changes);
  EXPECT_EQ(them->run.now_us(), 500'000);
  EXPECT_GE(them->game().stats().pieces, 1);

  protocol::RacerInputs gap{1, 2, 5, 600'000, {}};
  EXPECT_FALSE(view.on_inputs(gap, error));
  EXPECT_EQ(error, "inputs of racer 2: changes missing before this batch");
}

// A racer whose relays stop is shown lagging once the race clock is more than a second past their relayed game time;
// the backlog catches the board up (it only moves forward) and the label goes. A racer who ended never lags.
TEST(RaceView, ARacerWhoseRelaysStallIsLaggingUntilTheBacklogArrives) {
  RaceView view(master_race(), 1);
  std::string error;
  ASSERT_TRUE(view.on_inputs(protocol::RacerInputs{1, 2, 0, 2'000'000, {}}, error)) << error;
  const RacerBoard& them = *view.board(2);
  EXPECT_FALSE(them.lagging(3'000'000));
  EXPECT_TRUE(them.lagging(3'000'001));
  const std::int64_t pieces_before = them.game().stats().pieces;
  ASSERT_TRUE(view.on_inputs(protocol::RacerInputs{1, 2, 0, 5'900'000, {}}, error)) << error;
  EXPECT_FALSE(them.lagging(6'000'000));
  EXPECT_GT(them.game().stats().pieces, pieces_before);  // 20G: the stalled seconds locked pieces on the way
  view.on_ended(protocol::RacerEnded{1, 2, protocol::RacerStatus::kDisconnected, 5'900'000, 0, "left the race"});
  EXPECT_FALSE(them.lagging(60'000'000));
}

}  // namespace
}  // namespace sr::net
