#include "common/replay/codec.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/replay/verify.h"
#include "tests/replays/test_support.h"

namespace sr::replay {
namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Error json_error(const std::string& text, JsonOptions options = {}) {
  Result<Replay> r = decode_json(text, options);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

// The smallest JSON replay with a recorded result.
std::string minimal(const std::string& config = R"({"mode": "endless"})", const std::string& extra = "") {
  return R"({"rules_version": 1, "config": )" + config + extra + R"(, "racers": [{"name": "a", "inputs": [],
    "result": {"status": "forfeited", "final_hash": "0000000000000000", "stats": {"time_us": 0, "pieces": 0,
    "lines": 0, "score": 0, "level": 1, "key_presses": 0, "holds": 0, "singles": 0, "doubles": 0, "triples": 0,
    "tetrises": 0, "tspins": 0, "tspin_singles": 0, "tspin_doubles": 0, "tspin_triples": 0, "minis": 0,
    "mini_singles": 0, "mini_doubles": 0, "perfect_clears": 0, "max_combo": 0, "max_b2b": 0}},
    "checkpoints": []}]})";
}

TEST(CodecJson, RoundTripsExactly) {
  const Replay r = testing::small_sprint();
  const std::string json = encode_json(r);
  Result<Replay> back = decode_json(json);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back.value(), r);
  EXPECT_EQ(encode_json(back.value()), json);
}

// `minimal()` with `members` added to the racer's result object.
std::string with_result_members(const std::string& members) {
  std::string text = minimal();
  const std::string result = "\"result\": {";
  text.insert(text.find(result) + result.size(), members);
  return text;
}

TEST(CodecJson, GoldenExportMatchesItsBinary) {
  const std::string json = read_text(testing::current_dir() / "mode_sprint.json");
  Result<Replay> from_json = decode_json(json);
  ASSERT_TRUE(from_json.ok()) << from_json.error().describe();
  const auto bytes = testing::read_bytes(testing::current_dir() / "mode_sprint.srr");
  EXPECT_EQ(encode_binary(from_json.value()), bytes);
  EXPECT_EQ(encode_json(from_json.value()), json);
}

// tests/data/mode_sprint.json was exported before RacerResult class version 2 (its results say version 1 and have
// no unverified_us or reconnects). It still reads, as the same replay as its binary, and exports as today's golden.
TEST(CodecJson, ClassVersion1GoldenExportStillReads) {
  const std::string json = read_text(testing::data_dir() / "mode_sprint.json");
  ASSERT_NE(json.find("\"cereal_class_version\": 1,\n    \"status\""), std::string::npos);  // a version 1 result
  ASSERT_EQ(json.find("unverified_us"), std::string::npos);
  Result<Replay> from_json = decode_json(json);
  ASSERT_TRUE(from_json.ok()) << from_json.error().describe();
  Result<Replay> from_binary = decode_binary(testing::read_bytes(testing::data_dir() / "mode_sprint.srr"));
  ASSERT_TRUE(from_binary.ok()) << from_binary.error().describe();
  EXPECT_EQ(from_json.value(), from_binary.value());
  EXPECT_EQ(from_json.value().racers[0].result.unverified_us, 0);
  EXPECT_EQ(from_json.value().racers[0].result.reconnects, 0u);
  EXPECT_EQ(encode_json(from_json.value()), read_text(testing::current_dir() / "mode_sprint.json"));
}

TEST(CodecJson, RoundTripsUnverifiedTimeAndReconnects) {
  Replay r = testing::small_sprint();
  RacerResult& result = r.racers[0].result;
  result.unverified_us = 2'250'000;
  result.reconnects = 1;
  ASSERT_LE(result.unverified_us, result.stats.time_us);
  const std::string json = encode_json(r);
  EXPECT_NE(json.find("\"unverified_us\": 2250000,\n    \"reconnects\": 1\n"), std::string::npos) << json;
  Result<Replay> back = decode_json(json);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back.value(), r);
  EXPECT_EQ(encode_json(back.value()), json);
}

TEST(CodecJson, UnverifiedTimeAndReconnectsAreOptionalAndDefaultToZero) {
  for (const std::string& text : {minimal(), with_result_members(R"("cereal_class_version": 1, )"),
                                  with_result_members(R"("cereal_class_version": 2, "reconnects": 0, )")}) {
    Result<Replay> r = decode_json(text);
    ASSERT_TRUE(r.ok()) << r.error().describe() << "\n" << text;
    EXPECT_EQ(r.value().racers[0].result.unverified_us, 0);
    EXPECT_EQ(r.value().racers[0].result.reconnects, 0u);
  }
  Result<Replay> r = decode_json(with_result_members(R"("reconnects": 3, )"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.value().racers[0].result.reconnects, 3u);
}

// A version 1 result has no such members: one that names them contradicts its version, and reading it as 0 would
// report a clean run that the file says was not.
TEST(CodecJson, RefusesVersion2MembersInAVersion1Result) {
  const Error e = json_error(with_result_members(R"("cereal_class_version": 1, "unverified_us": 0, )"));
  EXPECT_EQ(e.kind, ErrorKind::kBadJson);
  EXPECT_EQ(e.message,
            "racers[0].result: member \"unverified_us\" needs cereal_class_version 2 or later, the object has 1");
  const Error e2 = json_error(with_result_members(R"("cereal_class_version": 0, "reconnects": 1, )"));
  EXPECT_EQ(e2.message,
            "racers[0].result: member \"reconnects\" needs cereal_class_version 2 or later, the object has 0");
}

// `minimal()` with `members` added to the racer object.
std::string with_racer_members(const std::string& members) {
  std::string text = minimal();
  const std::string racer = "\"racers\": [{";
  text.insert(text.find(racer) + racer.size(), members);
  return text;
}

constexpr const char* kKeyHex = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29";

TEST(CodecJson, StoresTheRacersKeyAsHexAndLeavesOutAMissingOne) {
  Replay r = testing::small_sprint();
  EXPECT_EQ(encode_json(r).find("\"key\""), std::string::npos);
  r.racers[0].key = key_from_hex(kKeyHex);
  ASSERT_TRUE(r.racers[0].key.has_value());
  const std::string json = encode_json(r);
  EXPECT_NE(json.find(std::string("\"key\": \"") + kKeyHex + "\"\n"), std::string::npos) << json;
  Result<Replay> back = decode_json(json);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back.value(), r);
  EXPECT_EQ(encode_binary(back.value()), encode_binary(r));
}

TEST(CodecJson, RefusesAMalformedKeyAndAKeyInAVersion1Racer) {
  Result<Replay> ok = decode_json(with_racer_members(std::string("\"key\": \"") + kKeyHex + "\", "));
  ASSERT_TRUE(ok.ok()) << ok.error().describe();
  EXPECT_EQ(key_hex(*ok.value().racers[0].key), kKeyHex);
  for (const std::string bad : {"3B6A27BCCEB6A42D62A3A8D02A6F0D73653215771DE243A63AC048A18B59DA29", "3b6a", "",
                                "zz6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"}) {
    const Error e = json_error(with_racer_members("\"key\": \"" + bad + "\", "));
    EXPECT_EQ(e.describe(), "racers[0].key: a key is 64 lower-case hex digits") << bad;
  }
  const Error number = json_error(with_racer_members("\"key\": 5, "));
  EXPECT_EQ(number.field, "racers[0].key");
  const Error v1 =
      json_error(with_racer_members(std::string("\"cereal_class_version\": 1, \"key\": \"") + kKeyHex + "\", "));
  EXPECT_EQ(v1.kind, ErrorKind::kBadJson);
  EXPECT_EQ(v1.message, "racers[0]: member \"key\" needs cereal_class_version 2 or later, the object has 1");
}

TEST(CodecJson, RejectsUnverifiedTimeAndReconnectsOutOfRange) {
  const Error negative = json_error(with_result_members(R"("unverified_us": -1, )"));
  EXPECT_EQ(negative.describe(), "racers[0].result.unverified_us: -1 is negative");
  const Error longer = json_error(with_result_members(R"("unverified_us": 5, )"));  // the game lasted 0 us
  EXPECT_EQ(longer.kind, ErrorKind::kBadValue);
  EXPECT_EQ(longer.message, "racers[0].result.unverified_us (5 us) is more than result.stats.time_us (0 us)");
  const Error reconnects = json_error(with_result_members(R"("reconnects": 4294967296, )"));
  EXPECT_EQ(reconnects.describe(), "racers[0].result.reconnects: 4294967296 is too large");
  const Error negative_reconnects = json_error(with_result_members(R"("reconnects": -2, )"));
  EXPECT_EQ(negative_reconnects.describe(), "racers[0].result.reconnects: -2 is negative");
}

TEST(CodecJson, RefusesANewerRacerResultVersion) {
  const Error e = json_error(with_result_members(R"("cereal_class_version": 3, )"));
  EXPECT_EQ(e.kind, ErrorKind::kNewerVersion);
  EXPECT_EQ(e.message, "RacerResult has class version 3, this build reads up to 2");
}

TEST(CodecJson, LeavesOutOptionalMembersAndUsesTheModePreset) {
  Result<Replay> r = decode_json(minimal(R"({"mode": "ultra"})"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r.value().config, engine::make_ultra());
  EXPECT_EQ(r.value().racers[0].handling, engine::Handling{});
  EXPECT_EQ(r.value().place, "local");
  EXPECT_EQ(r.value().checkpoint_every, kDefaultCheckpointEvery);
}

TEST(CodecJson, HandWrittenReplayImportsAndPlays) {
  const std::string json = read_text(testing::data_dir() / "handwritten_tspin.json");
  EXPECT_EQ(json_error(json).kind, ErrorKind::kBadJson);  // results missing: only import records them
  Result<Replay> r = decode_json(json, JsonOptions{.record_missing = true});
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Replay& replay = r.value();
  ASSERT_EQ(replay.racers.size(), 1u);
  const engine::Stats& s = replay.racers[0].result.stats;
  EXPECT_EQ(s.tspin_doubles, 1);
  EXPECT_EQ(s.lines, 2);
  EXPECT_EQ(replay.racers[0].result.status, ResultStatus::kForfeited);
  EXPECT_EQ(verify(replay).verdict, Verdict::kVerified);
}

TEST(CodecJson, NamesTheMemberOfAnOutOfRangeValue) {
  const Error e = json_error(minimal(R"({"mode": "sprint", "preview": 300})"));
  EXPECT_EQ(e.field, "config.preview");
  EXPECT_EQ(e.describe(), "config.preview: 300 is too large");
}

// Numbers are whole: a fraction, an exponent or a 21-digit run is refused before the JSON parser sees it (the
// libFuzzer input "0.000...0" made RapidJSON's floating-point reader take __builtin_clzll(0)).
TEST(CodecJson, RefusesNumbersThatAreNotWholeBeforeParsing) {
  const std::string zeros = "0." + std::string(120, '0');
  for (const std::string& text :
       {zeros, minimal(R"({"mode": "sprint", "preview": 5.0})"), minimal(R"({"mode": "sprint", "preview": 5e0})"),
        minimal(R"({"mode": "sprint", "preview": 123456789012345678901})")}) {
    const Error e = json_error(text);
    EXPECT_EQ(e.kind, ErrorKind::kBadJson) << text;
    EXPECT_NE(e.message.find("numbers in a replay are whole numbers"), std::string::npos) << e.message;
  }
  // Dots and exponent letters inside strings, and the letters of true/false, are not numbers.
  const Error e = json_error(minimal(R"({"mode": "sprint", "preview": "5.0e1", "allow_180": false})"));
  EXPECT_EQ(e.message.find("whole numbers"), std::string::npos) << e.message;
}

// NaN and Infinity are not JSON and never in a replay: a syntax error, even where RapidJSON's extension would take
// them (libFuzzer's "NaNe1" made its number reader assert, which throws under Cereal).
TEST(CodecJson, NanAndInfinityAreSyntaxErrors) {
  for (const std::string& text : {std::string("NaNe1"), minimal(R"({"mode": "sprint", "preview": NaN})"),
                                  minimal(R"({"mode": "sprint", "preview": -Infinity})")}) {
    const Error e = json_error(text);
    EXPECT_EQ(e.kind, ErrorKind::kBadJson) << text;
    EXPECT_EQ(e.message.rfind("syntax error at byte", 0), 0u) << e.message;
  }
}

TEST(CodecJson, NamesAMissingMember) {
  const Error e = json_error(R"({"config": {"mode": "sprint"}, "racers": []})");
  EXPECT_EQ(e.kind, ErrorKind::kBadJson);
  EXPECT_EQ(e.field, "rules_version");
  EXPECT_EQ(e.message, "missing member \"rules_version\"");
}

TEST(CodecJson, NamesAWrongType) {
  const Error e = json_error(minimal(R"({"mode": "sprint", "allow_180": 1})"));
  EXPECT_EQ(e.field, "config.allow_180");
  EXPECT_EQ(e.message, "expected true or false");
  const Error e2 = json_error(minimal(R"({"mode": "sprint", "preview": "five"})"));
  EXPECT_EQ(e2.message, "expected an integer");
}

TEST(CodecJson, NamesAnUnknownEnumName) {
  const Error e = json_error(minimal(R"({"mode": "zen"})"));
  EXPECT_EQ(e.describe(), "config.mode: unknown name \"zen\"");
}

TEST(CodecJson, ReportsSyntaxErrorsWithTheirOffset) {
  const Error e = json_error("{\"rules_version\": 1,,}");
  EXPECT_EQ(e.kind, ErrorKind::kBadJson);
  EXPECT_NE(e.message.find("syntax error at byte 20"), std::string::npos) << e.message;
}

TEST(CodecJson, RefusesDeepNestingBeforeParsing) {
  const std::string deep(100000, '[');
  const Error e = json_error(deep);
  EXPECT_NE(e.message.find("nesting deeper than 32"), std::string::npos) << e.message;
}

TEST(CodecJson, RefusesANewerClassVersion) {
  const Error e = json_error(minimal(R"({"cereal_class_version": 2, "mode": "sprint"})"));
  EXPECT_EQ(e.kind, ErrorKind::kNewerVersion);
  EXPECT_NE(e.message.find("GameConfig has class version 2, this build reads up to 1"), std::string::npos);
}

TEST(CodecJson, ChecksInputsLikeTheBinaryDecoder) {
  std::string bad = minimal();
  bad.replace(bad.find("\"inputs\": []"), 12, R"("inputs": [[5000, 8], [4000, 0]])");
  const Error e = json_error(bad);
  EXPECT_NE(e.message.find("inputs[1] goes back in time"), std::string::npos) << e.describe();
  std::string shape = minimal();
  shape.replace(shape.find("\"inputs\": []"), 12, R"("inputs": [[5000]])");
  EXPECT_EQ(json_error(shape).field, "racers[0].inputs[0]");
}

TEST(CodecJson, RefusesUnknownMembersWithTheirPath) {
  const Error e = json_error(minimal(R"({"mode": "sprint", "lock_delay": 5})"));
  EXPECT_EQ(e.kind, ErrorKind::kBadJson);
  EXPECT_EQ(e.message, "config: unknown member \"lock_delay\"");
  std::string racer = minimal();
  racer.replace(racer.find("\"name\": \"a\""), 11, R"("name": "a", "handlng": {})");
  EXPECT_EQ(json_error(racer).message, "racers[0]: unknown member \"handlng\"");
  EXPECT_EQ(json_error(minimal(R"({"mode": "sprint"}, "colour": 1)")).message, "the replay: unknown member \"colour\"");
}

TEST(CodecJson, ReadsBoardsTopRowFirst) {
  Result<Replay> r = decode_json(minimal(R"({"mode": "custom", "initial_board": ["G.........", "GGGGG.GGGG"]})"));
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& board = r.value().config.initial_board;
  ASSERT_EQ(board.size(), 2u);
  EXPECT_EQ(board[0][0], engine::Piece::kGarbage);  // bottom row
  EXPECT_EQ(board[0][5], engine::Piece::kNone);
  EXPECT_EQ(board[1][1], engine::Piece::kNone);
}

}  // namespace
}  // namespace sr::replay
