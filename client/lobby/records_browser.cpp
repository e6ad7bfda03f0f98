#include "client/lobby/records_browser.h"

#include <algorithm>

#include "client/solo/results.h"
#include "common/protocol/web_url.h"
#include "common/replay/civil_time.h"

namespace sr::client {
namespace {

std::string body_text(const std::vector<std::uint8_t>& body) {
  return std::string(reinterpret_cast<const char*>(body.data()), body.size());
}

std::string date_text(std::int64_t unix_ms) {
  const auto t = replay::civil_from_unix_ms(unix_ms);
  return t ? replay::format_civil(*t).substr(0, 10) : std::string();
}

}  // namespace

std::string board_title(const RecordBoardSummary& board) {
  std::string title = board.mode + " " + board.limit;
  if (board.custom) title += ", custom settings";
  return title;
}

const char* list_explanation(RecordList list) {
  return list == RecordList::kTrusted
             ? "Trusted: runs from servers this hub's operator trusts, whose referee watched the whole run's pace."
             : "Other: runs the hub re-simulated and their players signed, but whose pace no trusted server watched.";
}

std::vector<RecordRow> record_rows(const RecordPage& page, engine::GoalKind goal, const OwnKey& own) {
  std::vector<RecordRow> rows;
  rows.reserve(page.entries.size());
  for (const RecordEntry& e : page.entries) {
    RecordRow r;
    r.place = std::to_string(e.place);
    r.player = e.player;
    r.key_id = e.key_id;
    switch (goal) {
      case engine::GoalKind::kTime: r.result = format_time(e.time_us); break;
      case engine::GoalKind::kScore: r.result = format_count(e.score); break;
      case engine::GoalKind::kLines: r.result = format_count(e.lines) + " lines"; break;
    }
    r.rules = std::to_string(e.rules_version);
    r.server = e.server + " (" + e.server_key_id + ")";
    r.date = date_text(e.played_unix_ms);
    r.own = !e.key.empty() && !own.hex.empty() ? e.key == own.hex : !own.id.empty() && e.key_id == own.id;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string page_text(const RecordPage& page, std::int64_t offset) {
  if (page.total == 0) return "no entries yet";
  if (page.entries.empty()) return "no entries on this page (" + std::to_string(page.total) + " in all)";
  return std::to_string(offset + 1) + "-" + std::to_string(offset + static_cast<std::int64_t>(page.entries.size())) +
         " of " + std::to_string(page.total);
}

std::string hub_name(std::string_view url) {
  auto parsed = protocol::parse_web_url(url);
  if (!parsed) return std::string(url);
  const protocol::WebUrl& u = parsed.value();
  const std::string host = u.host.find(':') != std::string::npos ? "[" + u.host + "]" : u.host;
  return u.port == (u.https ? 443 : 80) ? host : host + ":" + std::to_string(u.port);
}

std::string records_fetch_error(std::string_view hub, const HttpError& error) {
  const std::string h(hub);
  switch (error.kind) {
    case HttpErrorKind::kUnreachable: return h + " cannot be reached (" + error.message + ").";
    case HttpErrorKind::kTimeout: return h + " did not answer in time.";
    case HttpErrorKind::kStatus:
      if (error.status == 404) return h + " has no such records (" + error.message + ").";
      return h + " refused the question (" + error.message + ").";
    case HttpErrorKind::kTooLarge:
    case HttpErrorKind::kBadResponse: break;
  }
  return h + " did not answer with the records API's JSON (" + error.message + ").";
}

void RecordsBrowser::set_hubs(const std::vector<std::string>& hubs) {
  const std::string chosen = hub_ ? hubs_[*hub_] : std::string();
  hubs_ = hubs;
  const auto still = std::find(hubs_.begin(), hubs_.end(), chosen);
  if (hub_ && still != hubs_.end()) {
    hub_ = static_cast<std::size_t>(still - hubs_.begin());
    return;
  }
  choose_hub(0);  // the first, or none (nothing is asked): what was shown is dropped either way
}

void RecordsBrowser::choose_hub(std::size_t index) {
  boards_.clear();
  boards_loaded_ = false;
  board_.reset();
  board_id_.clear();
  list_ = RecordList::kTrusted;
  offset_ = 0;
  page_.reset();
  boards_error_.clear();
  page_error_.clear();
  page_request_ = 0;
  boards_request_ = 0;
  pending_.clear();
  if (index >= hubs_.size()) {
    hub_.reset();
    return;
  }
  hub_ = index;
  ask_boards();
}

void RecordsBrowser::refresh() {
  if (hub_) ask_boards();
}

void RecordsBrowser::choose_board(std::size_t index) {
  if (index >= boards_.size()) return;
  if (!board_ || *board_ != index) page_.reset();
  board_ = index;
  board_id_ = boards_[index].board;
  offset_ = 0;
  ask_page();
}

void RecordsBrowser::choose_list(RecordList list) {
  if (!board_) return;
  if (list != list_) page_.reset();
  list_ = list;
  offset_ = 0;
  ask_page();
}

bool RecordsBrowser::can_next() const {
  return board_ && page_ && offset_ + static_cast<std::int64_t>(kPageEntries) < page_->total;
}

void RecordsBrowser::next_page() {
  if (!can_next()) return;
  offset_ += static_cast<std::int64_t>(kPageEntries);
  ask_page();
}

void RecordsBrowser::previous_page() {
  if (!can_previous()) return;
  offset_ = std::max<std::int64_t>(0, offset_ - static_cast<std::int64_t>(kPageEntries));
  ask_page();
}

std::string RecordsBrowser::hub_url() const { return hub_ ? hubs_[*hub_] : std::string(); }

void RecordsBrowser::ask_boards() {
  boards_request_ = next_id_++;
  boards_error_.clear();
  std::erase_if(pending_, [](const RecordsRequest& r) { return r.kind == RecordsRequest::kBoards; });
  pending_.push_back({boards_request_, RecordsRequest::kBoards, hub_url() + "/api/records"});
}

void RecordsBrowser::ask_page() {
  page_request_ = next_id_++;
  page_error_.clear();
  std::erase_if(pending_, [](const RecordsRequest& r) { return r.kind == RecordsRequest::kPage; });
  pending_.push_back({page_request_, RecordsRequest::kPage,
                      hub_url() + "/api/records/" + board_id_ + "?list=" + record_list_name(list_) +
                          "&offset=" + std::to_string(offset_) + "&limit=" + std::to_string(kPageEntries)});
}

std::vector<RecordsRequest> RecordsBrowser::take_requests() {
  std::vector<RecordsRequest> out;
  out.swap(pending_);
  return out;
}

void RecordsBrowser::answered(std::uint64_t id, const sr::Result<std::vector<std::uint8_t>, HttpError>& answer) {
  if (id != 0 && id == boards_request_) {
    boards_request_ = 0;
    boards_answer(answer);
  } else if (id != 0 && id == page_request_) {
    page_request_ = 0;
    page_answer(answer);
  }
}

void RecordsBrowser::boards_answer(const sr::Result<std::vector<std::uint8_t>, HttpError>& answer) {
  if (!answer) {
    boards_error_ = records_fetch_error(shown_hub(), answer.error());
    return;
  }
  auto boards = parse_record_boards(body_text(answer.value()));
  if (!boards) {
    boards_error_ = shown_hub() + " did not answer with the records API's JSON (" + boards.error() + ").";
    return;
  }
  boards_ = std::move(boards.value());
  boards_loaded_ = true;
  // The board shown stays (a refresh), else the first; its page is asked for again.
  const auto same = std::find_if(boards_.begin(), boards_.end(), [&](const RecordBoardSummary& b) {
    return !board_id_.empty() && b.board == board_id_;
  });
  if (same != boards_.end()) {
    board_ = static_cast<std::size_t>(same - boards_.begin());
    ask_page();
  } else if (!boards_.empty()) {
    list_ = RecordList::kTrusted;
    choose_board(0);
  } else {
    board_.reset();
    board_id_.clear();
    page_.reset();
    page_request_ = 0;
  }
}

void RecordsBrowser::page_answer(const sr::Result<std::vector<std::uint8_t>, HttpError>& answer) {
  if (!answer) {
    page_error_ = records_fetch_error(shown_hub(), answer.error());
    return;
  }
  auto page = parse_record_page(body_text(answer.value()), board_id_, list_, kPageEntries);
  if (!page) {
    page_error_ = shown_hub() + " did not answer with the records API's JSON (" + page.error() + ").";
    return;
  }
  page_ = std::move(page.value());
}

}  // namespace sr::client
