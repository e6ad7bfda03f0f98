// client/lobby/records_browser.h: the Records screen without a window. Which GETs it asks for (exact URLs) as the
// player picks a hub, a board, a list and pages; what the answers show; that an answer to a replaced request is
// dropped; every failure as a sentence; and the rows as the table shows them (times, scores, the player's own).
#include "client/lobby/records_browser.h"

#include <gtest/gtest.h>

#include <string>

namespace sr::client {
namespace {

using Answer = sr::Result<std::vector<std::uint8_t>, HttpError>;

Answer body(const std::string& text) { return std::vector<std::uint8_t>(text.begin(), text.end()); }
Answer failure(HttpErrorKind kind, std::string message, int status = 0) {
  return sr::fail(HttpError{kind, status, std::move(message)});
}

const std::string kBoards =
    R"({"boards":[{"board":"sprint-40l","mode":"sprint","limit":"40 lines","goal":"time","custom":false,"trusted":45,"other":3},)"
    R"({"board":"ultra-120s.3fa2c9d1","mode":"ultra","limit":"120 s","goal":"score","custom":true,"trusted":0,"other":1}]})";

std::string entry(int place, const std::string& player, const std::string& key_id, std::int64_t time_us,
                  std::int64_t score = 0, const std::string& key = "") {
  return R"({"record":"00000000000000ff-)" + std::to_string(place) + R"(","place":)" + std::to_string(place) +
         R"(,"player":")" + player + R"(",)" + (key.empty() ? "" : R"("key":")" + key + R"(",)") + R"("key_id":")" +
         key_id + R"(","time_us":)" + std::to_string(time_us) + R"(,"score":)" + std::to_string(score) +
         R"(,"lines":40,"rules_version":1,"server":"Ada's server","server_key_id":"1a2b3c4d",)"
         R"("played_unix_ms":1764612345678})";
}

std::string page(const std::string& board, const char* list, int total, const std::vector<std::string>& entries) {
  std::string out =
      R"({"board":")" + board + R"(","list":")" + list + R"(","total":)" + std::to_string(total) + R"(,"entries":[)";
  for (std::size_t i = 0; i < entries.size(); ++i) out += (i > 0 ? "," : "") + entries[i];
  return out + "]}";
}

std::vector<std::string> urls(const std::vector<RecordsRequest>& requests) {
  std::vector<std::string> out;
  for (const auto& r : requests) out.push_back(r.url);
  return out;
}

// A browser on hub http://127.0.0.1:8080 with its boards answered and page 1 of sprint-40l's trusted list asked for.
struct Shown {
  RecordsBrowser b;
  std::uint64_t page_id = 0;
  Shown() {
    b.set_hubs({"http://127.0.0.1:8080", "http://hub.example.org"});
    auto boards = b.take_requests();
    EXPECT_EQ(boards.size(), 1u);
    b.answered(boards.at(0).id, body(kBoards));
    auto pages = b.take_requests();
    EXPECT_EQ(pages.size(), 1u);
    page_id = pages.at(0).id;
  }
};

TEST(RecordsBrowser, WithoutHubsNothingIsAsked) {
  RecordsBrowser b;
  b.set_hubs({});
  EXPECT_FALSE(b.hub());
  EXPECT_TRUE(b.take_requests().empty());
  b.refresh();
  EXPECT_TRUE(b.take_requests().empty());
  EXPECT_FALSE(b.waiting());
}

TEST(RecordsBrowser, TheBoardsThenTheFirstBoardsTrustedPage) {
  RecordsBrowser b;
  b.set_hubs({"http://127.0.0.1:8080", "http://hub.example.org"});
  ASSERT_EQ(b.hub(), 0u);
  auto first = b.take_requests();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0], (RecordsRequest{1, RecordsRequest::kBoards, "http://127.0.0.1:8080/api/records"}));
  EXPECT_TRUE(b.take_requests().empty());  // handed out once
  EXPECT_TRUE(b.loading_boards());
  b.answered(first[0].id, body(kBoards));
  EXPECT_FALSE(b.loading_boards());
  ASSERT_TRUE(b.boards_loaded());
  ASSERT_EQ(b.boards().size(), 2u);
  EXPECT_EQ(b.board(), 0u);
  EXPECT_EQ(b.list(), RecordList::kTrusted);
  auto second = b.take_requests();
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0], (RecordsRequest{2, RecordsRequest::kPage,
                                       "http://127.0.0.1:8080/api/records/sprint-40l?list=trusted&offset=0&limit=20"}));
  EXPECT_TRUE(b.loading_page());
  EXPECT_FALSE(b.page());
  b.answered(second[0].id, body(page("sprint-40l", "trusted", 45, {entry(1, "ada", "cb2f5160", 41'234'000)})));
  EXPECT_FALSE(b.waiting());
  ASSERT_TRUE(b.page());
  EXPECT_EQ(b.page()->total, 45);
  ASSERT_EQ(b.page()->entries.size(), 1u);
  EXPECT_EQ(b.page()->entries[0].player, "ada");
  EXPECT_TRUE(b.page_error().empty());
}

TEST(RecordsBrowser, PagesListsAndBoardsAskForTheirPage) {
  Shown s;
  RecordsBrowser& b = s.b;
  b.answered(s.page_id, body(page("sprint-40l", "trusted", 45, {entry(1, "ada", "cb2f5160", 41'234'000)})));
  EXPECT_FALSE(b.can_previous());
  EXPECT_TRUE(b.can_next());
  b.next_page();
  EXPECT_EQ(b.offset(), 20);
  EXPECT_EQ(urls(b.take_requests()),
            std::vector<std::string>{"http://127.0.0.1:8080/api/records/sprint-40l?list=trusted&offset=20&limit=20"});
  EXPECT_TRUE(b.page());  // the last page stays until the next one comes
  b.next_page();
  EXPECT_EQ(b.offset(), 40);
  EXPECT_FALSE(b.can_next());  // 41-45 of 45
  b.next_page();
  EXPECT_EQ(b.offset(), 40);
  b.previous_page();
  EXPECT_EQ(b.offset(), 20);
  // Only the latest page request is handed out.
  EXPECT_EQ(urls(b.take_requests()),
            std::vector<std::string>{"http://127.0.0.1:8080/api/records/sprint-40l?list=trusted&offset=20&limit=20"});

  b.choose_list(RecordList::kOther);
  EXPECT_EQ(b.offset(), 0);
  EXPECT_FALSE(b.page());  // another list: the trusted page is not shown for it
  EXPECT_EQ(urls(b.take_requests()),
            std::vector<std::string>{"http://127.0.0.1:8080/api/records/sprint-40l?list=other&offset=0&limit=20"});
  b.choose_board(1);
  EXPECT_EQ(b.list(), RecordList::kOther);
  EXPECT_EQ(
      urls(b.take_requests()),
      std::vector<std::string>{"http://127.0.0.1:8080/api/records/ultra-120s.3fa2c9d1?list=other&offset=0&limit=20"});
  b.choose_board(7);  // not a board: nothing
  EXPECT_TRUE(b.take_requests().empty());
  EXPECT_EQ(b.board(), 1u);
}

TEST(RecordsBrowser, AnAnswerToAReplacedRequestIsDropped) {
  Shown s;
  RecordsBrowser& b = s.b;
  b.choose_board(1);
  const auto replaced = b.take_requests();
  ASSERT_EQ(replaced.size(), 1u);
  // The sprint page arrives after the player moved to the ultra board: not shown, and the ultra one still awaited.
  b.answered(s.page_id, body(page("sprint-40l", "trusted", 45, {entry(1, "ada", "cb2f5160", 41'234'000)})));
  EXPECT_FALSE(b.page());
  EXPECT_TRUE(b.loading_page());
  b.answered(replaced[0].id, body(page("ultra-120s.3fa2c9d1", "trusted", 0, {})));
  ASSERT_TRUE(b.page());
  EXPECT_EQ(b.page()->board, "ultra-120s.3fa2c9d1");
  b.answered(replaced[0].id, body("garbage"));  // a second answer to the same request: dropped
  EXPECT_TRUE(b.page_error().empty());
  b.answered(0, body("garbage"));
  b.answered(999, body("garbage"));
  EXPECT_TRUE(b.page_error().empty());
  EXPECT_TRUE(b.boards_error().empty());
}

TEST(RecordsBrowser, RefreshKeepsTheBoardListAndPageWhileTheBoardIsThere) {
  Shown s;
  RecordsBrowser& b = s.b;
  b.choose_board(1);
  b.choose_list(RecordList::kOther);
  (void)b.take_requests();
  b.refresh();
  auto boards = b.take_requests();
  ASSERT_EQ(urls(boards), std::vector<std::string>{"http://127.0.0.1:8080/api/records"});
  // The ultra board comes first now: it stays the one shown, with its list.
  b.answered(
      boards[0].id,
      body(
          R"({"boards":[{"board":"ultra-120s.3fa2c9d1","mode":"ultra","limit":"120 s","goal":"score","custom":true,"trusted":0,"other":2},)"
          R"({"board":"sprint-40l","mode":"sprint","limit":"40 lines","goal":"time","custom":false,"trusted":45,"other":3}]})"));
  EXPECT_EQ(b.board(), 0u);
  EXPECT_EQ(b.list(), RecordList::kOther);
  EXPECT_EQ(
      urls(b.take_requests()),
      std::vector<std::string>{"http://127.0.0.1:8080/api/records/ultra-120s.3fa2c9d1?list=other&offset=0&limit=20"});
  // Gone on the next refresh: the first board, trusted list.
  b.refresh();
  boards = b.take_requests();
  b.answered(
      boards[0].id,
      body(
          R"({"boards":[{"board":"sprint-40l","mode":"sprint","limit":"40 lines","goal":"time","custom":false,"trusted":45,"other":3}]})"));
  EXPECT_EQ(b.board(), 0u);
  EXPECT_EQ(b.list(), RecordList::kTrusted);
  EXPECT_EQ(urls(b.take_requests()),
            std::vector<std::string>{"http://127.0.0.1:8080/api/records/sprint-40l?list=trusted&offset=0&limit=20"});
  // No boards at all: nothing to show or ask.
  b.refresh();
  boards = b.take_requests();
  b.answered(boards[0].id, body(R"({"boards":[]})"));
  EXPECT_TRUE(b.boards_loaded());
  EXPECT_FALSE(b.board());
  EXPECT_FALSE(b.page());
  EXPECT_FALSE(b.waiting());
  EXPECT_TRUE(b.take_requests().empty());
}

TEST(RecordsBrowser, AnotherHubStartsAfresh) {
  Shown s;
  RecordsBrowser& b = s.b;
  b.choose_hub(1);
  EXPECT_EQ(b.hub(), 1u);
  EXPECT_FALSE(b.boards_loaded());
  EXPECT_TRUE(b.boards().empty());
  EXPECT_FALSE(b.board());
  EXPECT_EQ(urls(b.take_requests()), std::vector<std::string>{"http://hub.example.org/api/records"});
  b.answered(s.page_id, body(page("sprint-40l", "trusted", 1, {entry(1, "ada", "cb2f5160", 1)})));  // the old hub's
  EXPECT_FALSE(b.page());
  // The same hubs again (the screen opened again): the hub stays; a list without it: the first.
  b.set_hubs({"http://127.0.0.1:8080", "http://hub.example.org"});
  EXPECT_EQ(b.hub(), 1u);
  EXPECT_TRUE(b.take_requests().empty());
  b.set_hubs({"http://other:9000", "http://hub.example.org"});
  EXPECT_EQ(b.hub(), 1u);
  b.set_hubs({"http://other:9000"});
  EXPECT_EQ(b.hub(), 0u);
  EXPECT_EQ(urls(b.take_requests()), std::vector<std::string>{"http://other:9000/api/records"});
  b.set_hubs({});
  EXPECT_FALSE(b.hub());
  EXPECT_FALSE(b.waiting());
  EXPECT_TRUE(b.take_requests().empty());
}

TEST(RecordsBrowser, EveryFailureIsASentence) {
  {
    RecordsBrowser b;
    b.set_hubs({"http://127.0.0.1:9"});
    b.answered(b.take_requests().at(0).id,
               failure(HttpErrorKind::kUnreachable, "cannot connect to 127.0.0.1:9: Connection refused"));
    EXPECT_EQ(b.boards_error(), "127.0.0.1:9 cannot be reached (cannot connect to 127.0.0.1:9: Connection refused).");
    EXPECT_FALSE(b.boards_loaded());
    b.refresh();  // asking again clears the sentence until the answer
    EXPECT_EQ(b.boards_error(), "");
    b.answered(b.take_requests().at(0).id, failure(HttpErrorKind::kTimeout, "127.0.0.1:9 did not answer in time"));
    EXPECT_EQ(b.boards_error(), "127.0.0.1:9 did not answer in time.");
  }
  {
    RecordsBrowser b;
    b.set_hubs({"http://hub.example.org"});
    b.answered(b.take_requests().at(0).id,
               failure(HttpErrorKind::kStatus, "hub.example.org:80 answered 404 Not Found", 404));
    EXPECT_EQ(b.boards_error(), "hub.example.org has no such records (hub.example.org:80 answered 404 Not Found).");
    b.refresh();
    b.answered(b.take_requests().at(0).id,
               failure(HttpErrorKind::kStatus, "hub.example.org:80 answered 503 Service Unavailable", 503));
    EXPECT_EQ(b.boards_error(),
              "hub.example.org refused the question (hub.example.org:80 answered 503 Service Unavailable).");
    b.refresh();
    b.answered(b.take_requests().at(0).id, body("<html>hello</html>"));
    EXPECT_EQ(b.boards_error(),
              "hub.example.org did not answer with the records API's JSON (the answer is not JSON (at byte 0)).");
    b.refresh();
    b.answered(b.take_requests().at(0).id, failure(HttpErrorKind::kTooLarge, "the answer is over 1 MiB"));
    EXPECT_EQ(b.boards_error(),
              "hub.example.org did not answer with the records API's JSON (the answer is over 1 MiB).");
  }
  {
    Shown s;
    s.b.answered(s.page_id,
                 body(page("sprint-40l", "trusted", 45, std::vector<std::string>(21, entry(1, "a", "cb2f5160", 1)))));
    EXPECT_EQ(s.b.page_error(),
              "127.0.0.1:8080 did not answer with the records API's JSON (\"entries\" holds 21 "
              "values, more than the 20 asked for).");
    EXPECT_FALSE(s.b.page());
    EXPECT_TRUE(s.b.boards_error().empty());
  }
}

TEST(RecordsBrowser, RowsShowTimesScoresDatesAndThePlayersOwnEntries) {
  const std::string key_a(64, 'a'), key_b(64, 'b');
  RecordPage p;
  auto parsed = parse_record_page(
      page("sprint-40l", "trusted", 3,
           {entry(1, "ada", "cb2f5160", 41'234'000, 0, key_a), entry(2, "bob", "0badc0de", 75'000'999, 0, key_b),
            entry(3, "ada2", "cb2f5160", 3'600'000'000)}),
      "sprint-40l", RecordList::kTrusted, 20);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  p = parsed.value();
  // Our key is a's: the first by the whole key; the third has no key, so its short id decides.
  const auto rows = record_rows(p, engine::GoalKind::kTime, OwnKey{key_a, "cb2f5160"});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0],
            (RecordRow{"1", "ada", "cb2f5160", "0:41.234", "1", "Ada's server (1a2b3c4d)", "2025-12-01", true}));
  EXPECT_EQ(rows[1].result, "1:15.000");
  EXPECT_FALSE(rows[1].own);
  EXPECT_EQ(rows[2].result, "60:00.000");
  EXPECT_TRUE(rows[2].own);
  // The same short id on a different whole key is someone else.
  const auto others = record_rows(p, engine::GoalKind::kTime, OwnKey{key_b.substr(0, 63) + "c", "cb2f5160"});
  EXPECT_FALSE(others[0].own);
  EXPECT_TRUE(others[2].own);
  EXPECT_FALSE(record_rows(p, engine::GoalKind::kTime, OwnKey{})[2].own);  // no key: nothing is ours

  auto scores = parse_record_page(page("ultra-120s", "other", 1, {entry(1, "cy", "00000001", 120'000'000, 1'234'567)}),
                                  "ultra-120s", RecordList::kOther, 20);
  ASSERT_TRUE(scores.ok()) << scores.error();
  EXPECT_EQ(record_rows(scores.value(), engine::GoalKind::kScore, {})[0].result, "1,234,567");
  EXPECT_EQ(record_rows(scores.value(), engine::GoalKind::kLines, {})[0].result, "40 lines");
}

TEST(RecordsBrowser, TitlesPagesAndHubNames) {
  EXPECT_EQ(board_title({"sprint-40l", "sprint", "40 lines", engine::GoalKind::kTime, false, 1, 0}), "sprint 40 lines");
  EXPECT_EQ(board_title({"sprint-40l.3fa2c9d1", "sprint", "40 lines", engine::GoalKind::kTime, true, 1, 0}),
            "sprint 40 lines, custom settings");
  RecordPage p;
  p.total = 0;
  EXPECT_EQ(page_text(p, 0), "no entries yet");
  p.total = 45;
  EXPECT_EQ(page_text(p, 60), "no entries on this page (45 in all)");
  p.entries.resize(5);
  EXPECT_EQ(page_text(p, 40), "41-45 of 45");
  EXPECT_EQ(hub_name("http://hub.example.org"), "hub.example.org");
  EXPECT_EQ(hub_name("http://hub.example.org:80"), "hub.example.org");
  EXPECT_EQ(hub_name("http://127.0.0.1:8080"), "127.0.0.1:8080");
  EXPECT_EQ(hub_name("http://[::1]:8080"), "[::1]:8080");
  EXPECT_EQ(hub_name("not a url"), "not a url");
  EXPECT_NE(std::string(list_explanation(RecordList::kTrusted)), list_explanation(RecordList::kOther));
}

}  // namespace
}  // namespace sr::client
