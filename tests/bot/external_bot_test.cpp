// stackrace-bot --external end to end: a scripted TBP bot (tbp_first_legal.py, which knows only the TBP spec) picks
// the placements, our input generation plays them, and the inputs alone must reproduce the game.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bot/external_runner.h"
#include "common/bot/weights.h"
#include "tests/bot/bot_test_support.h"

namespace sr::botcli {
namespace {

const std::string kScript = std::string("python3 ") + STACKRACE_BOT_TEST_DIR + "/tbp_first_legal.py";
// Asks for tucks, spins and far placements it proved reachable (tbp_tricky.py), and checks what it is told.
const std::string kTricky = std::string("python3 ") + STACKRACE_BOT_TEST_DIR + "/tbp_tricky.py";

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

// tbp_tricky.py appending its summary line ("tricky-bot: name=value ...") to a fresh file, since the bot's
// standard error is ours. The file is this process's and this test's own: ctest runs the tests of this suite side by
// side, and with one shared name a test read (or removed) another's summary, failing
// HardMovesAtTwentyGAndAtHighLevelsAreNeverForfeited in CI.
std::string report_path_for_this_test() {
  return testing::TempDir() + "stackrace_tricky_report_" + std::to_string(::getpid()) + "_" +
         testing::UnitTest::GetInstance()->current_test_info()->name() + ".txt";
}

struct TrickyReport {
  std::string path = report_path_for_this_test();
  TrickyReport() { std::remove(path.c_str()); }
  ~TrickyReport() { std::remove(path.c_str()); }
  [[nodiscard]] std::string command(const std::string& extra = "") const {
    return kTricky + " --report " + path + extra;
  }
  [[nodiscard]] std::string text() const {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  // A number from the last summary line, or -1.
  [[nodiscard]] long stat(const std::string& name) const {
    const std::string t = text();
    const auto line = t.rfind("tricky-bot: ");
    if (line == std::string::npos) return -1;
    const auto at = t.find(" " + name + "=", line);
    if (at == std::string::npos) return -1;
    return std::stol(t.substr(at + name.size() + 2));
  }
};

// A short game: `pieces` pieces, then it is over.
engine::GameConfig pieces_game(engine::GameConfig c, std::int64_t pieces) {
  c.limit = engine::LimitKind::kPieces;
  c.limit_value = pieces;
  return c;
}

TEST(ExternalBot, HardMovesAtTwentyGAndAtHighLevelsAreNeverForfeited) {
  // 20G, and the fastest marathon levels: where the planner used to forfeit reachable moves (issue 17). The
  // benchmark script tests/bench/bot/tbp_reach.sh plays 100 marathon games the same way.
  engine::GameConfig marathon = engine::make_marathon();
  marathon.start_level = 13;
  for (const engine::GameConfig& config : {pieces_game(engine::make_master(), 120), marathon}) {
    std::vector<Recorded> games;
    SoloOptions o = options_for(2, games);
    o.config = config;
    std::ostringstream out, err;
    const TrickyReport report;
    EXPECT_EQ(run_external(o, ExternalOptions{report.command()}, out, err), 0) << err.str();
    ASSERT_EQ(games.size(), 2u) << out.str() << err.str();
    for (const Recorded& r : games) {
      EXPECT_FALSE(r.forfeited) << out.str() << err.str();
      EXPECT_EQ(replay_hash(o.config, r), r.hash);
    }
    EXPECT_EQ(report.stat("played_other"), 0) << report.text();  // the first reachable move, after decoys
    EXPECT_EQ(report.stat("wrong_spin"), 0) << report.text();
    EXPECT_GT(report.stat("hard"), 20) << report.text();
    EXPECT_GT(report.stat("far"), 20) << report.text();
    EXPECT_GT(report.stat("decoys"), 20) << report.text();
    // The randomizer extension: every new piece came out of the 7-bag the start message described.
    EXPECT_GT(report.stat("bag_checked"), 100) << report.text();
    EXPECT_EQ(report.stat("bag_errors"), 0) << report.text();
    EXPECT_NE(out.str().find("planning: moves="), std::string::npos) << out.str();
  }
}

TEST(ExternalBot, ThePlayMessageReportsTheSpinAsPlayed) {
  // A T-spin double slot and a T to fill it: the tricky bot asks for the spin, and must be told it happened.
  std::vector<Recorded> games;
  SoloOptions o = options_for(1, games);
  o.config = pieces_game(bot::test::config_with({"..........", "...#......", "###...####", "####.#####"},
                                                {engine::Piece::kT, engine::Piece::kI, engine::Piece::kO}),
                         3);
  o.config.gravity = engine::Gravity::k20G;
  std::ostringstream out, err;
  const TrickyReport report;
  EXPECT_EQ(run_external(o, ExternalOptions{report.command()}, out, err), 0) << err.str();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].forfeited);
  EXPECT_EQ(report.stat("spins"), 1) << report.text();
  EXPECT_EQ(report.stat("spins_played"), 1) << report.text();
  EXPECT_EQ(report.stat("wrong_spin"), 0) << report.text();
  EXPECT_GE(games[0].stats.lines, 2);
}

TEST(ExternalBot, OnlyMovesThatCannotBeReachedAreAForfeitAndTheyAreNamed) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(1, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, ExternalOptions{kTricky + " --decoys-only-after 4"}, out, err), 0) << err.str();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].forfeited);
  EXPECT_EQ(games[0].stats.pieces, 3);
  EXPECT_NE(err.str().find("seed 11 piece 4 at "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("none of its 1 moves can be reached: "), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("-north@(4,30)"), std::string::npos) << err.str();
}

TEST(ExternalBot, ThinkingTimeLetsABotSearchBeforeItIsAsked) {
  // The tricky bot answers with no moves when asked less than 300 ms after the position changed.
  for (const int think_ms : {0, 400}) {
    std::vector<Recorded> games;
    SoloOptions o = options_for(1, games);
    o.config = pieces_game(engine::make_sprint(), 3);
    std::ostringstream out, err;
    const TrickyReport report;
    EXPECT_EQ(run_external(o, ExternalOptions{report.command(" --think-ms 300"), think_ms}, out, err), 0) << err.str();
    ASSERT_EQ(games.size(), 1u);
    if (think_ms == 0) {
      EXPECT_TRUE(games[0].forfeited);
      EXPECT_NE(err.str().find("none of its 0 moves can be reached: (no moves)"), std::string::npos) << err.str();
    } else {
      EXPECT_FALSE(games[0].forfeited) << err.str();
      EXPECT_EQ(games[0].stats.pieces, 3);
      EXPECT_EQ(report.stat("empty"), 0) << report.text();
    }
  }
}

TEST(ExternalBot, ASlowAnswerLosesItsGameAndTheBatchGoesOn) {
  const std::string marker = testing::TempDir() + "stackrace_tbp_slow_once";
  std::remove(marker.c_str());
  std::vector<Recorded> games;
  SoloOptions o = options_for(3, games);
  o.config = pieces_game(engine::make_sprint(), 6);
  std::ostringstream out, err;
  // The first bot process answers its 3rd suggest 1.5 s late; the restarted one is quick.
  const ExternalOptions slow{kTricky + " --slow-once " + marker, 0, 500};
  EXPECT_EQ(run_external(o, slow, out, err), 0) << err.str();
  std::remove(marker.c_str());
  ASSERT_EQ(games.size(), 3u) << out.str() << err.str();
  EXPECT_TRUE(games[0].forfeited);
  EXPECT_EQ(games[0].stats.pieces, 2);
  EXPECT_FALSE(games[1].forfeited);
  EXPECT_FALSE(games[2].forfeited);
  EXPECT_EQ(games[2].stats.pieces, 6);
  EXPECT_NE(out.str().find("seed=11 result=slow-answer"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("forfeits=1 (slow_answers=1)"), std::string::npos) << out.str();
  EXPECT_NE(err.str().find("seed 11 piece 3: the external bot did not answer suggest within 500 ms"), std::string::npos)
      << err.str();
}

TEST(ExternalBot, ScriptedTbpBotPlaysAndTheLogReproducesTheGame) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(2, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, ExternalOptions{kScript}, out, err), 0) << err.str();
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
  EXPECT_EQ(run_external(o, ExternalOptions{kScript + " --forfeit-after 5"}, out, err), 0) << err.str();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].forfeited);
  EXPECT_EQ(games[0].stats.pieces, 4);
  EXPECT_NE(out.str().find("result=forfeit"), std::string::npos);
}

TEST(ExternalBot, ABotThatDiesEndsTheRunWithAnError) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(1, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, ExternalOptions{kScript + " --die-after 3"}, out, err), 1);
  EXPECT_NE(err.str().find("ended its output"), std::string::npos) << err.str();
}

TEST(ExternalBot, AMissingProgramIsReported) {
  std::vector<Recorded> games;
  const SoloOptions o = options_for(1, games);
  std::ostringstream out, err;
  EXPECT_EQ(run_external(o, ExternalOptions{"/nonexistent/tbp-bot"}, out, err), 1);
  EXPECT_NE(err.str().find("ended its output"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace sr::botcli
