// stackrace-bot --external end to end: a scripted TBP bot (tbp_first_legal.py, which knows only the TBP spec) picks
// the placements, our input generation plays them, and the inputs alone must reproduce the game.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "bot/external_runner.h"
#include "common/bot/weights.h"

namespace sr::botcli {
namespace {

const std::string kScript = std::string("python3 ") + STACKRACE_BOT_TEST_DIR + "/tbp_first_legal.py";

struct Recorded {
  std::uint64_t seed = 0;
  std::vector<engine::InputChange> inputs;
  std::uint64_t hash = 0;
  engine::Stats stats;
  bool forfeited = false;
};

SoloOptions options_for(std::int64_t games, std::vector<Recorded>& out) {
  SoloOptions o;
  o.config = engine::make_sprint();
  o.first_seed = 11;
  o.games = games;
  o.settings.weights = *bot::weights_by_name("sprint");
  o.settings.pps_milli = 3000;
  o.weights_name = "external";
  o.on_game = [&out](const PlayedGame& g) {
    out.push_back(Recorded{g.seed, g.run->log(), g.run->game().state_hash(), g.run->game().stats(), g.forfeited});
    return true;
  };
  return o;
}

std::uint64_t replay_hash(const engine::GameConfig& config, const Recorded& r) {
  engine::Game g(config, r.seed);
  for (const auto& e : r.inputs) EXPECT_EQ(g.update(e.time_us, e.buttons).error, engine::UpdateError::kOk);
  (void)g.update(r.stats.time_us);
  return g.state_hash();
}

TEST(ExternalBot, ScriptedTbpBotPlaysAndTheLogReproducesTheGame) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(2, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, kScript, out, err), 0) << err.str();
  ASSERT_EQ(games.size(), 2u) << out.str() << err.str();
  for (const Recorded& r : games) {
    EXPECT_FALSE(r.forfeited);
    EXPECT_GT(r.stats.pieces, 15) << out.str();  // a drop-only bot still lasts a while
    EXPECT_EQ(replay_hash(o.config, r), r.hash);
  }
  EXPECT_NE(out.str().find("aggregate: mode=sprint"), std::string::npos);
  EXPECT_NE(err.str().find("first-legal"), std::string::npos);
}

TEST(ExternalBot, AnUnreachableSuggestionIsAForfeit) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(1, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, kScript + " --forfeit-after 5", out, err), 0) << err.str();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].forfeited);
  EXPECT_EQ(games[0].stats.pieces, 4);
  EXPECT_NE(out.str().find("result=forfeit"), std::string::npos);
}

TEST(ExternalBot, ABotThatDiesEndsTheRunWithAnError) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(1, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, kScript + " --die-after 3", out, err), 1);
  EXPECT_NE(err.str().find("ended its output"), std::string::npos) << err.str();
}

TEST(ExternalBot, AMissingProgramIsReported) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(1, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, "/nonexistent/tbp-bot", out, err), 1);
  EXPECT_NE(err.str().find("ended its output"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace sr::botcli
