#include "tests/replays/test_support.h"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "common/replay/sample/scripted_player.h"
#include "common/replay/simulate.h"

namespace sr::replay::testing {

std::vector<std::filesystem::path> golden_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".srr") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Replay tiny() {
  Replay r;
  r.config = engine::make_endless();
  r.seed = 0x0102030405060708ull;
  r.created_unix_ms = 0;
  Racer a;
  a.name = "a";
  a.inputs = {{1000, engine::button::kHardDrop}};
  a.result.status = ResultStatus::kForfeited;
  a.result.stats.time_us = 1000;
  a.result.stats.pieces = 1;
  a.result.stats.key_presses = 1;
  a.result.final_hash = 0x1122334455667788ull;
  r.racers.push_back(a);
  return r;
}

namespace {

// A one-racer replay of `config` played by the scripted player in `style` from `seed`, by `player`.
Replay scripted(const engine::GameConfig& config, const sample::PlayerStyle& style, std::uint64_t seed,
                const std::string& player) {
  Replay r;
  r.created_unix_ms = 1'700'000'000'000;
  r.config = config;
  r.seed = seed;
  r.checkpoint_every = 10;
  const sample::PlayedGame g = sample::play_scripted(r.config, seed, style);
  Racer racer;
  racer.name = player;
  racer.inputs = g.inputs;
  r.racers.push_back(racer);
  record_racer(r, 0, g.end_us, ResultStatus::kForfeited);
  return r;
}

}  // namespace

Replay small_sprint(std::int64_t pieces, std::uint64_t seed) {
  sample::PlayerStyle style;
  style.seed = seed;
  style.max_pieces = pieces;
  return scripted(engine::make_sprint(), style, seed, "tester");
}

Replay topped_out_game(const engine::GameConfig& config, const std::string& player, std::uint64_t seed) {
  sample::PlayerStyle style;
  style.seed = seed;
  style.clumsy = true;
  return scripted(config, style, seed, player);
}

}  // namespace sr::replay::testing
