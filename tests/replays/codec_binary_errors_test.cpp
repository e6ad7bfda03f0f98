// Every error a damaged binary replay can produce, pinned word for word: kind, field, byte offset and sentence, as
// Error::describe() prints them (and `stackrace-replay verify` after "UNREADABLE <file>: "). The decoder may be made
// faster, never more vague: each case is the documented tiny replay (codec_binary_test.cpp, kTinyBytes) with one
// part replaced.
#include "common/replay/codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

using Bytes = std::vector<std::uint8_t>;

using testing::tiny;  // its 139 bytes are spelled out in codec_binary_test.cpp; the offsets below are from there

constexpr std::size_t kRacersAt = 58;        // racers: count
constexpr std::size_t kInputLogAt = 85;      // the input log after its class version: count, unit_us, orders, stream
constexpr std::size_t kInputLogEnd = 91;     // RacerResult class version
constexpr std::size_t kStatusAt = 95;        // result.status
constexpr std::size_t kStatsTimeAt = 109;    // result.stats.time_us (2 bytes: 0xE8 0x07)
constexpr std::size_t kCheckpointsAt = 137;  // checkpoints: count (the key flag follows: the last byte)

Bytes tiny_bytes() {
  Bytes b = encode_binary(tiny());
  EXPECT_EQ(b.size(), 139u);
  return b;
}

// `bytes` with [from, to) replaced by `with`.
Bytes splice(Bytes bytes, std::size_t from, std::size_t to, const Bytes& with) {
  bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(from), bytes.begin() + static_cast<std::ptrdiff_t>(to));
  bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(from), with.begin(), with.end());
  return bytes;
}

Bytes varint(std::uint64_t v) {
  Bytes out;
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
  return out;
}

// The tiny replay with its input log (after the class version) written as given: count, unit_us, orders (both
// Exp-Golomb orders 0 unless said), then the stream's length and bytes.
Bytes with_log(std::uint64_t count, std::uint64_t unit_us, const Bytes& stream, std::uint8_t orders = 0x00) {
  Bytes log = varint(count);
  const Bytes unit = varint(unit_us);
  log.insert(log.end(), unit.begin(), unit.end());
  log.push_back(orders);
  const Bytes n = varint(stream.size());
  log.insert(log.end(), n.begin(), n.end());
  log.insert(log.end(), stream.begin(), stream.end());
  return splice(tiny_bytes(), kInputLogAt, kInputLogEnd, log);
}

struct Case {
  const char* what;
  Bytes bytes;
  ErrorKind kind;
  std::string describe;
};

void expect_errors(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    const Result<Replay> r = decode_binary(c.bytes);
    ASSERT_FALSE(r.ok()) << c.what;
    EXPECT_EQ(r.error().describe(), c.describe) << c.what;
    EXPECT_EQ(static_cast<int>(r.error().kind), static_cast<int>(c.kind)) << c.what << ": " << r.error().describe();
  }
}

Bytes with_byte(std::size_t at, std::uint8_t value) {
  Bytes b = tiny_bytes();
  b[at] = value;
  return b;
}

TEST(CodecBinaryErrors, TheHeader) {
  expect_errors({
      {"empty", {}, ErrorKind::kTruncated, "at byte 0: a replay file is at least 7 bytes, this input has 0"},
      {"three bytes",
       {'S', 'R', 'R'},
       ErrorKind::kTruncated,
       "at byte 0: a replay file is at least 7 bytes, this input has 3"},
      {"magic", with_byte(0, 'X'), ErrorKind::kBadMagic,
       "at byte 0: not a stackrace replay (the file does not start with \"SRRP\")"},
      {"format 0", with_byte(4, 0), ErrorKind::kBadValue, "format_version at byte 4: format version 0 does not exist"},
      {"format 2", with_byte(4, 2), ErrorKind::kNewerVersion,
       "format_version at byte 4: file format v2, this build reads up to v1"},
      {"format 256", splice(tiny_bytes(), 4, 6, {0x00, 0x01}), ErrorKind::kNewerVersion,
       "format_version at byte 4: file format v256, this build reads up to v1"},
      {"big-endian body", with_byte(6, 0), ErrorKind::kBadValue,
       "at byte 6: the body must be little-endian (Cereal endianness byte 1)"},
  });
}

TEST(CodecBinaryErrors, ClassVersionsAndTruncation) {
  Bytes cut = tiny_bytes();
  cut.resize(21);  // inside GameConfig's class version
  Bytes cut_seed = tiny_bytes();
  cut_seed.resize(52);  // inside the seed
  expect_errors({
      {"Replay version", with_byte(7, 2), ErrorKind::kNewerVersion,
       "at byte 11: Replay has class version 2, this build reads up to 1"},
      {"GameConfig version", with_byte(19, 7), ErrorKind::kNewerVersion,
       "config at byte 19: GameConfig has class version 7, this build reads up to 1"},
      {"InputLog version", with_byte(81, 2), ErrorKind::kNewerVersion,
       "racers[0].inputs at byte 81: InputLog has class version 2, this build reads up to 1"},
      {"Checkpoints version", with_byte(133, 9), ErrorKind::kNewerVersion,
       "racers[0].checkpoints at byte 133: Checkpoints has class version 9, this build reads up to 1"},
      {"inside a class version", cut, ErrorKind::kTruncated, "config at byte 19: the input ends inside a field"},
      {"inside the seed", cut_seed, ErrorKind::kTruncated, "seed at byte 49: needs 8 more bytes, the input has 3"},
      {"stream past the end", with_byte(89, 50), ErrorKind::kTruncated,
       "racers[0].inputs.stream at byte 89: needs 50 more bytes, the input has 49"},
      {"trailing",
       [] {
         Bytes b = tiny_bytes();
         b.push_back(0);
         b.push_back(0);
         return b;
       }(),
       ErrorKind::kTrailingBytes, "at byte 139: 2 bytes after the end of the replay"},
  });
}

TEST(CodecBinaryErrors, NumbersFlagsEnumsAndText) {
  expect_errors({
      {"not shortest", splice(tiny_bytes(), 11, 12, {0x81, 0x00}), ErrorKind::kBadValue,
       "rules_version at byte 11: number is not in its shortest form"},
      {"past 64 bits", splice(tiny_bytes(), 12, 13, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02}),
       ErrorKind::kBadValue, "created_unix_ms at byte 12: number does not fit in 64 bits"},
      {"too large", splice(tiny_bytes(), 11, 12, varint(std::uint64_t{1} << 32)), ErrorKind::kBadValue,
       "rules_version at byte 11: 4294967296 is too large"},
      {"flag", with_byte(32, 2), ErrorKind::kBadValue, "config.hold_enabled at byte 32: a flag must be 0 or 1, not 2"},
      {"enum", with_byte(29, 9), ErrorKind::kBadValue, "config.generator at byte 29: unknown value 9 (known: 0..3)"},
      {"text too long", splice(tiny_bytes(), 13, 14, varint(129)), ErrorKind::kBadValue,
       "place at byte 13: text of 129 bytes, at most 128"},
      {"text control", with_byte(14, 0x01), ErrorKind::kBadValue,
       "place at byte 13: text is not UTF-8 without control characters"},
      {"piece", splice(tiny_bytes(), 30, 31, {0x01, 0x09}), ErrorKind::kBadValue,
       "config.fixed_sequence at byte 30: unknown cell value 9"},
      {"pieces past the end", splice(tiny_bytes(), 30, 31, varint(1000)), ErrorKind::kTruncated,
       "config.fixed_sequence at byte 30: needs 1000 more bytes, the input has 108"},
      {"rows", with_byte(31, 41), ErrorKind::kBadValue, "config.initial_board at byte 31: 41 rows, at most 40"},
      {"rows past the end", with_byte(31, 40), ErrorKind::kTruncated,
       "config.initial_board at byte 31: count 40 exceeds what the remaining 107 bytes can hold"},
      {"racers", with_byte(kRacersAt, 65), ErrorKind::kBadValue, "racers at byte 58: count 65, at most 64"},
      {"racers past the end", with_byte(kRacersAt, 3), ErrorKind::kTruncated,
       "racers at byte 58: count 3 exceeds what the remaining 80 bytes can hold"},
      {"engine config", with_byte(33, 9), ErrorKind::kBadValue, "racers[0] config: preview is 9, must be 0..7"},
  });
}

// Each sentence of the input log's decoder (input_log_codec.h), with the field and offset of its stream (byte 89).
// Streams are written bit by bit, most significant first; both Exp-Golomb orders are 0.
TEST(CodecBinaryErrors, TheInputLog) {
  expect_errors({
      {"unit 0", with_log(1, 0, {0x08}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 88: time unit 0 us is out of range"},
      {"unit 2^63", with_log(1, std::uint64_t{1} << 63, {0x08}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 97: time unit 9223372036854775808 us is out of range"},
      {"count", with_log(5, 1000, {0x08}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: count 5 exceeds what 1 stream bytes can hold"},
      // 0 000 1 | 1 1 | 0 and no rank: press move left at 0, release it at 0, then a press whose rank is cut off.
      {"ends early", with_log(3, 1000, {0x0E}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 2: stream ends early"},
      // 0 000 0100 (delta 2, k = 1) | and no release flag.
      {"ends before a release flag", with_log(2, 1000, {0x04}, 0x01), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 1: stream ends early"},
      // 1 0000000 and the eighth bit of the buttons missing.
      {"ends inside several", with_log(1, 1000, {0x80}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 0: stream ends early"},
      // 1 00000011 001000 (delta 6, k = 1) | 1 and no rank among the two held buttons.
      {"ends before a release rank", with_log(2, 1000, {0x81, 0x91}, 0x01), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 1: stream ends early"},
      // 1 00000000: several buttons changed, to the buttons already held.
      {"no change", with_log(1, 1000, {0x80, 0x00}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 0: does not change the buttons"},
      // 1 00000001: several buttons changed, but only move left did.
      {"single as several", with_log(1, 1000, {0x80, 0x80}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 0: a single-button change is coded as several"},
      // 1 11111111 1 | 0 0: every button, then a single press.
      {"press all held", with_log(2, 1000, {0xFF, 0xC0}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 1: a press with every button already held"},
      // 0 000 0000: the delta's zeros run past the stream.
      {"delta", with_log(1, 1000, {0x00}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: change 0: bad or truncated time delta"},
      // 0 000 011 0: delta 2 of 2^62 us.
      {"overflow", with_log(1, std::uint64_t{1} << 62, {0x06}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 96: change 0: time overflows"},
      {"unused bytes", with_log(1, 1000, {0x08, 0x00, 0x00}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: 2 unused bytes after the last change"},
      {"padding", with_log(1, 1000, {0x09}), ErrorKind::kBadValue,
       "racers[0].inputs.stream at byte 89: padding bits after the last change are not zero"},
      // Decoded, then refused by check_replay(): a time past the longest game (0 000 010 0: delta 1 of 2^60 us;
      // 0 000 1 | 1 011 | 0000000: deltas 0 and 2 of 2^59 us).
      {"later than any game", with_log(1, std::uint64_t{1} << 60, {0x04}), ErrorKind::kBadValue,
       "racers[0].inputs[0] is later than 1000000000000000 us"},
      {"the second later", with_log(2, std::uint64_t{1} << 59, {0x0D, 0x80}), ErrorKind::kBadValue,
       "racers[0].inputs[1] is later than 1000000000000000 us"},
  });
}

TEST(CodecBinaryErrors, CheckpointsResultsAndTheReplay) {
  Bytes huge_time = varint(std::uint64_t{1} << 60);
  Bytes overflow = {0x02};  // two checkpoints: INT64_MAX, then 1 more
  const Bytes max = varint(static_cast<std::uint64_t>(INT64_MAX));
  overflow.insert(overflow.end(), max.begin(), max.end());
  overflow.insert(overflow.end(), 8, 0x00);
  overflow.push_back(0x01);
  overflow.insert(overflow.end(), 8, 0x00);
  Bytes late = {0x01};  // one checkpoint at 2^60 us
  late.insert(late.end(), huge_time.begin(), huge_time.end());
  late.insert(late.end(), 8, 0x00);
  Bytes no_racers = tiny_bytes();
  no_racers.resize(kRacersAt + 1);
  no_racers[kRacersAt] = 0;
  expect_errors({
      {"checkpoint count", splice(tiny_bytes(), kCheckpointsAt, 138, {0x02}), ErrorKind::kTruncated,
       "racers[0].checkpoints.count at byte 137: count 2 exceeds what the remaining 1 bytes can hold"},
      {"checkpoint overflow", splice(tiny_bytes(), kCheckpointsAt, 138, overflow), ErrorKind::kBadValue,
       "racers[0].checkpoints[1] at byte 155: checkpoint time overflows"},
      {"checkpoint later than any game", splice(tiny_bytes(), kCheckpointsAt, 138, late), ErrorKind::kBadValue,
       "racers[0].checkpoints are later than the longest game"},
      {"topped out without a reason", with_byte(kStatusAt, 1), ErrorKind::kBadValue,
       "racers[0].result.top_out must name a reason exactly when the status is topped_out"},
      {"a reason without a top out", with_byte(kStatusAt + 1, 1), ErrorKind::kBadValue,
       "racers[0].result.top_out must name a reason exactly when the status is topped_out"},
      {"game time", splice(tiny_bytes(), kStatsTimeAt, kStatsTimeAt + 2, huge_time), ErrorKind::kBadValue,
       "racers[0].result.stats.time_us is later than 1000000000000000 us"},
      {"empty name", splice(tiny_bytes(), 63, 65, {0x00}), ErrorKind::kBadValue,
       "racers[0].name must be 1..64 bytes of UTF-8 without controls"},
      {"rules 0", with_byte(11, 0), ErrorKind::kBadValue, "rules_version must be at least 1"},
      {"created", splice(tiny_bytes(), 12, 13, varint(253'402'300'800'000)), ErrorKind::kBadValue,
       "created_unix_ms is out of range"},
      {"checkpoint_every 0", with_byte(57, 0), ErrorKind::kBadValue, "checkpoint_every must be 1..1000000"},
      {"no racers", no_racers, ErrorKind::kBadValue, "a replay holds 1..64 racers"},
  });
}

}  // namespace
}  // namespace sr::replay
