// File edges of the replay tools: whole-file reads with a size cap, and atomic writes (temporary file in the same
// directory, fsync, rename, fsync of the directory), so a crash leaves either the old file or the new one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "common/replay/error.h"
#include "common/replay/replay.h"
#include "common/result.h"

namespace sr::replay {

inline constexpr std::uintmax_t kMaxReplayFileBytes = std::uintmax_t{64} << 20;

// The file's bytes. # Errors: kIo (missing, unreadable, larger than max_bytes).
[[nodiscard]] Result<std::vector<std::uint8_t>> read_file(const std::filesystem::path& path,
                                                          std::uintmax_t max_bytes = kMaxReplayFileBytes);

// Writes `bytes` to `path` atomically. Returns ok, or an error message.
[[nodiscard]] sr::Status<std::string> write_file_atomic(const std::filesystem::path& path,
                                                        std::span<const std::uint8_t> bytes);

// Reads a replay file: binary (starts with "SRRP"), or its JSON export (starts with '{' after white space).
// JSON is read as exported: a hand-written file with missing results needs `stackrace-replay import` first.
[[nodiscard]] Result<Replay> load_replay_file(const std::filesystem::path& path);

}  // namespace sr::replay
