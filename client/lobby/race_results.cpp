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

namespace {

// The outcome column: the time of a finish or how and when a timed game ended; the score (lines) otherwise, with how
// the game ended for one that did not finish.
std::string outcome_text(engine::GoalKind goal, protocol::RacerStatus status, engine::TimeUs time_us,
                         std::int64_t score, std::int64_t lines) {
  const bool finished = status == protocol::RacerStatus::kFinished;
  if (goal == engine::GoalKind::kTime) {
    return finished ? format_time(time_us) : std::string(status_words(status)) + " at " + format_time(time_us);
  }
  std::string out = goal == engine::GoalKind::kScore ? format_count(score) : format_count(lines) + " lines";
  if (!finished) out += std::string(" (") + status_words(status) + ")";
  return out;
}

// Whether a racer's place is shown: for time goals only a finish is placed.
bool placed(std::uint8_t place, protocol::RacerStatus status, engine::GoalKind goal) {
  return place > 0 && (status == protocol::RacerStatus::kFinished || goal != engine::GoalKind::kTime);
}

}  // namespace

GameListRow game_list_row(const protocol::GameSummary& game) {
  GameListRow row;
  const engine::GoalKind goal = game.mode.goal;
  for (const protocol::GameRacer& r : game.racers) {
    if (!row.racers.empty()) row.racers += ", ";
    if (game.racers.size() > 1 && placed(r.place, r.status, goal)) row.racers += std::to_string(r.place) + ". ";
    row.racers += r.name;
    if (r.status != protocol::RacerStatus::kFinished) row.racers += std::string(" (") + status_words(r.status) + ")";
  }
  if (!game.racers.empty()) {
    const protocol::GameRacer& first = game.racers.front();
    row.result = outcome_text(goal, first.status, first.time_us, first.score, first.lines);
  }
  return row;
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
    if (placed(r->place, r->status, goal)) row.place = std::to_string(r->place);
    row.name = r->name;
    row.outcome = outcome_text(goal, r->status, r->time_us, r->score, r->lines);
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
