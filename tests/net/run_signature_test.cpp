#include "net/identity/run_signature.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "common/replay/codec.h"
#include "net/identity/submission.h"
#include "tests/support/test_keys.h"

namespace sr::net {
namespace {

replay::Replay golden_race() {
  std::ifstream in(std::string(STACKRACE_TEST_DATA) + "/race_sprint.srr", std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto decoded = replay::decode_binary(bytes);
  EXPECT_TRUE(decoded.ok());
  return decoded.value();
}

// The layout's fixed part, byte for byte: magic, run format 1, Cereal's little-endian byte, then the rules version.
TEST(RunBytes, StartWithTheMagicTheRunFormatAndTheRulesVersion) {
  const replay::Replay race = golden_race();
  const auto bytes = replay::encode_run_binary(7, replay::racer_config(race, 0), race.seed, race.racers[0].inputs);
  ASSERT_GT(bytes.size(), 11u);
  const std::vector<std::uint8_t> head(bytes.begin(), bytes.begin() + 11);
  EXPECT_EQ(head, (std::vector<std::uint8_t>{'S', 'R', 'R', 'N', 1, 0,  // magic, run format 1 (uint16 LE)
                                             1,                         // Cereal: little-endian
                                             7, 0, 0, 0}));             // rules version 7 (uint32 LE)
}

// A signed run stays signed: the digest of the golden race's first racer may never change, or every signature made
// by an older game would stop verifying (RECORDS.md: a layout change bumps the run format version).
TEST(RunDigest, OfTheGoldenRaceIsStable) {
  const replay::Replay race = golden_race();
  EXPECT_EQ(to_hex(run_digest(race, 0)),
            to_hex(run_digest(race.rules_version, replay::racer_config(race, 0), race.seed, race.racers[0].inputs)));
  EXPECT_EQ(to_hex(run_digest(race, 0)), "1cdb1d2101a2041e759de03645914c3c49fb4c7a43d3faa820dbe5999512a91c");
}

TEST(RunDigest, ChangesWithEveryPartOfTheRun) {
  const replay::Replay race = golden_race();
  const RunDigest base = run_digest(race, 0);
  replay::Replay other = race;
  other.seed += 1;
  EXPECT_NE(run_digest(other, 0), base) << "seed";
  other = race;
  other.rules_version += 1;
  EXPECT_NE(run_digest(other, 0), base) << "rules version";
  other = race;
  other.racers[0].handling.das_us += 1000;
  EXPECT_NE(run_digest(other, 0), base) << "handling";
  other = race;
  other.racers[0].inputs.back().time_us += 1000;
  EXPECT_NE(run_digest(other, 0), base) << "the last input's time";
  other = race;
  other.config.limit_value -= 1;
  EXPECT_NE(run_digest(other, 0), base) << "the mode's limit";
  // What the server decides after the race is not part of the run.
  other = race;
  other.racers[0].name = "someone else";
  other.racers[0].result.stats.time_us += 1;
  other.created_unix_ms += 1;
  other.place = "elsewhere";
  EXPECT_EQ(run_digest(other, 0), base) << "name, result, time and place";
}

TEST(RunSignature, VerifiesForItsKeyAndRunOnly) {
  const replay::Replay race = golden_race();
  const PlayerKey ada = test::test_key("ada");
  const PlayerKey bo = test::test_key("bo");
  const RunDigest digest = run_digest(race, 0);
  const Signature sig = sign_run(ada, digest);
  EXPECT_TRUE(verify_run(ada.public_key(), digest, sig));
  EXPECT_FALSE(verify_run(bo.public_key(), digest, sig)) << "another key";
  EXPECT_FALSE(verify_run(ada.public_key(), run_digest(race, 1), sig)) << "another racer's run";
  // A signature of the bare digest (as if some other message of ours had been signed) is no run signature.
  EXPECT_FALSE(verify_run(ada.public_key(), digest, ada.sign(digest)));
  Signature flipped = sig;
  flipped[10] ^= 1;
  EXPECT_FALSE(verify_run(ada.public_key(), digest, flipped));
}

}  // namespace
}  // namespace sr::net
