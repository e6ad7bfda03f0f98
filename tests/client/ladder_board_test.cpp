#include "client/lobby/ladder_board.h"

#include <gtest/gtest.h>

#include "net/session.h"
#include "tests/support/status.h"

namespace sr::client {
namespace {

using protocol::MessageId;
using protocol::NoticeCode;
using test::problem_of;

protocol::Ladder two_entrants() {
  protocol::Ladder l;
  l.ranked_games = 10;
  l.counted_best = 3;
  l.entrants = 2;
  l.rows = {{"rocket", 4, {{0x1122334455667788ULL, 2000, 20}, {0, 1200, 12}, {0x99ULL, 800, 8}}}, {"Ann", 1, {}}};
  return l;
}

TEST(LadderBoardView, RowsAsShownWithExactAveragesAndWatchOnlyForStoredGames) {
  const LadderBoardView v = ladder_board_view(two_entrants());
  EXPECT_EQ(v.average_heading, "Average of best 3");
  EXPECT_EQ(v.rules,
            "10 ranked games each; the average of the best 3 ranks (a game not played counts 0). Practice games "
            "count nowhere.");
  ASSERT_EQ(v.rows.size(), 2u);
  const LadderBoardRow& a = v.rows[0];
  EXPECT_EQ(a.rank, "1");
  EXPECT_EQ(a.entrant, "rocket");
  EXPECT_EQ(a.played, "4 / 10");
  EXPECT_EQ(a.average, "1,333.33");  // (2000 + 1200 + 800) / 3, grouped in thousands as every score on screen
  ASSERT_EQ(a.best.size(), 3u);
  EXPECT_EQ(a.best[0].score, "2,000");
  EXPECT_EQ(a.best[0].game_id, 0x1122334455667788ULL);
  EXPECT_TRUE(a.best[0].watchable());
  EXPECT_EQ(a.best[1].score, "1,200 (not stored)");
  EXPECT_FALSE(a.best[1].watchable());
  EXPECT_EQ(a.best[2].score, "800");
  EXPECT_TRUE(a.best[2].watchable());
  const LadderBoardRow& b = v.rows[1];
  EXPECT_EQ(b.rank, "2");
  EXPECT_EQ(b.entrant, "Ann");
  EXPECT_EQ(b.played, "1 / 10");
  EXPECT_EQ(b.average, "0.00");
  EXPECT_TRUE(b.best.empty());
  EXPECT_EQ(v.note, "");
}

TEST(LadderBoardView, SaysWhenThereIsNoOneOrMoreThanTheRows) {
  protocol::Ladder empty;
  EXPECT_EQ(ladder_board_view(empty).note, "No entrants yet.");
  protocol::Ladder more = two_entrants();
  more.entrants = 3;
  EXPECT_EQ(ladder_board_view(more).note, "1 more entrant below.");
  more.entrants = 14;
  EXPECT_EQ(ladder_board_view(more).note, "12 more entrants below.");
}

TEST(LadderEntrantName, CheckedAsAPlayerName) {
  EXPECT_EQ(problem_of(check_entrant_name("rocket")), std::nullopt);
  EXPECT_EQ(problem_of(check_entrant_name("")), "Type an entrant name.");
  EXPECT_EQ(problem_of(check_entrant_name(" rocket")), "The entrant name is not valid: starts or ends with a space.");
  EXPECT_EQ(problem_of(check_entrant_name("r\xC3\xA9")),
            "The entrant name is not valid: byte 0xC3 at index 1 is not printable ASCII.");
  EXPECT_EQ(problem_of(check_entrant_name(std::string(16, 'a'))), std::nullopt);
  EXPECT_EQ(problem_of(check_entrant_name(std::string(17, 'a'))),
            "The entrant name is too long: 17 characters, at most 16.");
}

TEST(LadderLegacySecret, SaysTheEntrantPassesToTheKey) {
  EXPECT_EQ(legacy_secret_text("rocket", "/home/ann/.config/stackrace/ladder/rocket.secret"),
            "The game sent the ladder secret of 'rocket' from /home/ann/.config/stackrace/ladder/rocket.secret: an "
            "entrant claimed with it before player keys passes to your key. Your key (Settings) holds 'rocket' from "
            "now on; the file is no longer needed.");
}

TEST(LadderBoard, ABoardArrivesAfterAsking) {
  LadderBoard b;
  b.asked();
  EXPECT_TRUE(b.waiting());
  EXPECT_EQ(b.take(protocol::Message{protocol::Chat{}}), LadderEvent::kNone);
  EXPECT_EQ(b.take(protocol::Message{two_entrants()}), LadderEvent::kBoard);
  EXPECT_FALSE(b.waiting());
  ASSERT_TRUE(b.board().has_value());
  EXPECT_EQ(b.board()->rows.size(), 2u);
}

TEST(LadderBoard, NoLadderOnTheServerIsSaidInTheServersWords) {
  LadderBoard b;
  b.asked();
  ASSERT_EQ(b.take(protocol::Message{two_entrants()}), LadderEvent::kBoard);
  const protocol::Notice none{NoticeCode::kInvalidRequest, MessageId::kListLadder,
                              "this server runs no contest ladder"};
  EXPECT_EQ(b.take(protocol::Message{none}), LadderEvent::kListRefused);
  EXPECT_EQ(b.list_refused(), "this server runs no contest ladder");
  EXPECT_FALSE(b.board().has_value());
  EXPECT_FALSE(b.waiting());
  EXPECT_TRUE(b.no_ladder());  // the screen offers no entry form
  ASSERT_EQ(b.take(protocol::Message{two_entrants()}), LadderEvent::kBoard);
  EXPECT_FALSE(b.no_ladder());
}

TEST(LadderBoard, ARateLimitKeepsTheBoardShown) {
  LadderBoard b;
  EXPECT_FALSE(b.no_ladder());
  ASSERT_EQ(b.take(protocol::Message{two_entrants()}), LadderEvent::kBoard);
  b.asked();
  EXPECT_EQ(b.take(protocol::Message{protocol::Notice{NoticeCode::kRateLimited, MessageId::kListLadder, ""}}),
            LadderEvent::kListRefused);
  EXPECT_EQ(b.list_refused(), net::describe(NoticeCode::kRateLimited));
  EXPECT_TRUE(b.board().has_value());
  // The next board clears it.
  EXPECT_EQ(b.take(protocol::Message{two_entrants()}), LadderEvent::kBoard);
  EXPECT_EQ(b.list_refused(), "");
}

TEST(LadderBoard, ARefusedEntryIsSaidAndEndsTheWait) {
  LadderBoard b;
  const protocol::Notice held{NoticeCode::kInvalidRequest, MessageId::kLadderEnter,
                              "entrant 'rocket' is held by another secret"};
  EXPECT_EQ(b.take(protocol::Message{held}), LadderEvent::kNone);  // not asked: not ours
  b.entering("rocket", true);
  EXPECT_TRUE(b.entering());
  EXPECT_EQ(b.take(protocol::Message{held}), LadderEvent::kEnterRefused);
  EXPECT_EQ(b.enter_refused(), "entrant 'rocket' is held by another secret");
  EXPECT_FALSE(b.entering());
  EXPECT_FALSE(b.playing());
  b.entering("rocket", false);  // a new try clears the last refusal
  EXPECT_EQ(b.enter_refused(), "");
}

TEST(LadderBoard, TheRoomJoinedAfterEnteringIsTheGameAndLeavingItComesBack) {
  LadderBoard b;
  EXPECT_EQ(b.take(protocol::Message{protocol::RoomJoined{}}), LadderEvent::kNone);  // a room of the lobby's
  b.entering("Ann", true);
  EXPECT_EQ(b.take(protocol::Message{protocol::RoomJoined{}}), LadderEvent::kGameStarted);
  EXPECT_TRUE(b.playing());
  EXPECT_EQ(b.entrant(), "Ann");
  EXPECT_TRUE(b.ranked());
  EXPECT_EQ(b.take(protocol::Message{protocol::RoomLeft{}}), LadderEvent::kGameLeft);
  EXPECT_FALSE(b.playing());
  EXPECT_EQ(b.take(protocol::Message{protocol::RoomLeft{}}), LadderEvent::kNone);
}

TEST(LadderBoard, AReplayThatCannotBeSentIsSaidForTheGameWatched) {
  LadderBoard b;
  b.watching(0x99);
  EXPECT_EQ(b.take(protocol::Message{protocol::ReplayUnavailable{0x98, NoticeCode::kReplayNotFound, ""}}),
            LadderEvent::kNone);
  EXPECT_EQ(b.take(protocol::Message{protocol::ReplayUnavailable{0x99, NoticeCode::kReplayNotFound, "gone"}}),
            LadderEvent::kWatchRefused);
  EXPECT_EQ(b.watch_refused(),
            "The server cannot send that replay: " + net::describe(NoticeCode::kReplayNotFound) + " (gone).");
  EXPECT_FALSE(b.watching().has_value());
}

}  // namespace
}  // namespace sr::client
