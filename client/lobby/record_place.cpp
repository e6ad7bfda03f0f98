#include "client/lobby/record_place.h"

#include "client/lobby/record_boards.h"
#include "client/lobby/records_browser.h"

namespace sr::client {

replay::RacerResult counted_result(const protocol::RacerResult& result) {
  replay::RacerResult r;
  switch (result.status) {
    case protocol::RacerStatus::kFinished: r.status = replay::ResultStatus::kFinished; break;
    case protocol::RacerStatus::kToppedOut: r.status = replay::ResultStatus::kToppedOut; break;
    case protocol::RacerStatus::kDisconnected: r.status = replay::ResultStatus::kDisconnected; break;
    case protocol::RacerStatus::kRemoved: r.status = replay::ResultStatus::kForfeited; break;
    case protocol::RacerStatus::kUnfinished:
    case protocol::RacerStatus::kRacing: r.status = replay::ResultStatus::kUnfinished; break;
  }
  r.stats.time_us = result.time_us;
  r.stats.lines = result.lines;
  r.stats.score = result.score;
  r.stats.pieces = result.pieces;
  r.unverified_us = result.unverified_us;
  r.reconnects = result.reconnects;
  return r;
}

std::optional<RecordPlaceAsk> RecordPlaceAsk::make(const std::string& hub, const engine::GameConfig& config,
                                                   const protocol::RacerResult& own) {
  if (hub.empty()) return std::nullopt;
  const std::optional<replay::RecordBoard> board = replay::record_board(config);
  if (!board) return std::nullopt;
  const replay::RacerResult counted = counted_result(own);
  if (!replay::result_counts(*board, counted)) return std::nullopt;
  RecordPlaceAsk ask;
  ask.hub_ = hub_name(hub);
  ask.board_ = *board;
  ask.value_ = replay::ranked_value(*board, counted);
  const char* measure = board->goal == engine::GoalKind::kTime    ? "time_us"
                        : board->goal == engine::GoalKind::kScore ? "score"
                                                                  : "lines";
  ask.url_ = hub + "/api/records/" + board->id + "/place?" + measure + "=" + std::to_string(ask.value_);
  return ask;
}

void RecordPlaceAsk::answered(const sr::Result<std::vector<std::uint8_t>, HttpError>& answer) {
  answered_ = true;
  const std::string unknown = "Where this run would place on the records is unknown: ";
  if (!answer) {
    line_ = unknown + records_fetch_error(hub_, answer.error());
    return;
  }
  const std::string body(reinterpret_cast<const char*>(answer.value().data()), answer.value().size());
  auto place = parse_record_place(body, board_.id);
  if (!place) {
    line_ = unknown + hub_ + " did not answer with the records API's JSON (" + place.error() + ").";
    return;
  }
  const RecordPlace& p = place.value();
  line_ = "On the records of " + hub_ + " this run would place #" + std::to_string(p.place) + " of " +
          std::to_string(p.of) + (p.list == RecordList::kOther ? " on its other list" : "") + " (" + board_.id + ")";
}

std::string RecordPlaceAsk::line() const {
  return answered_ ? line_ : "Asking " + hub_ + " where this run would place...";
}

}  // namespace sr::client
