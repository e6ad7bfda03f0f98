#include "common/replay/codec.h"

#include <gtest/gtest.h>

#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

using testing::tiny;  // one racer, one input, nothing else: small enough to spell out every byte

const std::vector<std::uint8_t> kTinyBytes = {
    'S',  'R',  'R',  'P',              // magic
    0x01, 0x00,                         // format version 1, uint16 little-endian
    0x01,                               // Cereal portable binary: little-endian body
    0x01, 0x00, 0x00, 0x00,             // Replay class version 1 (uint32, first Replay)
    0x01,                               // rules_version 1
    0x00,                               // created_unix_ms 0
    0x05, 'l',  'o',  'c',  'a',  'l',  // place: length, UTF-8
    0x01, 0x00, 0x00, 0x00,             // GameConfig class version 1
    0x04, 0x00, 0x00, 0x01,             // mode endless, limit none, limit_value 0, goal score
    0x00, 0x01, 0x00,                   // rotation srs, allow_180, generator bag7
    0x00, 0x00,                         // fixed_sequence: 0 pieces; initial_board: 0 rows
    0x01, 0x05, 0x00, 0x01, 0x01,       // hold_enabled, preview 5, gravity level_table, start_level 1, level_up
    0x00, 0x00,                         // goal_system fixed, lock_down extended
    0xA0, 0xC2, 0x1E,                   // lock_delay_us 500000 (LEB128)
    0x0F,                               // max_lock_resets 15
    0x90, 0xAA, 0x89, 0x01,             // ground_time_cap_us 2250000
    0x00, 0x00,                         // scoring guideline, all_spin false
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // seed, 8 bytes little-endian
    0x19,                                            // checkpoint_every 25
    0x01,                                            // racers: 1
    0x02, 0x00, 0x00, 0x00,                          // Racer class version 2
    0x01, 'a',                                       // name
    0x01, 0x00, 0x00, 0x00,                          // Handling class version 1
    0xD8, 0x98, 0x0A,                                // das_us 167000
    0xE8, 0x81, 0x02,                                // arr_us 33000
    0x14, 0x00, 0x00, 0x00,                          // sdf 20, dcd_us 0, are_us 0, line_clear_delay_us 0
    0x01, 0x01,                                      // irs, ihs
    0x01, 0x00, 0x00, 0x00,                          // InputLog class version 1
    0x01,                                            // 1 change
    0xE8, 0x07,                                      // unit_us 1000 (the gcd of the deltas)
    0x01,                                            // Exp-Golomb orders: presses k=1, releases k=0
    0x01, 0x3C,              // stream: 1 byte, 0 011 11 00 = single press, rank 3 (hard drop), delta 1
    0x02, 0x00, 0x00, 0x00,  // RacerResult class version 2
    0x03, 0x00,              // status forfeited, top_out none
    0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // final_hash
    0x01, 0x00, 0x00, 0x00,                          // Stats class version 1
    0xE8, 0x07,                                      // time_us 1000
    0x01, 0x00, 0x00, 0x01, 0x01,                    // pieces 1, lines 0, score 0, level 1, key_presses 1
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00,              // holds, singles, doubles, triples, tetrises, tspins
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // tspin_singles .. max_combo
    0x00,                                            // max_b2b
    0x00, 0x00,                                      // unverified_us 0, reconnects 0
    0x01, 0x00, 0x00, 0x00,                          // Checkpoints class version 1
    0x00,                                            // no checkpoints
    0x00,                                            // key: none
};

// The same replay as a build before RacerResult class version 2 wrote it (RacerResult version 1: no unverified_us or
// reconnects). Frozen: such files exist and must keep decoding.
const std::vector<std::uint8_t> kTinyBytesV1 = {
    'S',  'R',  'R',  'P',              // magic
    0x01, 0x00,                         // format version 1, uint16 little-endian
    0x01,                               // Cereal portable binary: little-endian body
    0x01, 0x00, 0x00, 0x00,             // Replay class version 1 (uint32, first Replay)
    0x01,                               // rules_version 1
    0x00,                               // created_unix_ms 0
    0x05, 'l',  'o',  'c',  'a',  'l',  // place: length, UTF-8
    0x01, 0x00, 0x00, 0x00,             // GameConfig class version 1
    0x04, 0x00, 0x00, 0x01,             // mode endless, limit none, limit_value 0, goal score
    0x00, 0x01, 0x00,                   // rotation srs, allow_180, generator bag7
    0x00, 0x00,                         // fixed_sequence: 0 pieces; initial_board: 0 rows
    0x01, 0x05, 0x00, 0x01, 0x01,       // hold_enabled, preview 5, gravity level_table, start_level 1, level_up
    0x00, 0x00,                         // goal_system fixed, lock_down extended
    0xA0, 0xC2, 0x1E,                   // lock_delay_us 500000 (LEB128)
    0x0F,                               // max_lock_resets 15
    0x90, 0xAA, 0x89, 0x01,             // ground_time_cap_us 2250000
    0x00, 0x00,                         // scoring guideline, all_spin false
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // seed, 8 bytes little-endian
    0x19,                                            // checkpoint_every 25
    0x01,                                            // racers: 1
    0x01, 0x00, 0x00, 0x00,                          // Racer class version 1
    0x01, 'a',                                       // name
    0x01, 0x00, 0x00, 0x00,                          // Handling class version 1
    0xD8, 0x98, 0x0A,                                // das_us 167000
    0xE8, 0x81, 0x02,                                // arr_us 33000
    0x14, 0x00, 0x00, 0x00,                          // sdf 20, dcd_us 0, are_us 0, line_clear_delay_us 0
    0x01, 0x01,                                      // irs, ihs
    0x01, 0x00, 0x00, 0x00,                          // InputLog class version 1
    0x01,                                            // 1 change
    0xE8, 0x07,                                      // unit_us 1000 (the gcd of the deltas)
    0x01,                                            // Exp-Golomb orders: presses k=1, releases k=0
    0x01, 0x3C,              // stream: 1 byte, 0 011 11 00 = single press, rank 3 (hard drop), delta 1
    0x01, 0x00, 0x00, 0x00,  // RacerResult class version 1
    0x03, 0x00,              // status forfeited, top_out none
    0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,  // final_hash
    0x01, 0x00, 0x00, 0x00,                          // Stats class version 1
    0xE8, 0x07,                                      // time_us 1000
    0x01, 0x00, 0x00, 0x01, 0x01,                    // pieces 1, lines 0, score 0, level 1, key_presses 1
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00,              // holds, singles, doubles, triples, tetrises, tspins
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // tspin_singles .. max_combo
    0x00,                                            // max_b2b
    0x01, 0x00, 0x00, 0x00,                          // Checkpoints class version 1
    0x00,                                            // no checkpoints
};

Error decode_error(const std::vector<std::uint8_t>& bytes) {
  Result<Replay> r = decode_binary(bytes);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

TEST(CodecBinary, EncodesTheDocumentedLayoutByteForByte) { EXPECT_EQ(encode_binary(tiny()), kTinyBytes); }

TEST(CodecBinary, DecodesTheDocumentedLayout) {
  Result<Replay> r = decode_binary(kTinyBytes);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.value(), tiny());
}

// Where RacerResult's class version and its version 2 numbers sit in kTinyBytes.
constexpr std::size_t kRacerResultVersionAt = 91;
constexpr std::size_t kUnverifiedAt = 131;  // after the 22 bytes of stats; reconnects follows

// kTinyBytes with the two version 2 numbers (one 0x00 byte each there) replaced by `numbers`.
std::vector<std::uint8_t> tiny_bytes_with(const std::vector<std::uint8_t>& numbers) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  EXPECT_EQ(bytes[kUnverifiedAt], 0x00);
  EXPECT_EQ(bytes[kUnverifiedAt + 1], 0x00);
  const auto at = bytes.begin() + static_cast<std::ptrdiff_t>(kUnverifiedAt);
  bytes.erase(at, at + 2);
  bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(kUnverifiedAt), numbers.begin(), numbers.end());
  return bytes;
}

TEST(CodecBinary, LayoutOffsetsAreWhereTheTestsSayTheyAre) {
  ASSERT_EQ(kTinyBytes.size(), 139u);
  EXPECT_EQ(kTinyBytes[kRacerResultVersionAt], 0x02);
  EXPECT_EQ(kTinyBytesV1[kRacerResultVersionAt], 0x01);
  EXPECT_EQ(kTinyBytes[kUnverifiedAt - 1], 0x00);  // max_b2b
  EXPECT_EQ(kTinyBytes[kUnverifiedAt + 2], 0x01);  // Checkpoints class version
}

// Version 1 has no unverified_us or reconnects: they read as 0 (a clean run), and reading goes on with the
// checkpoints right after the stats. Re-encoding writes the current version.
TEST(CodecBinary, ReadsRacerResultVersion1AsACleanRun) {
  Result<Replay> r = decode_binary(kTinyBytesV1);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.value().racers[0].result.unverified_us, 0);
  EXPECT_EQ(r.value().racers[0].result.reconnects, 0u);
  EXPECT_EQ(r.value(), tiny());
  EXPECT_EQ(encode_binary(r.value()), kTinyBytes);
}

TEST(CodecBinary, StoresUnverifiedTimeAndReconnectsAfterTheStats) {
  Replay r = tiny();
  r.racers[0].result.unverified_us = 750;
  r.racers[0].result.reconnects = 300;
  const std::vector<std::uint8_t> bytes = tiny_bytes_with({
      0xEE, 0x05,  // unverified_us 750 (LEB128)
      0xAC, 0x02,  // reconnects 300
  });
  EXPECT_EQ(encode_binary(r), bytes);
  Result<Replay> back = decode_binary(bytes);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back.value(), r);
}

// Racer class version 2 ends with the key: a flag, then its 32 bytes.
TEST(CodecBinary, StoresTheRacersKeyAfterTheCheckpoints) {
  Replay r = tiny();
  r.racers[0].key.emplace();
  for (std::size_t i = 0; i < kRacerKeyBytes; ++i) (*r.racers[0].key)[i] = static_cast<std::uint8_t>(0xA0 + i);
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes.back() = 0x01;
  for (std::size_t i = 0; i < kRacerKeyBytes; ++i) bytes.push_back(static_cast<std::uint8_t>(0xA0 + i));
  EXPECT_EQ(encode_binary(r), bytes);
  Result<Replay> back = decode_binary(bytes);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back.value(), r);
  EXPECT_EQ(key_hex(*back.value().racers[0].key), "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf");
}

// A file written before Racer class version 2 (racer version 1, RacerResult version 2): no key, and the checkpoints
// end the racer.
TEST(CodecBinary, ReadsRacerVersion1WithoutAKey) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes.pop_back();
  constexpr std::size_t kRacerVersionAt = 59;
  ASSERT_EQ(bytes[kRacerVersionAt], 0x02);
  bytes[kRacerVersionAt] = 0x01;
  Result<Replay> r = decode_binary(bytes);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_FALSE(r.value().racers[0].key.has_value());
  EXPECT_EQ(r.value(), tiny());
  EXPECT_EQ(encode_binary(r.value()), kTinyBytes);
  bytes[kRacerVersionAt] = 0x03;
  const Error newer = decode_error(bytes);
  EXPECT_EQ(newer.kind, ErrorKind::kNewerVersion);
  EXPECT_EQ(newer.message, "Racer has class version 3, this build reads up to 2");
}

TEST(CodecBinary, RejectsADamagedKey) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes.back() = 0x02;
  EXPECT_EQ(decode_error(bytes).describe(), "racers[0].key.present at byte 138: a flag must be 0 or 1, not 2");
  bytes.back() = 0x01;
  bytes.insert(bytes.end(), 31, 0xAB);  // one byte short
  const Error cut = decode_error(bytes);
  EXPECT_EQ(cut.kind, ErrorKind::kTruncated);
  EXPECT_EQ(cut.describe(), "racers[0].key at byte 138: needs 32 more bytes, the input has 31");
  bytes.insert(bytes.end(), 2, 0xAB);  // one byte too many
  EXPECT_EQ(decode_error(bytes).describe(), "at byte 171: 1 bytes after the end of the replay");
}

TEST(CodecBinary, RejectsUnverifiedTimeBeyondTheGame) {
  const Error longer = decode_error(tiny_bytes_with({0xD0, 0x0F, 0x00}));  // 2000 us of a 1000 us game
  EXPECT_EQ(longer.kind, ErrorKind::kBadValue);
  EXPECT_EQ(longer.message, "racers[0].result.unverified_us (2000 us) is more than result.stats.time_us (1000 us)");
  // 2^60 us: past every game time.
  const Error huge = decode_error(tiny_bytes_with({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00}));
  EXPECT_EQ(huge.kind, ErrorKind::kBadValue);
  EXPECT_EQ(huge.message, "racers[0].result.unverified_us is more than 1000000000000000 us");
}

TEST(CodecBinary, RejectsReconnectsBeyond32Bits) {
  const Error e = decode_error(tiny_bytes_with({0x00, 0x80, 0x80, 0x80, 0x80, 0x10}));  // 2^32
  EXPECT_EQ(e.kind, ErrorKind::kBadValue);
  EXPECT_EQ(e.describe(), "racers[0].result.reconnects at byte 132: 4294967296 is too large");
}

TEST(CodecBinary, NamesANewerRacerResultVersion) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[kRacerResultVersionAt] = 3;
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.kind, ErrorKind::kNewerVersion);
  EXPECT_EQ(e.message, "RacerResult has class version 3, this build reads up to 2");
}

TEST(CodecBinary, RoundTripsARealGame) {
  const Replay r = testing::small_sprint();
  const auto bytes = encode_binary(r);
  Result<Replay> back = decode_binary(bytes);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back.value(), r);
  EXPECT_EQ(encode_binary(back.value()), bytes);
}

TEST(CodecBinary, RejectsOtherFilesByTheirMagic) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[0] = 'X';
  EXPECT_EQ(decode_error(bytes).kind, ErrorKind::kBadMagic);
}

TEST(CodecBinary, NamesANewerFormatVersion) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[4] = 2;
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.kind, ErrorKind::kNewerVersion);
  EXPECT_NE(e.message.find("file format v2, this build reads up to v1"), std::string::npos) << e.message;
}

TEST(CodecBinary, NamesANewerClassVersion) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[19] = 7;  // GameConfig class version
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.kind, ErrorKind::kNewerVersion);
  EXPECT_NE(e.message.find("GameConfig has class version 7"), std::string::npos) << e.message;
}

TEST(CodecBinary, EveryTruncationIsAnErrorNeverACrash) {
  for (const auto* full : {&kTinyBytes, &kTinyBytesV1}) {
    for (std::size_t n = 0; n < full->size(); ++n) {
      const std::vector<std::uint8_t> prefix(full->begin(), full->begin() + static_cast<std::ptrdiff_t>(n));
      const Error e = decode_error(prefix);
      EXPECT_TRUE(e.kind == ErrorKind::kTruncated || e.kind == ErrorKind::kBadMagic) << n << ": " << e.describe();
    }
  }
}

TEST(CodecBinary, RejectsTrailingBytes) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes.push_back(0);
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.kind, ErrorKind::kTrailingBytes);
  EXPECT_EQ(e.offset, static_cast<std::int64_t>(kTinyBytes.size()));
}

TEST(CodecBinary, NamesTheFieldAndOffsetOfABadValue) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[29] = 9;  // generator: no such kind
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.kind, ErrorKind::kBadValue);
  EXPECT_EQ(e.field, "config.generator");
  EXPECT_EQ(e.offset, 29);
  EXPECT_EQ(e.describe(), "config.generator at byte 29: unknown value 9 (known: 0..3)");
}

// The Ocular rotation system (3) came without a GameConfig class version bump: a build from before it refuses such a
// file with "config.rotation at byte 27: unknown value 3 (known: 0..2)", as this build refuses value 4.
TEST(CodecBinary, ReadsOcularAndRefusesAnUnknownRotationSystem) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[27] = 3;
  Result<Replay> ocular = decode_binary(bytes);
  ASSERT_TRUE(ocular.ok()) << ocular.error().describe();
  EXPECT_EQ(ocular.value().config.rotation, engine::RotationSystem::kOcular);
  bytes[27] = 4;
  EXPECT_EQ(decode_error(bytes).describe(), "config.rotation at byte 27: unknown value 4 (known: 0..3)");
}

TEST(CodecBinary, ChecksCountsAgainstTheRemainingBytesBeforeAllocating) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  // fixed_sequence count: claim 2^62 pieces.
  bytes.erase(bytes.begin() + 30);
  const std::vector<std::uint8_t> huge = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40};
  bytes.insert(bytes.begin() + 30, huge.begin(), huge.end());
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.kind, ErrorKind::kTruncated);
  EXPECT_EQ(e.field, "config.fixed_sequence");
}

TEST(CodecBinary, RejectsNumbersNotInTheirShortestForm) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[11] = 0x81;  // rules_version 1 as 0x81 0x00
  bytes.insert(bytes.begin() + 12, 0x00);
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.field, "rules_version");
  EXPECT_NE(e.message.find("shortest form"), std::string::npos);
}

TEST(CodecBinary, RejectsAConfigTheEngineWouldRefuse) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[33] = 9;  // preview 9 (the engine allows 0..7)
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.kind, ErrorKind::kBadValue);
  EXPECT_NE(e.message.find("preview is 9"), std::string::npos) << e.message;
}

TEST(CodecBinary, RejectsBadTextAndFlags) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[14] = 0x01;  // place: a control character
  EXPECT_EQ(decode_error(bytes).field, "place");
  bytes = kTinyBytes;
  bytes[32] = 2;  // hold_enabled must be 0 or 1
  EXPECT_EQ(decode_error(bytes).field, "config.hold_enabled");
}

TEST(CodecBinary, NamesTheRacerOfABrokenInputLog) {
  std::vector<std::uint8_t> bytes = kTinyBytes;
  bytes[90] = 0x3D;  // a padding bit set
  const Error e = decode_error(bytes);
  EXPECT_EQ(e.field, "racers[0].inputs.stream");
  EXPECT_NE(e.message.find("padding"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace sr::replay
