// client/lobby/record_boards.h: the records hub's answers (common/protocol/RECORDS.md, section 5) read exactly, the
// examples of that page included, and every hostile body (not JSON, not UTF-8, wrong types, numbers out of range,
// members missing, texts too long, too many entries, a board or list other than the one asked for) refused with a
// sentence that says what and where.
#include "client/lobby/record_boards.h"

#include <gtest/gtest.h>

#include <string>

namespace sr::client {
namespace {

const std::string kKey = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29";

// RECORDS.md's ENTRY example, its placeholders filled in.
std::string entry_json(int place = 1, const std::string& player = "ada") {
  return R"({"record":"00000000000000ff-0","place":)" + std::to_string(place) +
         R"(,"board":"sprint-40l","list":"trusted","player":")" + player + R"(","key":")" + kKey +
         R"(","key_id":"cb2f5160","time_us":41234000,"score":0,"lines":40,"pieces":101,"rules_version":3,)"
         R"("server":"Ada's server","server_key_id":"1a2b3c4d","server_web":"http://...",)"
         R"("played_unix_ms":1764612345678,"game":"00000000000000ff"})";
}

std::string page_json(const std::string& entries, int total = 12) {
  return R"({"board":"sprint-40l","list":"trusted","total":)" + std::to_string(total) + R"(,"entries":[)" + entries +
         "]}";
}

std::string page_error(const std::string& json, std::size_t max_entries = 20) {
  auto got = parse_record_page(json, "sprint-40l", RecordList::kTrusted, max_entries);
  return got ? std::string("(parsed)") : got.error();
}

// The page with one entry whose member `name` is replaced by `value` (its JSON text).
std::string entry_with(const std::string& name, const std::string& value) {
  std::string e = entry_json();
  const std::string key = "\"" + name + "\":";
  const std::size_t at = e.find(key);
  EXPECT_NE(at, std::string::npos) << name;
  const std::size_t from = at + key.size();
  std::size_t to = from;
  if (e[from] == '"') {
    to = e.find('"', from + 1) + 1;
  } else {
    to = e.find_first_of(",}", from);
  }
  return page_json(e.substr(0, from) + value + e.substr(to));
}

TEST(RecordBoards, TheBoardListOfRecordsMdIsReadExactly) {
  auto got = parse_record_boards(
      R"({"boards":[{"board":"sprint-40l","mode":"sprint","limit":"40 lines","goal":"time","custom":false,"trusted":12,"other":3}]})");
  ASSERT_TRUE(got.ok()) << got.error();
  ASSERT_EQ(got.value().size(), 1u);
  EXPECT_EQ(got.value()[0],
            (RecordBoardSummary{"sprint-40l", "sprint", "40 lines", engine::GoalKind::kTime, false, 12, 3}));
}

TEST(RecordBoards, CustomBoardsAndEveryGoal) {
  auto got = parse_record_boards(
      R"({"boards":[{"board":"sprint-40l.3fa2c9d1","mode":"sprint","limit":"40 lines","goal":"time","custom":true,"trusted":0,"other":1},)"
      R"({"board":"marathon-15v","mode":"marathon","limit":"level 15","goal":"score","custom":false,"trusted":2,"other":0},)"
      R"({"board":"custom-120s.0000abcd","mode":"custom","limit":"120 s","goal":"lines","custom":true,"trusted":0,"other":0}]})");
  ASSERT_TRUE(got.ok()) << got.error();
  ASSERT_EQ(got.value().size(), 3u);
  EXPECT_EQ(got.value()[0],
            (RecordBoardSummary{"sprint-40l.3fa2c9d1", "sprint", "40 lines", engine::GoalKind::kTime, true, 0, 1}));
  EXPECT_EQ(got.value()[1].goal, engine::GoalKind::kScore);
  EXPECT_EQ(got.value()[2].goal, engine::GoalKind::kLines);
  EXPECT_TRUE(parse_record_boards(R"({"boards":[]})").value().empty());
}

TEST(RecordBoards, TheEntryOfRecordsMdIsReadExactly) {
  auto got = parse_record_page(page_json(entry_json()), "sprint-40l", RecordList::kTrusted, 50);
  ASSERT_TRUE(got.ok()) << got.error();
  const RecordPage& p = got.value();
  EXPECT_EQ(p.board, "sprint-40l");
  EXPECT_EQ(p.list, RecordList::kTrusted);
  EXPECT_EQ(p.total, 12);
  ASSERT_EQ(p.entries.size(), 1u);
  RecordEntry want;
  want.record = "00000000000000ff-0";
  want.place = 1;
  want.player = "ada";
  want.key = kKey;
  want.key_id = "cb2f5160";
  want.time_us = 41'234'000;
  want.score = 0;
  want.lines = 40;
  want.pieces = 101;
  want.rules_version = 3;
  want.server = "Ada's server";
  want.server_key_id = "1a2b3c4d";
  want.server_web = "http://...";
  want.played_unix_ms = 1'764'612'345'678;
  want.game = "00000000000000ff";
  EXPECT_EQ(p.entries[0], want);
}

TEST(RecordBoards, OptionalMembersMayBeLeftOutOrNull) {
  std::string e = entry_json();
  for (const char* member : {R"(,"pieces":101)", R"(,"server_web":"http://...")", R"(,"game":"00000000000000ff")"}) {
    e.erase(e.find(member), std::string(member).size());
  }
  e.replace(e.find("\"" + kKey + "\""), kKey.size() + 2, "null");
  auto got = parse_record_page(page_json(e), "sprint-40l", RecordList::kTrusted, 20);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got.value().entries[0].key, "");
  EXPECT_EQ(got.value().entries[0].pieces, 0);
  EXPECT_EQ(got.value().entries[0].server_web, "");
  EXPECT_EQ(got.value().entries[0].game, "");
}

TEST(RecordBoards, ThePlaceOfRecordsMdIsReadExactly) {
  auto got = parse_record_place(R"({"board":"sprint-40l","list":"trusted","place":4,"of":12})", "sprint-40l");
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got.value(), (RecordPlace{"sprint-40l", RecordList::kTrusted, 4, 12}));
  // Last on an empty list, and just after the last of 12: both are places a result can have.
  EXPECT_EQ(parse_record_place(R"({"board":"sprint-40l","list":"other","place":1,"of":0})", "sprint-40l").value(),
            (RecordPlace{"sprint-40l", RecordList::kOther, 1, 0}));
  EXPECT_TRUE(parse_record_place(R"({"board":"sprint-40l","list":"trusted","place":13,"of":12})", "sprint-40l").ok());
}

TEST(RecordBoards, ABodyThatIsNotJsonOrNotUtf8IsSaidWithItsOffset) {
  EXPECT_EQ(parse_record_boards("<html>502 Bad Gateway</html>").error(), "the answer is not JSON (at byte 0)");
  EXPECT_EQ(parse_record_boards(R"({"boards":[)").error(), "the answer is not JSON (at byte 11)");
  EXPECT_EQ(parse_record_boards("").error(), "the answer is not JSON (at byte 0)");
  EXPECT_EQ(page_error(page_json(entry_json(1, "ad\xff\xfe"))), "the answer is not valid UTF-8 (at byte 152)");
  EXPECT_EQ(parse_record_boards("[1,2]").error(), "the answer is not a JSON object");
  EXPECT_EQ(parse_record_boards("\"boards\"").error(), "the answer is not a JSON object");
}

TEST(RecordBoards, DeepNestingIsReadWithoutExhaustingTheStack) {
  // 200,000 nested arrays: parsed iteratively (a recursive parser would overflow the stack), then refused by shape.
  const std::string deep = R"({"boards":)" + std::string(200'000, '[') + std::string(200'000, ']') + "}";
  EXPECT_EQ(parse_record_boards(deep).error(), "boards[0] is not an object");
}

TEST(RecordBoards, AnAnswerOverItsCapIsRefusedUnread) {
  const std::string big = R"({"boards":[],"pad":")" + std::string(kMaxRecordAnswerBytes, 'x') + "\"}";
  EXPECT_EQ(parse_record_boards(big).error(), "the answer is over 1048576 bytes");
}

TEST(RecordBoards, WrongTypesAndMissingMembersOfABoardAreNamed) {
  const auto error = [](const std::string& board) {
    auto got = parse_record_boards(R"({"boards":[)" + board + "]}");
    return got ? std::string("(parsed)") : got.error();
  };
  EXPECT_EQ(parse_record_boards("{}").error(), "\"boards\" is missing");
  EXPECT_EQ(parse_record_boards(R"({"boards":{}})").error(), "\"boards\" is not an array");
  EXPECT_EQ(error("7"), "boards[0] is not an object");
  const std::string good =
      R"({"board":"sprint-40l","mode":"sprint","limit":"40 lines","goal":"time","custom":false,"trusted":12,"other":3})";
  EXPECT_EQ(error(good), "(parsed)");
  auto with = [&](const std::string& from, const std::string& to) {
    std::string b = good;
    b.replace(b.find(from), from.size(), to);
    return error(b);
  };
  EXPECT_EQ(with(R"("trusted":12)", R"("trusted":"12")"),
            "boards[0]: \"trusted\" is not a whole number from 0 to 1000000000");
  EXPECT_EQ(with(R"("trusted":12)", R"("trusted":-1)"),
            "boards[0]: \"trusted\" is not a whole number from 0 to 1000000000");
  EXPECT_EQ(with(R"("trusted":12)", R"("trusted":1e30)"),
            "boards[0]: \"trusted\" is not a whole number from 0 to 1000000000");
  EXPECT_EQ(with(R"("trusted":12)", R"("trusted":18446744073709551616)"),
            "boards[0]: \"trusted\" is not a whole number from 0 to 1000000000");
  EXPECT_EQ(with(R"("trusted":12)", R"("trusted":12.5)"),
            "boards[0]: \"trusted\" is not a whole number from 0 to 1000000000");
  EXPECT_EQ(with(R"("custom":false)", R"("custom":0)"), "boards[0]: \"custom\" is not true or false");
  EXPECT_EQ(with(R"("goal":"time")", R"("goal":"fastest")"),
            "boards[0]: \"goal\" is not \"time\", \"score\" or \"lines\"");
  EXPECT_EQ(with(R"("board":"sprint-40l")", R"("board":"Sprint 40L")"), "boards[0]: \"board\" is not a board id");
  EXPECT_EQ(with(R"("board":"sprint-40l")", R"("board":"")"), "boards[0]: \"board\" is not a board id");
  EXPECT_EQ(with(R"("mode":"sprint",)", ""), "boards[0]: \"mode\" is missing");
  EXPECT_EQ(with(R"("mode":"sprint")", R"("mode":["sprint"])"), "boards[0]: \"mode\" is not a string");
  EXPECT_EQ(with(R"("limit":"40 lines")", "\"limit\":\"" + std::string(65, 'l') + "\""),
            "boards[0]: \"limit\" is over 64 bytes");
  // The first problem is said, in the order of the members read.
  EXPECT_EQ(error(R"({"board":"x!","mode":5})"), "boards[0]: \"board\" is not a board id");
}

TEST(RecordBoards, MoreBoardsThanTheGameReadsAreRefused) {
  std::string many = R"({"boards":[)";
  for (std::size_t i = 0; i <= kMaxBoards; ++i) {
    if (i > 0) many += ",";
    many +=
        R"({"board":"sprint-40l","mode":"sprint","limit":"40 lines","goal":"time","custom":false,"trusted":1,"other":0})";
  }
  many += "]}";
  EXPECT_EQ(parse_record_boards(many).error(), "\"boards\" holds 1001 values, more than the 1000 the game reads");
}

TEST(RecordBoards, EveryMemberOfAnEntryIsChecked) {
  EXPECT_EQ(page_error(entry_with("place", "0")), "entries[0]: \"place\" is not a whole number from 1 to 1000000000");
  EXPECT_EQ(page_error(entry_with("place", "\"1\"")),
            "entries[0]: \"place\" is not a whole number from 1 to 1000000000");
  EXPECT_EQ(page_error(entry_with("time_us", "41.5")),
            "entries[0]: \"time_us\" is not a whole number from 0 to 1099511627776");
  EXPECT_EQ(page_error(entry_with("time_us", "99999999999999999999")),
            "entries[0]: \"time_us\" is not a whole number from 0 to 1099511627776");
  EXPECT_EQ(page_error(entry_with("score", "-5")),
            "entries[0]: \"score\" is not a whole number from 0 to 4611686018427387904");
  EXPECT_EQ(page_error(entry_with("rules_version", "0")),
            "entries[0]: \"rules_version\" is not a whole number from 1 to 65535");
  EXPECT_EQ(page_error(entry_with("rules_version", "65536")),
            "entries[0]: \"rules_version\" is not a whole number from 1 to 65535");
  EXPECT_EQ(page_error(entry_with("played_unix_ms", "253402300800000")),
            "entries[0]: \"played_unix_ms\" is not a whole number from 0 to 253402300799999");
  EXPECT_EQ(page_error(entry_with("key_id", "\"CB2F5160\"")),
            "entries[0]: \"key_id\" is not 8 lower-case hexadecimal digits");
  EXPECT_EQ(page_error(entry_with("key_id", "\"cb2f516\"")),
            "entries[0]: \"key_id\" is not 8 lower-case hexadecimal digits");
  EXPECT_EQ(page_error(entry_with("key", "\"" + kKey.substr(1) + "\"")),
            "entries[0]: \"key\" is not 64 lower-case hexadecimal digits");
  EXPECT_EQ(page_error(entry_with("server_key_id", "12")),
            "entries[0]: \"server_key_id\" is not 8 lower-case hexadecimal digits");
  EXPECT_EQ(page_error(entry_with("game", "\"00000000000000fg\"")),
            "entries[0]: \"game\" is not 16 lower-case hexadecimal digits");
  EXPECT_EQ(page_error(entry_with("record", "\"../../etc\"")), "entries[0]: \"record\" is not a record id");
  EXPECT_EQ(page_error(entry_with("player", "null")), "entries[0]: \"player\" is not a string");
  EXPECT_EQ(page_error(entry_with("player", "\"" + std::string(65, 'a') + "\"")),
            "entries[0]: \"player\" is over 64 bytes");
  EXPECT_EQ(page_error(entry_with("server", "\"" + std::string(65, 's') + "\"")),
            "entries[0]: \"server\" is over 64 bytes");
  EXPECT_EQ(page_error(entry_with("server_web", "\"" + std::string(201, 'w') + "\"")),
            "entries[0]: \"server_web\" is over 200 bytes");
  EXPECT_EQ(page_error(page_json(entry_json() + ",3")), "entries[1] is not an object");
  std::string no_server = entry_json();
  no_server.erase(no_server.find(R"("server":"Ada's server",)"), std::string(R"("server":"Ada's server",)").size());
  EXPECT_EQ(page_error(page_json(no_server)), "entries[0]: \"server\" is missing");
  // 64 bytes exactly are fine, and a name of UTF-8 letters counts bytes, not letters.
  EXPECT_EQ(page_error(entry_with("player", "\"" + std::string(64, 'a') + "\"")), "(parsed)");
  std::string e_acute_32;
  for (int i = 0; i < 32; ++i) e_acute_32 += "\xc3\xa9";
  EXPECT_EQ(page_error(entry_with("player", "\"" + e_acute_32 + "\"")), "(parsed)");
  EXPECT_EQ(page_error(entry_with("player", "\"" + e_acute_32 + "\xc3\xa9\"")),
            "entries[0]: \"player\" is over 64 bytes");
}

TEST(RecordBoards, ControlCharactersInTextsAreShownAsQuestionMarks) {
  auto got =
      parse_record_page(entry_with("player", R"("a\u0000b\nc\u007fd\u00e9")"), "sprint-40l", RecordList::kTrusted, 20);
  ASSERT_TRUE(got.ok()) << got.error();
  EXPECT_EQ(got.value().entries[0].player, "a?b?c?d\xc3\xa9");
}

TEST(RecordBoards, APageMustBeTheBoardAndListAskedForAndNoLonger) {
  EXPECT_EQ(page_error(page_json(entry_json()), 1), "(parsed)");
  EXPECT_EQ(page_error(page_json(entry_json(1) + "," + entry_json(2)), 1),
            "\"entries\" holds 2 values, more than the 1 asked for");
  std::string other = page_json(entry_json());
  other.replace(other.find("\"list\":\"trusted\""), 16, "\"list\":\"other\"");
  EXPECT_EQ(page_error(other), "\"list\" is other, not the trusted list asked for");
  std::string ultra = page_json(entry_json());
  ultra.replace(0, std::string(R"({"board":"sprint-40l")").size(), R"({"board":"ultra-120s")");
  EXPECT_EQ(page_error(ultra), "\"board\" is ultra-120s, not the sprint-40l asked for");
  EXPECT_EQ(page_error(R"({"board":"sprint-40l","list":"everyone","total":0,"entries":[]})"),
            "\"list\" is not \"trusted\" or \"other\"");
  EXPECT_EQ(page_error(R"({"board":"sprint-40l","list":"trusted","entries":[]})"), "\"total\" is missing");
  EXPECT_EQ(page_error(R"({"board":"sprint-40l","list":"trusted","total":0,"entries":"none"})"),
            "\"entries\" is not an array");
  EXPECT_EQ(page_error(R"({"board":"sprint-40l","list":"trusted","total":0,"entries":[]})"), "(parsed)");
}

TEST(RecordBoards, APlaceIsCheckedAgainstItsBoardAndCount) {
  const auto error = [](const std::string& json) {
    auto got = parse_record_place(json, "sprint-40l");
    return got ? std::string("(parsed)") : got.error();
  };
  EXPECT_EQ(error(R"({"board":"sprint-40l","list":"trusted","place":14,"of":12})"),
            "\"place\" is not a whole number from 1 to 13");
  EXPECT_EQ(error(R"({"board":"sprint-40l","list":"trusted","place":0,"of":12})"),
            "\"place\" is not a whole number from 1 to 13");
  EXPECT_EQ(error(R"({"board":"ultra-120s","list":"trusted","place":1,"of":12})"),
            "\"board\" is ultra-120s, not the sprint-40l asked for");
  EXPECT_EQ(error(R"({"board":"sprint-40l","list":"trusted","place":1})"), "\"of\" is missing");
  EXPECT_EQ(error(R"({"board":"sprint-40l","list":"trusted","place":1,"of":1e400})"),
            "the answer is not JSON (at byte 54)");
  EXPECT_EQ(error(R"({"error":"no such board"})"), "\"board\" is missing");
}

}  // namespace
}  // namespace sr::client
