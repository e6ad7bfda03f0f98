#include "bot/replay_out.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "bot/external_runner.h"
#include "common/bot/weights.h"
#include "common/replay/verify.h"
#include "replays/store/file_io.h"

namespace sr::botcli {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed afterwards.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("stackrace-bot-test-" + std::to_string(::getpid()) + "-" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

SoloOptions ultra_options(std::int64_t games) {
  SoloOptions o;
  o.config = engine::make_ultra(15);
  o.first_seed = 21;
  o.games = games;
  o.settings.weights = *bot::weights_by_name("score");
  o.settings.pps_milli = 3000;
  o.weights_name = "score";
  return o;
}

TEST(ReplayOut, NamesOneFilePerGame) {
  TempDir dir;
  const auto many = ReplayOut::open((dir.path / "run.srr").string(), true);
  ASSERT_TRUE(many.ok()) << many.error();
  EXPECT_EQ(many.value().path_for(engine::make_sprint(), 7), (dir.path / "run-7.srr").string());
  const auto into_dir = ReplayOut::open(dir.path.string() + "/games/", true);
  ASSERT_TRUE(into_dir.ok()) << into_dir.error();
  EXPECT_EQ(into_dir.value().path_for(engine::make_sprint(), 7), (dir.path / "games" / "sprint-7.srr").string());
  const auto single = ReplayOut::open((dir.path / "one.srr").string(), false);
  ASSERT_TRUE(single.ok()) << single.error();
  EXPECT_EQ(single.value().path_for(engine::make_sprint(), 7), (dir.path / "one.srr").string());
  EXPECT_EQ(ReplayOut::open((dir.path / "missing" / "x.srr").string(), false).error(),
            "--out: directory " + (dir.path / "missing").string() + " does not exist");
}

TEST(ReplayOut, WrittenReplaysVerify) {
  TempDir dir;
  auto opened = ReplayOut::open(dir.path.string() + "/", true);
  ASSERT_TRUE(opened.ok()) << opened.error();
  SoloOptions o = ultra_options(2);
  std::ostringstream out, err;
  o.on_game = [&](const PlayedGame& g) { return opened.value().write(g, err); };
  ASSERT_EQ(run_solo(o, out), 0) << err.str();
  for (const std::uint64_t seed : {21u, 22u}) {
    const auto r = replay::load_replay_file(dir.path / ("ultra-" + std::to_string(seed) + ".srr"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r.value().seed, seed);
    EXPECT_EQ(replay::verify(r.value()).verdict, replay::Verdict::kVerified);
  }
}

TEST(ReplayOut, ExternalBotGamesVerifyIncludingAForfeit) {
  TempDir dir;
  auto opened = ReplayOut::open(dir.path.string() + "/", true);
  ASSERT_TRUE(opened.ok()) << opened.error();
  SoloOptions o = ultra_options(1);
  o.config = engine::make_sprint();
  std::ostringstream out, err;
  o.on_game = [&](const PlayedGame& g) { return opened.value().write(g, err); };
  const std::string script = std::string("python3 ") + STACKRACE_BOT_TEST_DIR + "/tbp_first_legal.py";
  ASSERT_EQ(run_external(o, ExternalOptions{script}, out, err), 0) << err.str();
  o.first_seed = 22;
  ASSERT_EQ(run_external(o, ExternalOptions{script + " --forfeit-after 6"}, out, err), 0) << err.str();
  for (const std::uint64_t seed : {21u, 22u}) {
    const auto r = replay::load_replay_file(dir.path / ("sprint-" + std::to_string(seed) + ".srr"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(replay::verify(r.value()).verdict, replay::Verdict::kVerified);
    EXPECT_EQ(r.value().racers[0].result.status,
              seed == 22 ? replay::ResultStatus::kForfeited : replay::ResultStatus::kToppedOut);
  }
}

}  // namespace
}  // namespace sr::botcli
