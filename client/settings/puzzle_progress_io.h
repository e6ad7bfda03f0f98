// Reading and writing puzzles.json, the puzzle mode's progress (beside settings.json in the config dir). An I/O
// edge like settings_io.h: file and parse errors are caught here and reported as values.
//
// Format (version 1): {"version": 1, "stages": {"I-spin": "cleared_attempt_1", "I-spin II": "failed", ...}}: each
// stage by its name (engine::puzzle_stages()), its best outcome one of "not_tried", "failed", "cleared_attempt_2",
// "cleared_attempt_1". Stages missing from the file are not tried.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "client/solo/puzzle_progress.h"
#include "common/result.h"

namespace sr::client {

struct PuzzleProgressLoad {
  PuzzleProgress progress;         // what to use: the file's contents, or nothing tried
  std::string problem;             // empty when the file was fine or absent; otherwise what was wrong (for the player)
  std::vector<std::string> reset;  // the entries ignored, each with why ("\"I-spin\" has an unknown outcome ...")
};

// Loads `path`. A missing file gives no progress and no problem. An entry that cannot be used (an unknown stage
// name, an outcome that is not one of the four words) is dropped alone and named in `reset` and the problem; the
// other stages are kept. A file that is no progress file at all (not JSON, no object, no or an unknown version, more
// than 1 MiB) gives no progress. Either way the file as it was is kept beside as `puzzles.json.damaged` and
// replaced by the progress used. Settings are a different file and never touched.
[[nodiscard]] PuzzleProgressLoad load_puzzle_progress(const std::filesystem::path& path);

// Writes `p` atomically (temporary file, then rename), creating directories. Returns ok or an error sentence.
[[nodiscard]] sr::Status<std::string> save_puzzle_progress(const std::filesystem::path& path, const PuzzleProgress& p);

// The JSON text of `p`, and back. read_puzzle_progress_json throws std::runtime_error with a sentence when the text is
// no progress file at all; entries it cannot use are named in `reset`.
[[nodiscard]] std::string puzzle_progress_to_json(const PuzzleProgress& p);
[[nodiscard]] PuzzleProgress read_puzzle_progress_json(const std::string& json, std::vector<std::string>& reset);

}  // namespace sr::client
