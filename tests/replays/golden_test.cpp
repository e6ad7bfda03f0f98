// The golden replays: they pin the engine's behaviour under the current rules version (docs/ARCHITECTURE.md, "Rules
// versions") and the file format (common/replay/FORMAT.md, "Golden replays").
// - tests/data/current: the set as this build writes it. A failure here after an engine change means: bump
//   engine::kRulesVersion, or, while the rules are still settling, regenerate with
//   `stackrace-replay make-goldens tests/data/current`.
// - tests/data/*.srr: files written before RacerResult class version 2, kept byte for byte as compatibility fixtures
//   (never regenerated): old files must keep decoding and verifying.
// - tests/data/before_keys: the current set as it was written before Racer class version 2 (no racer keys), kept the
//   same way.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "common/replay/codec.h"
#include "common/replay/sample/goldens.h"
#include "common/replay/verify.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

std::vector<std::pair<std::string, Replay>> all_goldens(const std::filesystem::path& dir) {
  std::vector<std::pair<std::string, Replay>> out;
  for (const auto& path : testing::golden_files(dir)) {
    Result<Replay> r = decode_binary(testing::read_bytes(path));
    EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().describe());
    if (r.ok()) out.emplace_back(path.filename().string(), r.value());
  }
  return out;
}

TEST(Goldens, EveryCurrentGoldenDecodesReencodesIdenticallyAndVerifies) {
  const auto files = testing::golden_files(testing::current_dir());
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

// This build writes RacerResult class version 2, so a version 1 file does not re-encode to its own bytes. What must
// hold instead: it decodes as a clean run (the version 2 numbers 0), it verifies, its re-encoding is stable (decode,
// encode, decode gives the same replay, and encoding that gives the same bytes again), and the re-encoding differs
// from the file only by what version 2 added: one byte per racer for each of the two numbers (0 is one varint byte),
// and one for Racer version 2's key flag (no key).
TEST(Goldens, ClassVersion1FilesDecodeVerifyAndReencodeStably) {
  const auto files = testing::golden_files();
  ASSERT_GE(files.size(), 16u);  // the 12 of the first golden set and the 4 bot goldens
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const auto bytes = testing::read_bytes(path);
    Result<Replay> r = decode_binary(bytes);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    for (const Racer& racer : r.value().racers) {
      EXPECT_EQ(racer.result.unverified_us, 0) << racer.name;
      EXPECT_EQ(racer.result.reconnects, 0u) << racer.name;
      EXPECT_FALSE(racer.key.has_value()) << racer.name;
    }
    const std::vector<std::uint8_t> reencoded = encode_binary(r.value());
    EXPECT_EQ(reencoded.size(), bytes.size() + 3 * r.value().racers.size());
    Result<Replay> back = decode_binary(reencoded);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(back.value(), r.value());
    EXPECT_EQ(encode_binary(back.value()), reencoded);
    Result<Replay> via_json = decode_json(encode_json(r.value()));
    ASSERT_TRUE(via_json.ok()) << via_json.error().describe();
    EXPECT_EQ(via_json.value(), r.value());
    const VerifyReport report = verify(r.value());
    EXPECT_EQ(report.verdict, Verdict::kVerified) << report.message;
  }
}

// The set written before Racer class version 2 holds the same games as tests/data/current under the same rules, and
// nobody's key: re-encoded by this build (a key flag 0 after each racer's checkpoints, Racer's class version 2 in
// front of the first racer), each file is exactly its current copy, byte for byte. Its JSON reads too.
TEST(Goldens, FilesWrittenBeforeRacerKeysReadWithoutKeysAndReencodeToTheCurrentBytes) {
  const auto files = testing::golden_files(testing::data_dir() / "before_keys");
  ASSERT_EQ(files.size(), testing::golden_files(testing::current_dir()).size());
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const auto bytes = testing::read_bytes(path);
    Result<Replay> r = decode_binary(bytes);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    for (const Racer& racer : r.value().racers) EXPECT_FALSE(racer.key.has_value()) << racer.name;
    const std::vector<std::uint8_t> reencoded = encode_binary(r.value());
    EXPECT_EQ(reencoded.size(), bytes.size() + r.value().racers.size());
    ASSERT_EQ(r.value().rules_version, engine::kRulesVersion) << "after a rules change, compare only what is above";
    EXPECT_EQ(reencoded, testing::read_bytes(testing::current_dir() / path.filename()));
    const VerifyReport report = verify(r.value());
    EXPECT_EQ(report.verdict, Verdict::kVerified) << report.message;
  }
  const std::vector<std::uint8_t> json_bytes =
      testing::read_bytes(testing::data_dir() / "before_keys" / "mode_sprint.json");
  const std::string old_json(json_bytes.begin(), json_bytes.end());
  ASSERT_NE(old_json.find("\"cereal_class_version\": 1,\n   \"name\""), std::string::npos)
      << "the racer object of the JSON fixture is class version 1";
  Result<Replay> from_json = decode_json(old_json);
  ASSERT_TRUE(from_json.ok()) << from_json.error().describe();
  Result<Replay> current = decode_binary(testing::read_bytes(testing::current_dir() / "mode_sprint.srr"));
  ASSERT_TRUE(current.ok());
  EXPECT_EQ(from_json.value(), current.value());
}

// The first golden set was made by the same scripted players as tests/data/current, under the same rules: each
// version 1 file must decode to exactly the replay its current copy holds, field by field. This compares games made
// under one rules version (asserted): after a deliberate rules change remakes tests/data/current, the version 1 files
// hold the old rules' games and keep only the checks above.
TEST(Goldens, ClassVersion1GoldensHoldTheSameGamesAsTheCurrentOnes) {
  // Goldens added after the version 1 set have no version 1 copy.
  const std::set<std::string> kNewer = {"rotation_ocular.srr"};
  const auto current = all_goldens(testing::current_dir());
  ASSERT_GE(current.size(), 12u);
  for (const auto& [file, replay] : current) {
    SCOPED_TRACE(file);
    if (kNewer.count(file) != 0) {
      EXPECT_FALSE(std::filesystem::exists(testing::data_dir() / file)) << "a version 1 copy exists: compare it";
      continue;
    }
    Result<Replay> old = decode_binary(testing::read_bytes(testing::data_dir() / file));
    ASSERT_TRUE(old.ok()) << old.error().describe();
    ASSERT_EQ(old.value().rules_version, replay.rules_version) << "see the comment above this test";
    EXPECT_EQ(old.value(), replay);
  }
}

TEST(Goldens, CoverEveryModeRotationSystemAndResult) {
  std::set<engine::ModeKind> modes;
  std::set<engine::RotationSystem> rotations;
  std::set<ResultStatus> statuses;
  bool hold_heavy = false, tspin = false, race = false;
  for (const auto& [file, r] : all_goldens(testing::current_dir())) {
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
  EXPECT_EQ(rotations.size(), 4u);
  EXPECT_EQ(statuses.size(), 4u);
  EXPECT_TRUE(hold_heavy);
  EXPECT_TRUE(tspin);
  EXPECT_TRUE(race);
}

TEST(Goldens, SprintGoldenMeetsTheSizeGoal) {
  for (const auto& [file, r] : all_goldens(testing::current_dir())) {
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
  EXPECT_EQ(set.goldens.size(), testing::golden_files(testing::current_dir()).size());
  for (const sample::Golden& g : set.goldens) {
    EXPECT_EQ(encode_binary(g.replay), testing::read_bytes(testing::current_dir() / g.file)) << g.file;
    if (g.file == sample::kJsonGolden) {
      const std::string json = encode_json(g.replay);
      const std::filesystem::path path = (testing::current_dir() / g.file).replace_extension(".json");
      EXPECT_EQ(std::vector<std::uint8_t>(json.begin(), json.end()), testing::read_bytes(path)) << path;
    }
  }
}

}  // namespace
}  // namespace sr::replay
