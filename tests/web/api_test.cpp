// The C functions JavaScript calls (web/wasm/api.h), called natively: handles, bad arguments, texts.
#include "web/wasm/api.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/replay/codec.h"
#include "tests/replays/test_support.h"
#include "web/wasm/digest.h"

namespace {

namespace rt = sr::replay::testing;

std::vector<std::uint8_t> golden(const char* name) { return rt::read_bytes(rt::current_dir() / name); }

std::int32_t open(const std::vector<std::uint8_t>& bytes, std::int32_t flags = 0) {
  return sr_open(bytes.data(), static_cast<std::uint32_t>(bytes.size()), flags);
}

TEST(WebApi, OpenGivesFreshHandlesAndCloseForgetsThem) {
  const auto bytes = golden("mode_sprint.srr");
  const std::int32_t a = open(bytes);
  ASSERT_GT(a, 0);
  EXPECT_STREQ(sr_message(), "verified 1 racer");
  const std::int32_t b = open(bytes);
  EXPECT_GT(b, a);
  sr_close(a);
  EXPECT_STREQ(sr_summary(a), "");
  EXPECT_EQ(sr_seek_time(a, 0, 0), 0);
  const std::int32_t c = open(bytes);
  EXPECT_GT(c, b);  // never reused
  EXPECT_NE(std::string(sr_summary(b)).find(R"("verdict":"verified")"), std::string::npos);
  sr_close(b);
  sr_close(c);
  sr_close(c);   // twice: ignored
  sr_close(-7);  // never opened: ignored
}

TEST(WebApi, BytesThatDoNotDecodeGiveZeroAndTheDecodersSentence) {
  const std::string junk = "not a replay";
  EXPECT_EQ(sr_open(reinterpret_cast<const std::uint8_t*>(junk.data()), static_cast<std::uint32_t>(junk.size()), 0), 0);
  EXPECT_STREQ(sr_message(), "at byte 0: not a stackrace replay (the file does not start with \"SRRP\")");
  EXPECT_EQ(sr_open(nullptr, 0, 0), 0);
  EXPECT_STREQ(sr_message(), "at byte 0: a replay file is at least 7 bytes, this input has 0");
}

TEST(WebApi, VerifyGivesTheVerdictNumber) {
  auto bytes = golden("mode_ultra.srr");
  EXPECT_EQ(sr_verify(bytes.data(), static_cast<std::uint32_t>(bytes.size()), 0), 0);
  EXPECT_STREQ(sr_message(), "verified 1 racer");
  auto r = sr::replay::decode_binary(bytes);
  ASSERT_TRUE(r.ok());
  r.value().racers[0].result.stats.score += 1;
  const auto tampered = sr::replay::encode_binary(r.value());
  EXPECT_EQ(sr_verify(tampered.data(), static_cast<std::uint32_t>(tampered.size()), 0), 1);
  EXPECT_NE(std::string(sr_message()).find("stats.score differs"), std::string::npos) << sr_message();
  r.value().rules_version = 99;
  const auto future = sr::replay::encode_binary(r.value());
  EXPECT_EQ(sr_verify(future.data(), static_cast<std::uint32_t>(future.size()), 0), 2);
  EXPECT_STREQ(sr_message(), "made with rules v99, this build plays up to v1");
  EXPECT_EQ(sr_verify(bytes.data(), 3, 0), -1);
}

TEST(WebApi, JsonFlagRecordsMissingResults) {
  const auto bytes = rt::read_bytes(rt::data_dir() / "handwritten_tspin.json");
  EXPECT_EQ(open(bytes, 0), 0);
  EXPECT_STREQ(sr_message(),
               "racers[0].result: missing (stackrace-replay import records a missing result and checkpoints)");
  const std::int32_t h = open(bytes, 1);
  ASSERT_GT(h, 0);
  EXPECT_DOUBLE_EQ(sr_end_us(h, 0), 500000.0);
  EXPECT_DOUBLE_EQ(sr_replay_end_us(h), 500000.0);
  sr_close(h);
}

TEST(WebApi, SeeksAndStepsReportWhetherTheyMoved) {
  const std::int32_t h = open(golden("tspin.srr"));
  ASSERT_GT(h, 0);
  EXPECT_EQ(sr_step_piece(h, 0, -1), 0);  // at the start
  EXPECT_EQ(sr_step_piece(h, 0, 1), 1);
  const std::int32_t at_lock = sr_changes(h, 0);
  EXPECT_GT(at_lock, 0);
  EXPECT_EQ(sr_step_change(h, 0, 1), 1);
  EXPECT_EQ(sr_changes(h, 0), at_lock + 1);
  EXPECT_EQ(sr_seek_change(h, 0, 0), 1);
  EXPECT_EQ(sr_time_us(h, 0), 0.0);
  EXPECT_EQ(sr_seek_change(h, 0, -1), 0);
  EXPECT_EQ(sr_seek_piece(h, 0, 1'000'000), 0);
  EXPECT_EQ(sr_step_change(h, 0, 0), 0);
  EXPECT_EQ(sr_seek_time(h, 0, 1.5e6), 1);
  EXPECT_EQ(sr_time_us(h, 0), std::min(1.5e6, sr_end_us(h, 0)));
  // Times from JavaScript: NaN and negatives are the start, huge ones the end.
  EXPECT_EQ(sr_seek_time(h, 0, std::numeric_limits<double>::quiet_NaN()), 1);
  EXPECT_EQ(sr_time_us(h, 0), 0.0);
  EXPECT_EQ(sr_seek_time(h, 0, -5), 1);
  EXPECT_EQ(sr_time_us(h, 0), 0.0);
  EXPECT_EQ(sr_seek_time(h, 0, std::numeric_limits<double>::infinity()), 1);
  EXPECT_EQ(sr_time_us(h, 0), sr_end_us(h, 0));
  EXPECT_EQ(sr_seek_time(h, 0, 1e300), 1);
  EXPECT_EQ(sr_time_us(h, 0), sr_end_us(h, 0));
  sr_close(h);
}

TEST(WebApi, BadRacersGiveNothing) {
  const std::int32_t h = open(golden("mode_sprint.srr"));
  ASSERT_GT(h, 0);
  for (const std::int32_t racer : {-1, 1, 1000}) {
    EXPECT_STREQ(sr_frame(h, racer), "");
    EXPECT_STREQ(sr_track(h, racer), "");
    EXPECT_EQ(sr_seek_time(h, racer, 0), 0);
    EXPECT_EQ(sr_seek_piece(h, racer, 0), 0);
    EXPECT_EQ(sr_seek_change(h, racer, 0), 0);
    EXPECT_EQ(sr_step_piece(h, racer, 1), 0);
    EXPECT_EQ(sr_step_change(h, racer, 1), 0);
    EXPECT_EQ(sr_time_us(h, racer), -1.0);
    EXPECT_EQ(sr_changes(h, racer), -1);
    EXPECT_EQ(sr_end_us(h, racer), -1.0);
  }
  EXPECT_EQ(sr_replay_end_us(h + 1000), -1.0);
  sr_close(h);
}

TEST(WebApi, FrameAndTrackAreJson) {
  const std::int32_t h = open(golden("mode_sprint.srr"));
  ASSERT_GT(h, 0);
  const std::string frame = sr_frame(h, 0);
  EXPECT_EQ(frame.rfind(R"({"time_us":0,"changes":0,"phase":"falling",)", 0), 0u) << frame;
  const std::string track = sr_track(h, 0);
  EXPECT_EQ(track.rfind(R"({"changes":[[)", 0), 0u);
  sr_close(h);
}

TEST(WebApi, DigestIsTheLibrarysAndEngineInfoIsJson) {
  const auto bytes = golden("hold_heavy.srr");
  EXPECT_EQ(std::string(sr_digest(bytes.data(), static_cast<std::uint32_t>(bytes.size()), 0)),
            sr::web::replay_digest(bytes));
  EXPECT_EQ(std::string(sr_engine_info()).rfind(R"({"rules_version":)", 0), 0u);
}

TEST(WebApi, AllocGivesWritableMemory) {
  std::uint8_t* p = sr_alloc(16);
  ASSERT_NE(p, nullptr);
  p[15] = 7;
  sr_free(p);
  std::uint8_t* q = sr_alloc(0);
  ASSERT_NE(q, nullptr);
  sr_free(q);
}

}  // namespace
