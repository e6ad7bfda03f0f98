#include "client/replay/replay_list.h"

#include <algorithm>

#include "client/solo/puzzle_progress.h"
#include "client/solo/results.h"
#include "common/engine/puzzles.h"

namespace sr::client {

ReplayListing list_local_replays(const std::filesystem::path& replay_dir, std::optional<engine::ModeKind> mode,
                                 const std::string& player, bool hide_given_up, std::size_t limit) {
  ReplayListing out;
  std::error_code ec;
  if (!std::filesystem::exists(replay_dir, ec)) return out;
  auto store = replay::ReplayStore::open(replay_dir, false);
  if (!store) {
    out.error = store.error().describe();
    return out;
  }
  replay::StoreQuery q;
  q.mode = mode;
  if (!player.empty()) q.player = player;
  q.limit = limit;
  auto games = store.value().recent(q);
  if (!games) {
    out.error = games.error().describe();
    return out;
  }
  out.games = std::move(games.value());
  if (hide_given_up) {
    std::erase_if(out.games, [](const replay::StoredGame& g) {
      return !g.results.empty() && g.results.front().status == replay::ResultStatus::kForfeited;
    });
  }
  return out;
}

const char* status_words(replay::ResultStatus status) {
  switch (status) {
    case replay::ResultStatus::kFinished: return "finished";
    case replay::ResultStatus::kToppedOut: return "topped out";
    case replay::ResultStatus::kDisconnected: return "disconnected";
    case replay::ResultStatus::kForfeited: return "gave up";
    case replay::ResultStatus::kUnfinished: return "unfinished";
  }
  return "?";
}

std::string result_text(const replay::StoredGame& g, const replay::StoredResult& r) {
  const bool finished = r.status == replay::ResultStatus::kFinished;
  const std::string ended = std::string(status_words(r.status)) + " at " + format_time(r.time_us);
  if (const auto stage = puzzle_stage_of(g.place)) {
    const std::string of =
        format_count(r.pieces) + " of " + std::to_string(engine::puzzle_stages()[*stage].pieces.size()) + " pieces";
    if (finished && puzzle_board_cleared(*stage, r.lines, r.pieces)) return "perfect clear, " + of;
    return (finished ? std::string("not cleared") : std::string(status_words(r.status))) + " after " + of;
  }
  if (g.goal != engine::GoalKind::kTime) {
    const std::string score = format_count(r.score) + " (" + format_count(r.lines) + " lines)";
    return finished ? score : score + ", " + ended;
  }
  if (finished) return format_time(r.time_us);
  return ended + ", " + format_count(r.lines) + " lines";
}

}  // namespace sr::client
