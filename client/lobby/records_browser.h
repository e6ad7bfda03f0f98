// The Records screen without a window (common/protocol/RECORDS.md, section 5): which records hub, board, list and page
// are shown, what to ask the hub next, what its answers (or their failures) mean on screen, and the rows as shown.
// Pure: it never fetches. The screen (client/app/records_view.h) starts each request it is handed off the frame loop
// (client/web/background_get.h) and brings back the answer with the request's id; an answer to a request that a later
// one replaced (the player moved on) is dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/lobby/record_boards.h"
#include "client/web/http_get.h"
#include "common/result.h"

namespace sr::client {

// One GET for the screen to start.
struct RecordsRequest {
  enum Kind : std::uint8_t { kBoards, kPage };
  std::uint64_t id = 0;  // >= 1, in the order asked
  Kind kind = kBoards;
  std::string url;  // "http://127.0.0.1:8080/api/records/sprint-40l?list=trusted&offset=0&limit=20"
  bool operator==(const RecordsRequest&) const = default;
};

// One entry as the table shows it.
struct RecordRow {
  std::string place;   // "4"
  std::string player;  // "ada"
  std::string key_id;  // "cb2f5160"
  std::string result;  // "0:41.234" (time boards, m:ss.mmm), "123,456" (score), "87 lines" (lines)
  std::string rules;   // "3": the rules version it was played with
  std::string server;  // "Ada's server (1a2b3c4d)"
  std::string date;    // "2025-12-01", UTC
  bool own = false;    // played with the player's own key
  bool operator==(const RecordRow&) const = default;
};

// The player's key as the game knows it: 64 hex digits and the short id (empty when the game has no key).
struct OwnKey {
  std::string hex;
  std::string id;
};

// "sprint 40 lines", "sprint 40 lines, custom settings".
[[nodiscard]] std::string board_title(const RecordBoardSummary& board);
// What the list holds, in one line (shown under the list switch).
[[nodiscard]] const char* list_explanation(RecordList list);
// The rows of `page` on a board of `goal`; an entry is the player's own when its key is theirs (by the whole key when
// both are known, else by the short id).
[[nodiscard]] std::vector<RecordRow> record_rows(const RecordPage& page, engine::GoalKind goal, const OwnKey& own);
// "21-40 of 112"; "no entries yet" on an empty list; "no entries on this page (112 in all)" past its end.
[[nodiscard]] std::string page_text(const RecordPage& page, std::int64_t offset);
// How a hub is named on screen: its host, and ":port" when not 80 ("hub.example.org", "127.0.0.1:8080"); the URL as
// given when it is not one.
[[nodiscard]] std::string hub_name(std::string_view url);
// A failed fetch of the records API of `hub` as a sentence: "hub.example.org cannot be reached (cannot connect to
// ...: Connection refused).", "hub.example.org did not answer in time.", "hub.example.org has no records API (it
// answered 404 Not Found).", "hub.example.org did not answer with the records API's JSON (...)."
[[nodiscard]] std::string records_fetch_error(std::string_view hub, const HttpError& error);

class RecordsBrowser {
 public:
  static constexpr std::size_t kPageEntries = 20;  // asked per page

  // The hubs to choose from (Settings::directories, "http://host:port"). The hub chosen before stays chosen while it
  // is listed; otherwise the first is chosen and its boards asked for. None: nothing to ask (the screen says how to
  // add one).
  void set_hubs(const std::vector<std::string>& hubs);
  // Another hub: its boards are asked for, and what the last one showed is dropped.
  void choose_hub(std::size_t index);
  // Asks for the boards again; when they come, the page shown is asked for again (same board, list and offset while
  // that board is still there).
  void refresh();
  // A board of boards(): its page 1 of the list shown.
  void choose_board(std::size_t index);
  // The other list of the chosen board: page 1.
  void choose_list(RecordList list);
  // The next or previous kPageEntries entries, where there are some.
  void next_page();
  void previous_page();

  // The requests to start now, each handed out once.
  [[nodiscard]] std::vector<RecordsRequest> take_requests();
  // The answer to request `id`: the body of a 200, or why there is none. Answers of replaced requests are dropped.
  void answered(std::uint64_t id, const sr::Result<std::vector<std::uint8_t>, HttpError>& answer);

  [[nodiscard]] const std::vector<std::string>& hubs() const { return hubs_; }
  [[nodiscard]] std::optional<std::size_t> hub() const { return hub_; }
  [[nodiscard]] const std::vector<RecordBoardSummary>& boards() const { return boards_; }
  [[nodiscard]] std::optional<std::size_t> board() const { return board_; }
  [[nodiscard]] RecordList list() const { return list_; }
  [[nodiscard]] std::int64_t offset() const { return offset_; }
  // The page shown: none before the first answer of the chosen board and list (while paging, the last one stays
  // until the next arrives).
  [[nodiscard]] const std::optional<RecordPage>& page() const { return page_; }
  [[nodiscard]] bool boards_loaded() const { return boards_loaded_; }
  [[nodiscard]] bool loading_boards() const { return boards_request_ != 0; }
  [[nodiscard]] bool loading_page() const { return page_request_ != 0; }
  [[nodiscard]] bool waiting() const { return loading_boards() || loading_page(); }
  // Why the boards or the page could not be shown (a sentence), "" when they could.
  [[nodiscard]] const std::string& boards_error() const { return boards_error_; }
  [[nodiscard]] const std::string& page_error() const { return page_error_; }
  [[nodiscard]] bool can_previous() const { return board_ && offset_ > 0; }
  [[nodiscard]] bool can_next() const;

 private:
  void ask_boards();
  void ask_page();
  void boards_answer(const sr::Result<std::vector<std::uint8_t>, HttpError>& answer);
  void page_answer(const sr::Result<std::vector<std::uint8_t>, HttpError>& answer);
  [[nodiscard]] std::string hub_url() const;
  [[nodiscard]] std::string shown_hub() const { return hub_name(hub_url()); }

  std::vector<std::string> hubs_;
  std::optional<std::size_t> hub_;
  std::vector<RecordBoardSummary> boards_;
  bool boards_loaded_ = false;
  std::optional<std::size_t> board_;
  std::string board_id_;  // the chosen board's id: kept across a refresh while the hub still lists it
  RecordList list_ = RecordList::kTrusted;
  std::int64_t offset_ = 0;
  std::optional<RecordPage> page_;
  std::string boards_error_;
  std::string page_error_;
  std::uint64_t next_id_ = 1;
  std::uint64_t boards_request_ = 0;  // the boards' request in flight, 0: none
  std::uint64_t page_request_ = 0;
  std::vector<RecordsRequest> pending_;
};

}  // namespace sr::client
