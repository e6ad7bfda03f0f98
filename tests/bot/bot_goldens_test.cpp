// Bot-played golden replays (tests/data/bot_*.srr): realistic human-like input logs in every timed mode. They must
// keep verifying with every engine change (docs/ARCHITECTURE.md, "Rules versions"). To remake them after a deliberate
// rules change, from the repo root with a build in build/release:
//   for m in sprint ultra marathon contest; do
//     build/release/bot/stackrace-bot --mode $m --seed 1 --out tests/data/bot_$m.srr; done
#include <gtest/gtest.h>

#include <string>

#include "common/replay/verify.h"
#include "replays/store/file_io.h"

namespace sr::replay {
namespace {

class BotGolden : public testing::TestWithParam<const char*> {};

TEST_P(BotGolden, Verifies) {
  const std::string path = std::string(STACKRACE_TEST_DATA) + "/bot_" + GetParam() + ".srr";
  const Result<Replay> r = load_replay_file(path);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Replay& replay = r.value();
  ASSERT_EQ(replay.racers.size(), 1u);
  EXPECT_EQ(replay.racers[0].name.rfind("stackrace-bot", 0), 0u);
  EXPECT_EQ(std::string(engine::mode_name(replay.config.mode)), GetParam());
  EXPECT_EQ(replay.racers[0].result.status, ResultStatus::kFinished);
  for (const engine::InputChange& in : replay.racers[0].inputs) EXPECT_EQ(in.time_us % 1000, 0);
  const VerifyReport report = verify(replay);
  EXPECT_EQ(report.verdict, Verdict::kVerified) << report.message;
}

INSTANTIATE_TEST_SUITE_P(Modes, BotGolden, testing::Values("sprint", "ultra", "marathon", "contest"));

}  // namespace
}  // namespace sr::replay
