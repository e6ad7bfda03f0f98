// The replay browser's list of local games: the replay store's index (newest first), filtered by mode and player.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "replays/store/replay_store.h"

namespace sr::client {

struct ReplayListing {
  std::vector<replay::StoredGame> games;
  std::string error;  // the store could not be read (empty when it simply has no games yet)
};

// The newest `limit` games of the store in `replay_dir` of `mode` (every mode when nullopt) and `player` (everyone
// when empty), newest first; without the games their first player gave up when `hide_given_up` (of the newest
// `limit`: fewer may be left). Each game's `file` is the path to open as it is (the store directory joined already).
[[nodiscard]] ReplayListing list_local_replays(const std::filesystem::path& replay_dir,
                                               std::optional<engine::ModeKind> mode, const std::string& player,
                                               bool hide_given_up = false, std::size_t limit = 200);

// How a local game ended for one racer, in words: "0:42.117" (a finished time goal), "topped out at 0:14.722, 12
// lines", "gave up at 0:03.100, 0 lines"; "12,345 (87 lines)" for score and lines goals, with how and when a game
// that did not finish ended ("12,345 (87 lines), topped out at 1:02.500"); for a puzzle attempt (puzzle_place) whether
// it cleared the board ("perfect clear, 2 of 2 pieces", "not cleared after 2 of 2 pieces", "gave up after 1 of 2
// pieces").
[[nodiscard]] std::string result_text(const replay::StoredGame& game, const replay::StoredResult& result);
// "finished", "topped out", "disconnected", "gave up", "unfinished".
[[nodiscard]] const char* status_words(replay::ResultStatus status);

}  // namespace sr::client
