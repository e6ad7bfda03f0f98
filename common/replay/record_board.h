// Record boards (common/protocol/RECORDS.md, section 4): which results compare. A board is a mode and its limit with a
// settings class; a records hub ranks results within a board only, and the game asks the hub where its own result
// would place on the board of the room it raced in. One function for both, so they always name the same board.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/engine/config.h"
#include "common/replay/replay.h"

namespace sr::replay {

struct RecordBoard {
  // "sprint-40l", "ultra-120s", "marathon-15v", "master-100l", "contest-90s"; custom settings add "." and 8 hex
  // digits of the settings' hash: "sprint-40l.3fa2c9d1". At most 40 bytes of [a-z0-9.-].
  std::string id;
  engine::ModeKind mode = engine::ModeKind::kSprint;
  engine::LimitKind limit = engine::LimitKind::kLines;
  std::int64_t limit_value = 0;
  engine::GoalKind goal = engine::GoalKind::kTime;
  bool custom = false;     // the config is not the mode's standard one for that limit (handling never counts)
  std::string limit_text;  // "40 lines", "120 s", "level 15", "100 lines"
  bool operator==(const RecordBoard&) const = default;
};

// The board of games played with `config` (a room's shared config; its handling is ignored). None when results of
// that config do not compare: a game without a limit (endless, an unlimited custom game), or a limit that is also the
// goal's measure and so gives everyone the same result (lines ranked by lines within a line limit, say).
[[nodiscard]] std::optional<RecordBoard> record_board(const engine::GameConfig& config);

// Whether `result` is ranked on `board`: finished (the limit reached), or, where the board is not ranked by time and
// has no time limit, topped out (a marathon's usual end). The same rule as the replay store's personal bests.
[[nodiscard]] bool result_counts(const RecordBoard& board, const RacerResult& result);

// The value a result is ranked by on `board` and which way: lower is better for time, higher for score and lines.
// `result` must count (result_counts).
[[nodiscard]] std::int64_t ranked_value(const RecordBoard& board, const RacerResult& result);
[[nodiscard]] bool lower_is_better(const RecordBoard& board);

// Whether `id` has the form of a board id (any board's, not only those this build can name): for hostile input.
[[nodiscard]] bool valid_board_id(std::string_view id);

}  // namespace sr::replay
