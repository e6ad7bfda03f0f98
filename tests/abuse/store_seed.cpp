#include "tests/abuse/store_seed.h"

#include <fmt/format.h>

#include <cstdlib>

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
constexpr int kRacersPerGame = 4;

// The bot's game of `config` until it ends or locks `max_pieces`.
engine::RacerRun play(const engine::GameConfig& config, std::uint64_t seed, std::int64_t max_pieces) {
  bot::BotSettings settings;
  settings.chooser.lookahead = 0;  // cheap: only the replay's size and rows matter here
  bot::Bot bot(settings);
  engine::RacerRun run(config, seed);
  while (run.game().stats().pieces < max_pieces) {
    const auto step = bot.next(run.game());
    if (!step) break;
    (void)run.update(step->time_us, step->buttons);  // the bot's own steps are in time order with known buttons
  }
  return run;
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
  // attack needs; playing hundreds of games would only cost time.
  const engine::GameConfig sprint = engine::make_sprint(10);
  const engine::RacerRun small = play(sprint, plan.seed, 1'000);
  for (int g = 0; g < plan.games; ++g) {
    replay::Replay r = replay::replay_of(sprint, plan.seed, "stackrace-abuse", kFirstGameUnixMs + g * 60'000);
    for (int i = 0; i < kRacersPerGame; ++i) replay::add_racer(r, small, fmt::format("seed{}-{}", g, i));
    auto id = store.add(r);
    if (!id.ok()) return sr::fail(id.error().describe());
    if (g == 0) info.oldest_game_id = game_id_of(id.value());
    ++info.games;
  }

  // The big one: a long endless game, its racer repeated until the file is as large as asked.
  const engine::GameConfig endless = engine::make_endless();
  const engine::RacerRun long_game = play(endless, plan.seed + 1, 600);
  replay::Replay big = replay::replay_of(endless, plan.seed + 1, "stackrace-abuse",
                                         kFirstGameUnixMs + static_cast<std::int64_t>(plan.games) * 60'000);
  while (big.racers.size() < replay::kMaxReplayRacers) {
    replay::add_racer(big, long_game, fmt::format("long{}", big.racers.size()));
    info.big_bytes = static_cast<std::int64_t>(replay::encode_binary(big).size());
    if (info.big_bytes >= plan.big_bytes) break;
  }
  auto big_id = store.add(big);
  if (!big_id.ok()) return sr::fail(big_id.error().describe());
  info.big_game_id = game_id_of(big_id.value());
  ++info.games;
  if (info.oldest_game_id == 0) info.oldest_game_id = info.big_game_id;
  return info;
}

}  // namespace sr::abuse
