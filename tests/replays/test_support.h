// Helpers shared by the replay tests: golden files, small replays built by hand.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common/replay/replay.h"

namespace sr::replay::testing {

inline std::filesystem::path data_dir() { return STACKRACE_TEST_DATA; }

// Every *.srr file in tests/data, sorted.
std::vector<std::filesystem::path> golden_files();

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path);

// A one-racer sprint played by the scripted player for `pieces` pieces (results and checkpoints recorded).
Replay small_sprint(std::int64_t pieces = 30, std::uint64_t seed = 7);

}  // namespace sr::replay::testing
