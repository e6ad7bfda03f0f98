#include "net/race_view.h"

#include <gtest/gtest.h>

#include <variant>
#include <vector>

#include "net/identity/run_signature.h"
#include "tests/support/test_keys.h"

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

// Our racer plays the 20G race to its top out: a hard drop every 100 ms, released 50 ms later, the clock advanced
// every 10 ms between. Everything the view queued, in order.
std::vector<protocol::Message> play_to_the_end(RaceView& view) {
  std::vector<protocol::Message> out;
  for (TimeUs t = 0; !view.mine()->game().over() && t < 120'000'000; t += 10'000) {
    if (t % 100'000 == 0) {
      view.press(t, engine::button::kHardDrop, out);
    } else if (t % 100'000 == 50'000) {
      view.press(t, 0, out);
    } else {
      view.advance(t, out);
    }
  }
  return out;
}

// What the server does with our stream (PROTOCOL.md "Input streams"): each RaceInput fed to a run of its own, as the
// referee's; the changes of every RaceInput in order (`sent`).
engine::RacerRun referee_of(const std::vector<protocol::Message>& out, const engine::GameConfig& config,
                            std::vector<engine::InputChange>& sent) {
  engine::RacerRun referee(config, 11);
  for (const auto& m : of_kind<protocol::RaceInput>(out)) {
    EXPECT_EQ(referee.accept(m.first_seq, m.now_us, m.changes), engine::StreamError::kOk) << m.first_seq;
    sent.insert(sent.end(), m.changes.begin(), m.changes.end());
  }
  return referee;
}

// PROTOCOL.md "Run signatures": when our game ends we sign the run once, after the last RaceInput, over exactly the
// inputs we sent (which are the referee's log, and so the replay's), and then send nothing more for the race.
TEST(RaceView, OurGameEndsWithOneRunSignedAfterItsLastInputOverExactlyTheInputsSent) {
  const PlayerKey key = test::test_key("me");
  RaceView view(master_race(), 1, key);
  const std::vector<protocol::Message> out = play_to_the_end(view);
  ASSERT_TRUE(view.mine()->game().over());
  EXPECT_TRUE(view.own_end_sent());
  EXPECT_GE(view.mine()->game().stats().pieces, 5);

  ASSERT_FALSE(out.empty());
  ASSERT_TRUE(std::holds_alternative<protocol::RunSigned>(out.back()));
  EXPECT_EQ(of_kind<protocol::RunSigned>(out).size(), 1u);
  const protocol::RunSigned& run_signed = std::get<protocol::RunSigned>(out.back());
  EXPECT_EQ(run_signed.race_id, 1u);
  EXPECT_EQ(view.run_signed(), run_signed);

  std::vector<engine::InputChange> sent;
  const engine::RacerRun referee = referee_of(out, engine::make_master(), sent);
  EXPECT_TRUE(referee.game().over()) << "the last RaceInput reaches our game's end";
  EXPECT_EQ(referee.game().stats(), view.mine()->game().stats());
  EXPECT_EQ(sent, view.mine()->run.log());
  EXPECT_EQ(referee.log(), sent);
  EXPECT_TRUE(verify_run(key.public_key(), run_digest(engine::kRulesVersion, engine::make_master(), 11, sent),
                         run_signed.signature));
  // Over those inputs and no others, by this key and no other.
  std::vector<engine::InputChange> fewer = sent;
  fewer.pop_back();
  EXPECT_FALSE(verify_run(key.public_key(), run_digest(engine::kRulesVersion, engine::make_master(), 11, fewer),
                          run_signed.signature));
  EXPECT_FALSE(verify_run(test::test_key("them").public_key(),
                          run_digest(engine::kRulesVersion, engine::make_master(), 11, sent), run_signed.signature));

  // Nothing more of the race: no input, copy, report or second signature.
  const TimeUs end_us = view.mine()->run.now_us();
  std::vector<protocol::Message> after;
  view.advance(end_us + RaceView::kHeartbeatUs, after);
  view.press(end_us + 2 * RaceView::kHeartbeatUs, engine::button::kMoveLeft, after);
  view.advance(end_us + 10'000'000, after);
  EXPECT_TRUE(after.empty());
}

// A player without a key signs nothing; the end of their game still goes out, and nothing after it.
TEST(RaceView, WithoutAKeyTheGamesEndGoesOutUnsigned) {
  RaceView view(master_race(), 1);
  const std::vector<protocol::Message> out = play_to_the_end(view);
  ASSERT_TRUE(view.mine()->game().over());
  EXPECT_TRUE(of_kind<protocol::RunSigned>(out).empty());
  EXPECT_FALSE(view.run_signed().has_value());
  std::vector<engine::InputChange> sent;
  EXPECT_TRUE(referee_of(out, engine::make_master(), sent).game().over());
  std::vector<protocol::Message> after;
  view.advance(view.mine()->run.now_us() + 1'000'000, after);
  EXPECT_TRUE(after.empty());
}

// A game that ends in an advance with no heartbeat due (a 1 s ultra, its clock 40 ms after the last RaceInput) still
// gets a RaceInput up to its end before the signature: the referee's game ends only when a batch vouches for it.
TEST(RaceView, AGameThatEndsBetweenHeartbeatsSendsALastInputUpToItsEnd) {
  protocol::CountdownStart start = master_race();
  start.config = engine::make_ultra(1);
  const PlayerKey key = test::test_key("me");
  RaceView view(start, 1, key);
  std::vector<protocol::Message> out;
  view.advance(960'000, out);
  ASSERT_FALSE(view.mine()->game().over());
  ASSERT_EQ(of_kind<protocol::RaceInput>(out).size(), 1u);
  out.clear();
  view.advance(1'000'000, out);
  ASSERT_TRUE(view.mine()->game().over());
  ASSERT_GE(out.size(), 2u);
  EXPECT_EQ(std::get<protocol::RaceInput>(out.front()), (protocol::RaceInput{1, 0, 1'000'000, {}}));
  ASSERT_TRUE(std::holds_alternative<protocol::RunSigned>(out.back()));
  EXPECT_TRUE(verify_run(key.public_key(), run_digest(engine::kRulesVersion, engine::make_ultra(1), 11, {}),
                         std::get<protocol::RunSigned>(out.back()).signature));
}

// Our game ended while the connection was down (nothing of that went out): the resume sends the rest of our stream,
// then the signature.
TEST(RaceView, AResumeAfterOurGameEndedSendsTheRestOfTheStreamThenTheSignature) {
  const PlayerKey key = test::test_key("me");
  RaceView view(master_race(), 1, key);
  (void)play_to_the_end(view);  // lost with the connection
  ASSERT_TRUE(view.run_signed().has_value());
  const std::size_t changes = view.mine()->run.log().size();
  ASSERT_GE(changes, 4u);
  std::vector<protocol::Message> out;
  ASSERT_TRUE(view.resume(2, 0, out));
  ASSERT_GE(out.size(), 2u);
  ASSERT_TRUE(std::holds_alternative<protocol::RaceInput>(out.front()));
  EXPECT_EQ(std::get<protocol::RaceInput>(out.front()).first_seq, 2u);
  EXPECT_EQ(std::get<protocol::RaceInput>(out[out.size() - 2]).now_us, view.mine()->run.now_us());
  EXPECT_EQ(out.back(), protocol::Message{*view.run_signed()});
  EXPECT_EQ(of_kind<protocol::RunSigned>(out).size(), 1u);
}

}  // namespace
}  // namespace sr::net
