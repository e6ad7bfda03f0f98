// wasm_corpus: the native side of the WebAssembly equivalence test (tests/web/CMakeLists.txt, "WasmEngine.*").
//
// Writes into OUT_DIR:
// - bot-NNN-<mode>-<rotation>.srr: fresh bot games (common/bot), every mode under every rotation system with varied
//   handling, levels, lock down, generators and scoring, some of them races of two bots;
// - tampered-N-<what>.srr: replays changed after recording (a result field, an input's time, the config, a hash);
// - native.txt: for every golden replay of DATA_DIR (and DATA_DIR/current), every bot game and every tampered file,
//   "=== <path>\t<flags>" and then the digest the web API computes natively (sr_digest, web/wasm/digest.h);
// - tampered.txt: "<path>\t<verdict number>\t<message>" per tampered file, as sr_verify gives them natively.
// tests/web/wasm_equivalence.mjs and wasm_tampered.mjs then compute the same under node with the WebAssembly build.
//
// usage: wasm_corpus OUT_DIR DATA_DIR [GAMES]      (GAMES: 200)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "common/bot/bot.h"
#include "common/engine/config.h"
#include "common/engine/racer_run.h"
#include "common/replay/codec.h"
#include "common/replay/names.h"
#include "common/replay/simulate.h"
#include "common/replay/verify.h"
#include "web/wasm/api.h"

namespace {

namespace fs = std::filesystem;
using sr::engine::GameConfig;
using sr::engine::TimeUs;
namespace engine = sr::engine;
namespace replay = sr::replay;

constexpr engine::ModeKind kModes[] = {
    engine::ModeKind::kSprint,  engine::ModeKind::kUltra,   engine::ModeKind::kMarathon, engine::ModeKind::kMaster,
    engine::ModeKind::kContest, engine::ModeKind::kEndless, engine::ModeKind::kCustom};
constexpr engine::RotationSystem kRotations[] = {engine::RotationSystem::kSrs, engine::RotationSystem::kSrsNo180,
                                                 engine::RotationSystem::kClassic, engine::RotationSystem::kOcular};

GameConfig preset(engine::ModeKind mode) {
  switch (mode) {
    case engine::ModeKind::kSprint: return engine::make_sprint();
    case engine::ModeKind::kUltra: return engine::make_ultra();
    case engine::ModeKind::kMarathon: return engine::make_marathon();
    case engine::ModeKind::kMaster: return engine::make_master();
    case engine::ModeKind::kEndless: return engine::make_endless();
    case engine::ModeKind::kContest: return engine::make_contest();
    case engine::ModeKind::kCustom: return engine::make_custom();
  }
  return engine::make_sprint();
}

// Custom games change the rules a preset never does, one set per game.
void customise(GameConfig& c, int k) {
  using engine::Piece;
  switch (k % 6) {
    case 0:
      c.generator = engine::GeneratorKind::kRecency;
      c.scoring = engine::Scoring::kTetrs;
      c.all_spin = true;
      break;
    case 1:
      c.generator = engine::GeneratorKind::kUniform;
      c.lock_down = engine::LockDown::kTimer;
      c.ground_time_cap_us = 1'000'000;
      c.initial_board = {{Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kNone,
                          Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage},
                         {Piece::kGarbage, Piece::kGarbage, Piece::kNone, Piece::kGarbage, Piece::kGarbage,
                          Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kGarbage, Piece::kNone}};
      break;
    case 2:
      c.generator = engine::GeneratorKind::kFixed;
      c.fixed_sequence = {Piece::kT, Piece::kI, Piece::kO, Piece::kS, Piece::kZ, Piece::kL, Piece::kJ, Piece::kT};
      c.scoring = engine::Scoring::kContest;
      c.hold_enabled = false;
      c.preview = 1;
      break;
    case 3:
      c.gravity = engine::Gravity::k20G;
      c.lock_down = engine::LockDown::kClassic;
      c.lock_delay_us = 700'000;
      break;
    case 4:
      c.lock_down = engine::LockDown::kInfinite;
      c.goal_system = engine::GoalSystem::kVariable;
      c.start_level = 12;
      c.preview = 7;
      break;
    default:
      c.allow_180 = false;
      c.level_up = false;
      c.start_level = 20;
      c.max_lock_resets = 3;
      break;
  }
}

// Handling and levels vary with the game's number, across modes.
void vary(GameConfig& c, int v) {
  engine::Handling& h = c.handling;
  switch (v % 5) {
    case 1:
      h.das_us = 100'000;
      h.arr_us = 0;
      h.sdf = 0;
      break;
    case 2:
      h.are_us = 100'000;
      h.line_clear_delay_us = 250'000;
      h.dcd_us = 20'000;
      break;
    case 3:
      h.irs = false;
      h.ihs = false;
      h.das_us = 0;
      h.arr_us = 50'000;
      h.sdf = 5;
      break;
    case 4:
      if (c.mode != engine::ModeKind::kMaster) c.start_level = c.mode == engine::ModeKind::kMarathon ? 9 : 14;
      break;
    default: break;
  }
}

struct Game {
  std::string name;
  replay::Replay replay;
};

Game bot_game(int i) {
  // Every mode under every rotation system, round after round (28 games a round), each round with other variations.
  constexpr int kModeCount = static_cast<int>(std::size(kModes));
  constexpr int kRound = kModeCount * static_cast<int>(std::size(kRotations));
  const engine::ModeKind mode = kModes[i % kModeCount];
  const engine::RotationSystem rotation = kRotations[(i / kModeCount) % std::size(kRotations)];
  GameConfig config = preset(mode);
  config.rotation = rotation;
  if (mode == engine::ModeKind::kCustom) customise(config, i / kRound + i);
  vary(config, i / kModeCount + i / kRound);
  if (auto ok = engine::check_config(config); !ok) {
    std::cerr << "wasm_corpus: game " << i << " has a bad config: " << ok.error() << "\n";
    std::exit(2);
  }
  const std::uint64_t seed = 7000 + static_cast<std::uint64_t>(i) * 13;
  // 6 to 18 s of play: a few dozen pieces each, so that the sanitizer build makes 200 in seconds.
  const TimeUs stop_us = 6'000'000 + (i % 5) * 3'000'000;
  const int racers = i % 10 == 9 ? 2 : 1;

  replay::Replay r = replay::replay_of(config, seed, "wasm-corpus", 1'700'000'000'000 + i);
  for (int k = 0; k < racers; ++k) {
    GameConfig own = config;
    if (k == 1) own.handling.das_us = (own.handling.das_us + 50'000) % 300'000;
    sr::bot::BotSettings settings;
    settings.chooser.lookahead = 0;  // the full search (tucks and spins) but no follow-up: fast enough here
    settings.pps_milli = i % 3 == 0 ? 0 : 2000 + 500 * (i % 4);
    settings.timing_seed = static_cast<std::uint64_t>(i * 2 + k);
    engine::RacerRun run(own, seed);
    sr::bot::Bot bot(settings);
    sr::bot::play_to_end(run, bot, stop_us);
    if (!run.game().over()) (void)run.advance(std::max(stop_us, run.now_us()));
    replay::add_racer(r, run, "bot" + std::to_string(k + 1), replay::ResultStatus::kForfeited);
  }
  const std::string name = "bot-" +
                           std::string(i < 10    ? "00"
                                       : i < 100 ? "0"
                                                 : "") +
                           std::to_string(i) + "-" + engine::mode_name(mode) + "-" +
                           replay::names::name_of(replay::names::kRotation, rotation);
  return Game{name, std::move(r)};
}

// Changes made after recording, each of which the verifier must catch.
std::vector<Game> tampered(const std::vector<Game>& games, const fs::path& data_dir) {
  std::vector<Game> out;
  const auto golden = [&](const char* file) {
    std::ifstream in(data_dir / "current" / file, std::ios::binary);
    const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    auto r = replay::decode_binary(bytes);
    if (!r) {
      std::cerr << "wasm_corpus: " << file << ": " << r.error().describe() << "\n";
      std::exit(2);
    }
    return r.value();
  };
  replay::Replay a = golden("mode_sprint.srr");
  a.racers[0].result.stats.lines += 1;
  out.push_back({"tampered-1-lines", a});
  replay::Replay b = golden("mode_marathon.srr");
  auto& inputs = b.racers[0].inputs;
  for (std::size_t j = inputs.size() / 2; j < inputs.size(); ++j) inputs[j].time_us += 1000;  // one ms later
  b.racers[0].result.stats.time_us += 1000;
  out.push_back({"tampered-2-input-time", b});
  replay::Replay c = golden("race_sprint.srr");
  c.racers.back().handling.das_us += 1000;
  out.push_back({"tampered-3-das", c});
  replay::Replay d = games.at(20).replay;
  d.racers[0].result.final_hash ^= 0x100;
  out.push_back({"tampered-4-final-hash", d});
  replay::Replay e = games.at(57).replay;
  e.seed += 1;
  out.push_back({"tampered-5-seed", e});
  return out;
}

void write_file(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::cerr << "wasm_corpus: cannot write " << path << "\n";
    std::exit(2);
  }
}

std::vector<std::uint8_t> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::cerr << "usage: wasm_corpus OUT_DIR DATA_DIR [GAMES]\n";
    return 2;
  }
  const fs::path out_dir = argv[1];
  const fs::path data_dir = argv[2];
  const int count = argc == 4 ? std::atoi(argv[3]) : 200;
  if (count < 60) {
    std::cerr << "wasm_corpus: GAMES must be at least 60 (the tampered files use games 20 and 57)\n";
    return 2;
  }
  fs::remove_all(out_dir);
  fs::create_directories(out_dir);

  std::vector<Game> games;
  std::int64_t changes = 0, pieces = 0;
  for (int i = 0; i < count; ++i) {
    games.push_back(bot_game(i));
    const replay::VerifyReport report = replay::verify(games.back().replay);
    if (report.verdict != replay::Verdict::kVerified) {
      std::cerr << "wasm_corpus: " << games.back().name << " does not verify: " << report.message << "\n";
      return 1;
    }
    for (const replay::Racer& racer : games.back().replay.racers) {
      changes += static_cast<std::int64_t>(racer.inputs.size());
      pieces += racer.result.stats.pieces;
    }
  }

  // Every file, with the flags its digest is computed with (JSON: record missing results, as `import` does).
  std::vector<std::pair<fs::path, int>> files;
  for (const fs::path& dir : {data_dir, data_dir / "current"}) {
    std::vector<fs::path> found;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".srr" || e.path().extension() == ".json") found.push_back(e.path());
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& p : found) files.emplace_back(p, p.extension() == ".json" ? 1 : 0);
  }
  const std::size_t goldens = files.size();
  for (const Game& g : games) {
    const fs::path p = out_dir / (g.name + ".srr");
    write_file(p, replay::encode_binary(g.replay));
    files.emplace_back(p, 0);
  }

  std::ofstream tampered_list(out_dir / "tampered.txt");
  const std::vector<Game> bad = tampered(games, data_dir);
  for (const Game& g : bad) {
    const fs::path p = out_dir / (g.name + ".srr");
    const std::vector<std::uint8_t> bytes = replay::encode_binary(g.replay);
    write_file(p, bytes);
    files.emplace_back(p, 0);
    const std::int32_t verdict = sr_verify(bytes.data(), static_cast<std::uint32_t>(bytes.size()), 0);
    if (verdict != static_cast<std::int32_t>(replay::Verdict::kMismatch)) {
      std::cerr << "wasm_corpus: " << g.name << " is not a mismatch natively (" << verdict << "): " << sr_message()
                << "\n";
      return 1;
    }
    tampered_list << p.string() << '\t' << verdict << '\t' << sr_message() << '\n';
  }

  std::ofstream native(out_dir / "native.txt");
  for (const auto& [path, flags] : files) {
    const std::vector<std::uint8_t> bytes = read_file(path);
    native << "=== " << path.string() << '\t' << flags << '\n'
           << sr_digest(bytes.data(), static_cast<std::uint32_t>(bytes.size()), flags);
  }
  if (!native || !tampered_list) {
    std::cerr << "wasm_corpus: cannot write into " << out_dir << "\n";
    return 2;
  }
  std::cout << "wasm_corpus: " << count << " bot games (" << changes << " changes, " << pieces << " pieces, every "
            << "mode under every rotation system), " << goldens << " golden files, " << bad.size()
            << " tampered files: digests in " << (out_dir / "native.txt").string() << "\n";
  return 0;
}
