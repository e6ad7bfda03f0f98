#include "tests/abuse/store_seed.h"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>

#include "common/bot/bot.h"
#include "common/engine/config.h"
#include "common/engine/racer_run.h"
#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "replays/store/replay_store.h"

namespace sr::abuse {
namespace {

// The store's dates: the small games a minute apart from this moment on, the big one newest.
constexpr std::int64_t kFirstGameUnixMs = 1'767'225'600'000;  // 2026-01-01
constexpr int kRacersPerGame = 2;

// The bot's game of `config` until it ends or locks `max_pieces`.
engine::RacerRun play(const engine::GameConfig& config, std::uint64_t seed, std::int64_t max_pieces) {
  bot::BotSettings settings;
  settings.chooser.lookahead = 0;  // cheap: only the replay's size and rows matter here
  settings.chooser.tucks = false;
  bot::Bot bot(settings);
  engine::RacerRun run(config, seed);
  while (run.game().stats().pieces < max_pieces) {
    const auto step = bot.next(run.game());
    if (!step) break;
    (void)run.update(step->time_us, step->buttons);  // the bot's own steps are in time order with known buttons
  }
  return run;
}

// Writes the replay as <id>.srr in `dir`, its id a hash of its bytes as the store's are; returns the id.
sr::Result<std::uint64_t, std::string> write_replay(const std::filesystem::path& dir, const replay::Replay& r) {
  const std::vector<std::uint8_t> bytes = replay::encode_binary(r);
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (std::uint8_t b : bytes) hash = (hash ^ b) * 1099511628211ull;
  const auto path = dir / (fmt::format("{:016x}", hash) + replay::ReplayStore::kExtension);
  std::ofstream file(path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!file) return sr::fail("cannot write " + path.string());
  return hash;
}

}  // namespace

std::uint64_t game_id_of(const std::string& store_id) {
  if (store_id.empty() || store_id.size() > 16) return 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(store_id.c_str(), &end, 16);
  return end != nullptr && *end == '\0' ? static_cast<std::uint64_t>(v) : 0;
}

sr::Result<SeedInfo, std::string> seed_store(const std::filesystem::path& dir, const SeedPlan& plan) {
  auto opened = replay::ReplayStore::open(dir, true);
  if (!opened.ok()) return sr::fail(opened.error().describe());
  replay::ReplayStore store = std::move(opened).value();
  SeedInfo info;

  // One sprint game stands for every small one: each is a new file (its date differs), which is all the list
  // attack needs; playing hundreds of games would only cost time. The files are written first and indexed in one
  // transaction (reindex): adding them one by one commits to disk each time, seconds for nothing here.
  const engine::GameConfig sprint = engine::make_sprint(10);
  const engine::RacerRun small = play(sprint, plan.seed, 1'000);
  for (int g = 0; g < plan.games; ++g) {
    replay::Replay r = replay::replay_of(sprint, plan.seed, "stackrace-abuse", kFirstGameUnixMs + g * 60'000);
    replay::add_racer(r, small, fmt::format("seed{}-0", g));
    // The other racers played the same game: copies under their own names (recording each again would cost time).
    for (int i = 1; i < kRacersPerGame; ++i) {
      r.racers.push_back(r.racers.front());
      r.racers.back().name = fmt::format("seed{}-{}", g, i);
    }
    auto id = write_replay(dir, r);
    if (!id) return sr::fail(id.error());
    if (g == 0) info.oldest_game_id = id.value();
  }
  auto indexed = store.reindex();
  if (!indexed.ok()) return sr::fail(indexed.error().describe());
  info.games = static_cast<int>(indexed.value().indexed);

  // The big one: a long endless game, its racer repeated until the file is as large as asked. Written after the
  // index was built and never indexed (so never listed): the server sends any <id>.srr of its store directory, and
  // indexing would verify every racer again, seconds under the sanitizers for nothing the attacks need.
  const engine::GameConfig endless = engine::make_endless();
  const engine::RacerRun long_game = play(endless, plan.seed + 1, 600);
  replay::Replay big = replay::replay_of(endless, plan.seed + 1, "stackrace-abuse",
                                         kFirstGameUnixMs + static_cast<std::int64_t>(plan.games) * 60'000);
  replay::add_racer(big, long_game, "long0");
  while (big.racers.size() < replay::kMaxReplayRacers) {
    big.racers.push_back(big.racers.front());
    big.racers.back().name = fmt::format("long{}", big.racers.size() - 1);
    info.big_bytes = static_cast<std::int64_t>(replay::encode_binary(big).size());
    if (info.big_bytes >= plan.big_bytes) break;
  }
  auto big_id = write_replay(dir, big);
  if (!big_id) return sr::fail(big_id.error());
  info.big_game_id = big_id.value();
  return info;
}

}  // namespace sr::abuse
