// A replay opened by a page (web/wasm/replay_session.h): either format, the verifier's own verdict and sentence.
#include "web/wasm/replay_session.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/verify.h"
#include "tests/replays/test_support.h"

namespace sr::web {
namespace {

namespace rt = replay::testing;

std::vector<std::uint8_t> bytes_of(const std::string& text) { return {text.begin(), text.end()}; }

std::unique_ptr<ReplaySession> open_ok(const std::vector<std::uint8_t>& bytes, replay::JsonOptions json = {}) {
  auto s = ReplaySession::open(bytes, json);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  return s.ok() ? std::move(s.value()) : nullptr;
}

std::string open_error(const std::vector<std::uint8_t>& bytes, replay::JsonOptions json = {}) {
  auto s = ReplaySession::open(bytes, json);
  EXPECT_FALSE(s.ok());
  return s.ok() ? "" : s.error();
}

TEST(ReplayFormat, JsonIsAnOpeningBraceAfterWhiteSpace) {
  EXPECT_EQ(format_of(bytes_of(" \t\r\n{}")), ReplayFormat::kJson);
  EXPECT_EQ(format_of(bytes_of("SRRP")), ReplayFormat::kBinary);
  EXPECT_EQ(format_of(bytes_of("  [")), ReplayFormat::kBinary);
  EXPECT_EQ(format_of({}), ReplayFormat::kBinary);
}

TEST(ReplaySession, OpensAndVerifiesABinaryGolden) {
  const auto s = open_ok(rt::read_bytes(rt::current_dir() / "mode_sprint.srr"));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->format(), ReplayFormat::kBinary);
  EXPECT_EQ(s->report().verdict, replay::Verdict::kVerified);
  EXPECT_EQ(s->report().message, "verified 1 racer");
  EXPECT_EQ(s->racer_count(), 1u);
  EXPECT_EQ(s->disagreement(0), nullptr);
  EXPECT_EQ(s->end_us(), s->replay().racers[0].result.stats.time_us);
}

TEST(ReplaySession, OpensTheJsonExportAsTheSameReplay) {
  const auto json = open_ok(rt::read_bytes(rt::current_dir() / "mode_sprint.json"));
  const auto binary = open_ok(rt::read_bytes(rt::current_dir() / "mode_sprint.srr"));
  ASSERT_NE(json, nullptr);
  ASSERT_NE(binary, nullptr);
  EXPECT_EQ(json->format(), ReplayFormat::kJson);
  EXPECT_EQ(json->replay(), binary->replay());
  EXPECT_EQ(json->report().verdict, replay::Verdict::kVerified);
}

TEST(ReplaySession, BytesThatDoNotDecodeGiveTheDecodersSentence) {
  const auto junk = bytes_of("hello, this is not a replay");
  EXPECT_EQ(open_error(junk), replay::decode_binary(junk).error().describe());
  EXPECT_EQ(open_error(junk), "at byte 0: not a stackrace replay (the file does not start with \"SRRP\")");
  EXPECT_EQ(open_error(bytes_of("{\"rules_version\": 1")),
            replay::decode_json("{\"rules_version\": 1").error().describe());
}

TEST(ReplaySession, AHandWrittenFileWithoutResultsNeedsRecordMissing) {
  const auto bytes = rt::read_bytes(rt::data_dir() / "handwritten_tspin.json");
  EXPECT_EQ(open_error(bytes),
            "racers[0].result: missing (stackrace-replay import records a missing result and checkpoints)");
  const auto s = open_ok(bytes, replay::JsonOptions{.record_missing = true});
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->report().verdict, replay::Verdict::kVerified);
  EXPECT_EQ(s->replay().racers[0].result.stats.lines, 2);
}

TEST(ReplaySession, ATamperedResultIsAMismatchWithTheVerifiersSentence) {
  auto r = replay::decode_binary(rt::read_bytes(rt::current_dir() / "mode_sprint.srr"));
  ASSERT_TRUE(r.ok());
  r.value().racers[0].result.stats.lines += 1;
  const auto s = open_ok(replay::encode_binary(r.value()));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->report().verdict, replay::Verdict::kMismatch);
  EXPECT_EQ(s->report().message, replay::verify(r.value()).message);
  const auto& st = r.value().racers[0].result.stats;
  EXPECT_EQ(s->report().message, "racer 0 \"sprinter\", piece " + std::to_string(st.pieces) + " at " +
                                     replay::format_time(st.time_us) + ": stats.lines differs (recorded " +
                                     std::to_string(st.lines) + ", replayed " + std::to_string(st.lines - 1) + ")");
  ASSERT_NE(s->disagreement(0), nullptr);
  EXPECT_EQ(s->disagreement(0)->field, "stats.lines");
}

TEST(ReplaySession, DisagreementsArePerRacer) {
  auto r = replay::decode_binary(rt::read_bytes(rt::current_dir() / "race_sprint.srr"));
  ASSERT_TRUE(r.ok());
  ASSERT_GE(r.value().racers.size(), 2u);
  r.value().racers[1].result.final_hash ^= 1;
  const auto s = open_ok(replay::encode_binary(r.value()));
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->disagreement(0), nullptr);
  ASSERT_NE(s->disagreement(1), nullptr);
  EXPECT_EQ(s->disagreement(1)->field, "final_hash");
  EXPECT_EQ(&s->cursor(1), &s->cursor(1));  // made once
}

}  // namespace
}  // namespace sr::web
