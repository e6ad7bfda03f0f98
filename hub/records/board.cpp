#include "hub/records/board.h"

#include "common/replay/names.h"

namespace sr::hub::records {

sr::Result<Board, std::string> board_of(const engine::GameConfig& config) {
  if (std::optional<Board> board = replay::record_board(config)) return std::move(*board);
  if (config.limit == engine::LimitKind::kNone || config.limit_value < 1) {
    return std::string("the game has no records board: it has no limit (") + engine::mode_name(config.mode) +
           "), so its results do not compare";
  }
  return std::string("the game has no records board: its limit is what it is ranked by, so every result is the same");
}

sr::Status<std::string> counts_on_board(const Board& board, const replay::RacerResult& result) {
  if (replay::result_counts(board, result)) return {};
  const bool topped_out_counts = board.goal != engine::GoalKind::kTime && board.limit != engine::LimitKind::kTime;
  const std::string rule =
      std::string(": only finished ") + (topped_out_counts ? "or topped-out " : "") + "runs count on " + board.id;
  switch (result.status) {
    case replay::ResultStatus::kFinished: break;
    case replay::ResultStatus::kToppedOut: return "topped out" + rule;
    case replay::ResultStatus::kDisconnected: return "disconnected before the end" + rule;
    case replay::ResultStatus::kForfeited: return "forfeited" + rule;
    case replay::ResultStatus::kUnfinished: return "still playing when the race ended" + rule;
  }
  return "did not finish" + rule;
}

std::int64_t rank_value(const Board& board, std::int64_t ranked) {
  return replay::lower_is_better(board) ? ranked : -ranked;
}

std::int64_t rank_value(const Board& board, const replay::RacerResult& result) {
  return rank_value(board, replay::ranked_value(board, result));
}

const char* goal_name(engine::GoalKind goal) { return replay::names::name_of(replay::names::kGoal, goal); }

}  // namespace sr::hub::records
