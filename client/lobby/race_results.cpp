#include "client/lobby/race_results.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "client/solo/results.h"

namespace sr::client {

const char* status_words(protocol::RacerStatus status) {
  switch (status) {
    case protocol::RacerStatus::kFinished: return "finished";
    case protocol::RacerStatus::kToppedOut: return "topped out";
    case protocol::RacerStatus::kDisconnected: return "left";
    case protocol::RacerStatus::kRemoved: return "removed";
    case protocol::RacerStatus::kUnfinished: return "did not finish";
    case protocol::RacerStatus::kRacing: return "racing";
  }
  return "?";
}

std::string x100_text(std::uint32_t x100) {
  char b[32];
  std::snprintf(b, sizeof b, "%u.%02u", x100 / 100, x100 % 100);
  return b;
}

std::vector<ResultRow> result_rows(const protocol::RaceResults& results, engine::GoalKind goal) {
  std::vector<const protocol::RacerResult*> order;
  for (const auto& r : results.racers) order.push_back(&r);
  const auto rank = [](const protocol::RacerResult* r) {
    const bool finished = r->status == protocol::RacerStatus::kFinished;
    return std::make_tuple(finished ? 0 : 1, r->place == 0 ? 1 : 0, r->place);
  };
  std::stable_sort(order.begin(), order.end(), [&](const auto* a, const auto* b) { return rank(a) < rank(b); });
  std::vector<ResultRow> out;
  for (const protocol::RacerResult* r : order) {
    ResultRow row;
    row.finished = r->status == protocol::RacerStatus::kFinished;
    const bool timed = goal == engine::GoalKind::kTime;
    if (r->place > 0 && (row.finished || !timed)) row.place = std::to_string(r->place);
    row.name = r->name;
    if (timed) {
      row.outcome = row.finished ? format_time(r->time_us)
                                 : std::string(status_words(r->status)) + " at " + format_time(r->time_us);
    } else {
      row.outcome = goal == engine::GoalKind::kScore ? format_count(r->score) : format_count(r->lines) + " lines";
      if (!row.finished) row.outcome += std::string(" (") + status_words(r->status) + ")";
    }
    row.lines = format_count(r->lines);
    row.pieces = format_count(r->pieces);
    row.pps = x100_text(r->pps_x100);
    row.kpp = x100_text(r->kpp_x100);
    if (r->unverified_us > 0) row.unverified = format_time(r->unverified_us);
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace sr::client
