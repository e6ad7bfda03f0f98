// The Records screen (records_view.h).
#include "client/app/records_view.h"

#include <spdlog/spdlog.h>

#include <chrono>

#include "client/app/app.h"
#include "common/protocol/records.h"

namespace sr::client {
namespace {

constexpr double kPollS = 0.05;  // how often answers are looked for while some are awaited

HttpGetLimits records_limits() {
  HttpGetLimits limits;
  limits.timeout = std::chrono::milliseconds(5000);
  limits.max_body_bytes = kMaxRecordAnswerBytes;
  return limits;
}

}  // namespace

void RecordsView::open(Screen back_to) {
  back_to_ = back_to;
  app_.show(Screen::kRecords);
  screen_.opened();
  records_.set_hubs(app_.settings().directories);
  if (!records_.waiting()) records_.refresh();  // a hub newly chosen is being asked already
  spdlog::info("records: {} hubs{}", records_.hubs().size(),
               records_.hub() ? ", asking " + records_.hubs()[*records_.hub()] : std::string());
  fetch();
}

OwnKey RecordsView::own_key() const {
  const auto& key = app_.net().key();
  return key ? OwnKey{protocol::key_hex(key->public_key()), key->short_id()} : OwnKey{};
}

void RecordsView::start_requests() {
  for (RecordsRequest& r : records_.take_requests()) {
    spdlog::debug("records: GET {}", r.url);
    BackgroundGet get(r.url, records_limits());
    fetches_.push_back({std::move(r), std::move(get)});
  }
}

void RecordsView::fetch() {
  start_requests();
  for (std::size_t i = 0; i < fetches_.size();) {
    if (!fetches_[i].get.ready()) {
      ++i;
      continue;
    }
    Fetch f = std::move(fetches_[i]);
    fetches_.erase(fetches_.begin() + static_cast<std::ptrdiff_t>(i));
    records_.answered(f.request.id, f.get.take());
    log_answer(f.request.kind);
    start_requests();  // the answer may have asked for more (the boards bring their page)
  }
}

void RecordsView::log_answer(RecordsRequest::Kind kind) const {
  // What an answer showed (the window tests follow these lines). An answer to a request replaced meanwhile changed
  // nothing; the one that replaced it is logged when it comes.
  if (kind == RecordsRequest::kBoards && !records_.loading_boards()) {
    if (!records_.boards_error().empty()) {
      spdlog::warn("records: {}", records_.boards_error());
    } else if (records_.boards_loaded()) {
      spdlog::info("records: {} boards", records_.boards().size());
    }
  } else if (kind == RecordsRequest::kPage && !records_.loading_page()) {
    if (!records_.page_error().empty()) {
      spdlog::warn("records: {}", records_.page_error());
    } else if (records_.page() && records_.board()) {
      const RecordPage& p = *records_.page();
      std::size_t own = 0;
      for (const RecordRow& row : record_rows(p, records_.boards()[*records_.board()].goal, own_key())) own += row.own;
      spdlog::info("records: {} {}: {}{}", p.board, record_list_name(p.list), page_text(p, records_.offset()),
                   own > 0 ? ", " + std::to_string(own) + " yours" : std::string());
    }
  }
}

void RecordsView::act(const RecordsAction& a) {
  switch (a.kind) {
    case RecordsAction::kBack: app_.show(back_to_); return;
    case RecordsAction::kRefresh: records_.refresh(); break;
    case RecordsAction::kHub:
      records_.choose_hub(a.index);
      spdlog::info("records: asking {}", records_.hubs()[a.index]);
      break;
    case RecordsAction::kBoard: records_.choose_board(a.index); break;
    case RecordsAction::kList: records_.choose_list(a.list); break;
    case RecordsAction::kNextPage: records_.next_page(); break;
    case RecordsAction::kPreviousPage: records_.previous_page(); break;
    case RecordsAction::kNone: return;
  }
  fetch();
}

void RecordsView::ui(double /*now_s*/, const MenuNav& nav) {
  fetch();
  act(screen_.draw(records_, own_key(), nav));
}

std::optional<double> RecordsView::wake_at(double now_s) const {
  if (fetches_.empty()) return std::nullopt;
  return now_s + kPollS;
}

}  // namespace sr::client
