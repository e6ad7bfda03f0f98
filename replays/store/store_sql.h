// Internal to the replay store: the SQL fragments that state its rules, shared by the folder store's SQLite index
// (replay_store.cpp) and the PostgreSQL store (pg_store.cpp), so that the two cannot answer differently. Both
// dialects read them alike; the tables are aliased `g` (games) and `r` (results).
#pragma once

namespace sr::replay::sql {

// Whether another key raced under result row r's name (r.key_id empty: unknown, never shared).
inline constexpr const char* kNameShared =
    "(r.key_id <> '' AND EXISTS (SELECT 1 FROM results o WHERE o.player = r.player AND o.key_id <> '' AND "
    "o.key_id <> r.key_id))";

// BestResult's rule (replay_store.h): which results count (finished, or topped out where the game has no time limit
// and is not ranked by time) and their rank within one mode and limit (1 = the best; ties go to the earlier game).
inline constexpr const char* kBestCounts =
    "(r.status = 'finished' OR (r.status = 'topped_out' AND g.goal <> 'time' AND g.limit_kind <> 'time'))";
inline constexpr const char* kBestRank =
    "ROW_NUMBER() OVER (PARTITION BY g.mode, g.limit_kind, g.limit_value ORDER BY "
    "CASE g.goal WHEN 'time' THEN r.time_us ELSE 0 END ASC, "
    "CASE g.goal WHEN 'score' THEN r.score WHEN 'lines' THEN r.lines ELSE 0 END DESC, "
    "g.created_unix_ms ASC, r.game_id, r.racer)";
// kBestRank's order as one number per result (the PostgreSQL store keeps it in results.rank_value, indexed, so that
// a board's best is the first entry of an index rather than a sort of all its results): ascending rank_value, then
// the earlier game, then game id and racer, is kBestRank's order within one mode and limit.
inline constexpr const char* kRankValue =
    "(CASE g.goal WHEN 'time' THEN r.time_us WHEN 'score' THEN -r.score WHEN 'lines' THEN -r.lines ELSE 0 END)";

}  // namespace sr::replay::sql
