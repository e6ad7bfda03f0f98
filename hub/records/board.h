// What the records hub adds to the boards of common/replay/record_board.h (common/protocol/RECORDS.md section 4): the
// sentences saying why a run has no board or does not count on it, and one rank value per result (lower is better)
// that the record book orders by. Which board a config belongs to and which results count are
// replay::record_board's and replay::result_counts', the game's rule too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/replay/record_board.h"
#include "common/replay/replay.h"
#include "common/result.h"

namespace sr::hub::records {

using Board = replay::RecordBoard;

// The board of a replay's shared config. # Errors: "the game has no records board: it has no limit", "... its limit
// is what it is ranked by" (replay::record_board gives none).
[[nodiscard]] sr::Result<Board, std::string> board_of(const engine::GameConfig& config);

// Whether `text` has the form of a board id (replay::valid_board_id): for addresses, before any lookup.
[[nodiscard]] inline bool is_board_id(std::string_view text) { return replay::valid_board_id(text); }

// Whether a racer's result counts on `board` (replay::result_counts). # Errors: a sentence saying why not ("topped
// out: only finished runs count on sprint-40l").
[[nodiscard]] sr::Status<std::string> counts_on_board(const Board& board, const replay::RacerResult& result);

// The rank of a ranked value (replay::ranked_value: a time, a score or lines) on `board`: the value where lower is
// better, minus it where higher is. Ties go to the earlier submission (the record book's order).
[[nodiscard]] std::int64_t rank_value(const Board& board, std::int64_t ranked);
// The rank of a result that counts on `board`.
[[nodiscard]] std::int64_t rank_value(const Board& board, const replay::RacerResult& result);

// "time", "score", "lines" (common/replay/names.h).
[[nodiscard]] const char* goal_name(engine::GoalKind goal);

}  // namespace sr::hub::records
