// The replay store a stackrace-abuse server starts with, so that the list and download attacks have rows to read
// and bytes to send: many small race replays (the rows a paging marker walks past) and one big one (what the
// download attack asks for).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "common/result.h"

namespace sr::abuse {

struct SeedPlan {
  int games = 300;                      // small replays: 2 bots' 10-line sprints each
  std::int64_t big_bytes = 124 * 1024;  // the big replay is at least this large (as long as 64 racers allow)
  std::uint64_t seed = 1;               // the games' seeds derive from it
};

struct SeedInfo {
  int games = 0;                     // replays in the store, the big one included
  std::uint64_t oldest_game_id = 0;  // the game listed last: the paging marker that reads the most rows
  std::uint64_t big_game_id = 0;     // not in the index (never listed), but downloadable like any other
  std::int64_t big_bytes = 0;        // its .srr file's size
};

// Writes the replays into a new store in `dir` (ReplayStore::add, so the index is the server's own format). The
// games are made by the bot in this process (common/bot), not read from tests/data, whose replays are solo games and
// small. Takes a few seconds.
[[nodiscard]] sr::Result<SeedInfo, std::string> seed_store(const std::filesystem::path& dir, const SeedPlan& plan);

// A replay store's id ("00ab..", 16 hex digits) as the wire's game id (server/replay_writer.h game_id_number).
[[nodiscard]] std::uint64_t game_id_of(const std::string& store_id);

}  // namespace sr::abuse
