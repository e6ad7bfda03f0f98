// Helpers shared by the replay tests: golden files, small replays built by hand.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common/replay/replay.h"

namespace sr::replay::testing {

inline std::filesystem::path data_dir() { return STACKRACE_TEST_DATA; }
// The golden set as this build writes it (make-goldens; FORMAT.md, "Golden replays").
inline std::filesystem::path current_dir() { return data_dir() / "current"; }

// Every *.srr file directly in `dir`, sorted. In tests/data itself: the files written before RacerResult class version
// 2 (the first golden set and the bot goldens), kept unchanged as compatibility fixtures.
std::vector<std::filesystem::path> golden_files(const std::filesystem::path& dir = data_dir());

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path);

// One racer, one input, nothing else: the replay whose 139 bytes codec_binary_test.cpp spells out (kTinyBytes).
Replay tiny();

// A one-racer sprint played by the scripted player for `pieces` pieces (results and checkpoints recorded).
Replay small_sprint(std::int64_t pieces = 30, std::uint64_t seed = 7);

// A one-racer game of `config` played by the clumsy scripted player until it tops out, by `player`.
Replay topped_out_game(const engine::GameConfig& config, const std::string& player, std::uint64_t seed = 7);

}  // namespace sr::replay::testing
