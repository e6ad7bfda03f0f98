// The golden replays of tests/data: they pin the engine's behaviour under the current rules version
// (docs/ARCHITECTURE.md, "Rules versions"). A failure here after an engine change means: bump engine::kRulesVersion,
// or, while the rules are still settling, regenerate with `stackrace-replay make-goldens tests/data`
// (common/replay/FORMAT.md).
#include <gtest/gtest.h>

#include <set>

#include "common/replay/codec.h"
#include "common/replay/sample/goldens.h"
#include "common/replay/verify.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

std::vector<std::pair<std::string, Replay>> all_goldens() {
  std::vector<std::pair<std::string, Replay>> out;
  for (const auto& path : testing::golden_files()) {
    Result<Replay> r = decode_binary(testing::read_bytes(path));
    EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().describe());
    if (r.ok()) out.emplace_back(path.filename().string(), r.value());
  }
  return out;
}

TEST(Goldens, EveryGoldenDecodesReencodesIdenticallyAndVerifies) {
  const auto files = testing::golden_files();
  ASSERT_GE(files.size(), 12u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const auto bytes = testing::read_bytes(path);
    Result<Replay> r = decode_binary(bytes);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(encode_binary(r.value()), bytes);
    Result<Replay> via_json = decode_json(encode_json(r.value()));
    ASSERT_TRUE(via_json.ok()) << via_json.error().describe();
    EXPECT_EQ(via_json.value(), r.value());
    const VerifyReport report = verify(r.value());
    EXPECT_EQ(report.verdict, Verdict::kVerified) << report.message;
  }
}

TEST(Goldens, CoverEveryModeRotationSystemAndResult) {
  std::set<engine::ModeKind> modes;
  std::set<engine::RotationSystem> rotations;
  std::set<ResultStatus> statuses;
  bool hold_heavy = false, tspin = false, race = false;
  for (const auto& [file, r] : all_goldens()) {
    modes.insert(r.config.mode);
    rotations.insert(r.config.rotation);
    race = race || (r.racers.size() >= 2 && r.racers[0].handling != r.racers[1].handling);
    for (const Racer& racer : r.racers) {
      const engine::Stats& s = racer.result.stats;
      statuses.insert(racer.result.status);
      hold_heavy = hold_heavy || (s.pieces >= 20 && s.holds * 2 >= s.pieces);
      tspin = tspin || s.tspin_doubles + s.tspin_triples > 0;
    }
  }
  EXPECT_EQ(modes.size(), 7u);
  EXPECT_EQ(rotations.size(), 3u);
  EXPECT_EQ(statuses.size(), 4u);
  EXPECT_TRUE(hold_heavy);
  EXPECT_TRUE(tspin);
  EXPECT_TRUE(race);
}

TEST(Goldens, SprintGoldenMeetsTheSizeGoal) {
  for (const auto& [file, r] : all_goldens()) {
    if (r.config.mode != engine::ModeKind::kSprint || r.config.limit_value != 40) continue;
    const std::size_t bytes = encode_binary(r).size();
    EXPECT_LE(bytes, 1024 * r.racers.size()) << file;
  }
}

// The generator reproduces the files exactly: the set is one command away from being rebuilt, and an engine
// behaviour change shows up here too (together with the verify failures above).
TEST(Goldens, MakeGoldensReproducesTheFiles) {
  const sample::GoldenSet set = sample::make_goldens();
  EXPECT_TRUE(set.problems.empty()) << set.problems.front();
  for (const sample::Golden& g : set.goldens) {
    EXPECT_EQ(encode_binary(g.replay), testing::read_bytes(testing::data_dir() / g.file)) << g.file;
  }
}

}  // namespace
}  // namespace sr::replay
