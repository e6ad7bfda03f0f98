// The JSON the pages read (web/wasm/json_views.h, json_writer.h): exact texts, as web/README.md documents them.
#include "web/wasm/json_views.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/replays/test_support.h"
#include "web/wasm/json_writer.h"

namespace sr::web {
namespace {

namespace rt = replay::testing;

std::unique_ptr<ReplaySession> handwritten() {
  auto s = ReplaySession::open(rt::read_bytes(rt::data_dir() / "handwritten_tspin.json"),
                               replay::JsonOptions{.record_missing = true});
  EXPECT_TRUE(s.ok());
  return s.ok() ? std::move(s.value()) : nullptr;
}

TEST(JsonWriter, WritesNestedValuesWithCommas) {
  JsonWriter w;
  w.begin_object().key("a").value(1).key("b").begin_array().value("x").null().value(true).end_array();
  w.key("c").begin_object().end_object().end_object();
  EXPECT_EQ(w.text(), R"({"a":1,"b":["x",null,true],"c":{}})");
}

TEST(JsonWriter, EscapesQuotesBackslashesAndControls) {
  JsonWriter w;
  w.value(std::string_view("a\"b\\c\n\x01\xc3\xa9", 9));
  EXPECT_EQ(w.text(), "\"a\\\"b\\\\c\\u000a\\u0001\xc3\xa9\"");
}

TEST(JsonWriter, HashesAreSixteenHexDigits) {
  EXPECT_EQ(hex64(0), "0000000000000000");
  EXPECT_EQ(hex64(0x0123456789abcdefULL), "0123456789abcdef");
  EXPECT_EQ(hex64(~0ULL), "ffffffffffffffff");
}

TEST(JsonViews, EngineInfo) {
  EXPECT_EQ(engine_info_json(),
            R"({"rules_version":1,"oldest_rules_version":1,"format_version":1,"snapshot_every":32})");
}

TEST(JsonViews, SummaryOfTheHandWrittenTSpin) {
  const auto s = handwritten();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(summary_json(*s),
            R"({"format":"json","rules_version":1,"created_unix_ms":0,"place":"written by hand","seed":"0",)"
            R"("checkpoint_every":25,"end_us":500000,"config":{"mode":"custom","limit":"none","limit_value":0,)"
            R"("goal":"score","rotation":"srs","allow_180":true,"generator":"fixed","initial_rows":3,)"
            R"("hold_enabled":true,"preview":5,"gravity":"level_table","start_level":1,"level_up":true,)"
            R"("goal_system":"fixed","lock_down":"extended","lock_delay_us":500000,"scoring":"guideline",)"
            R"("all_spin":false},"verdict":"verified","message":"verified 1 racer","racers":[{"name":"by hand",)"
            R"("verified":true,"disagreement":null,"status":"forfeited","top_out":"none",)"
            R"("final_hash":")" +
                hex64(s->replay().racers[0].result.final_hash) +
                R"(","unverified_us":0,"reconnects":0,"changes":8,"handling":{"das_us":167000,"arr_us":33000,)"
                R"("sdf":0,"dcd_us":0,"are_us":0,"line_clear_delay_us":0,"irs":true,"ihs":true},)"
                R"("stats":{"time_us":500000,"pieces":1,"lines":2,"score":1218,"level":1,"key_presses":4,"holds":0,)"
                R"("singles":0,"doubles":0,"triples":0,"tetrises":0,"tspins":0,"tspin_singles":0,"tspin_doubles":1,)"
                R"("tspin_triples":0,"minis":0,"mini_singles":0,"mini_doubles":0,"perfect_clears":0,"max_combo":0,)"
                R"("max_b2b":0}}]})");
}

std::string rows(int count, const char* row) {
  std::string out;
  for (int i = 0; i < count; ++i) out += std::string(",\"") + row + "\"";
  return out;
}

TEST(JsonViews, FrameOfTheHandWrittenTSpinAtTheStartAndTheEnd) {
  const auto s = handwritten();
  ASSERT_NE(s, nullptr);
  RacerCursor& c = s->cursor(0);
  EXPECT_EQ(frame_json(c),
            R"({"time_us":0,"changes":0,"phase":"falling","finished":false,"top_out":"none","board":[)"
            R"("GGGG.GGGGG","GGG...GGGG","GGGG......")" +
                rows(37, "..........") +
                R"(],"active":{"piece":"T","rotation":0,"x":3,"y":18,"cells":[[4,20],[3,19],[4,19],[5,19]],)"
                R"("ghost_y":2,"ghost_cells":[[4,4],[3,3],[4,3],[5,3]]},"hold":null,"hold_used":false,)"
                R"("next":["I","O","L","J","S"],"buttons":0,"stats":{"time_us":0,"pieces":0,"lines":0,"score":0,)"
                R"("level":1,"key_presses":0,"holds":0,"singles":0,"doubles":0,"triples":0,"tetrises":0,"tspins":0,)"
                R"("tspin_singles":0,"tspin_doubles":0,"tspin_triples":0,"minis":0,"mini_singles":0,)"
                R"("mini_doubles":0,"perfect_clears":0,"max_combo":0,"max_b2b":0,"pps_x100":0,"kpp_x100":0,)"
                R"("lines_left":0},"state_hash":")" +
                hex64(c.game().state_hash()) + R"("})");
  // After the T-spin double: the two full rows are gone, the I is out, 1 piece in 0.5 s is 2.00 pieces a second
  // for 4 key presses.
  c.seek_time(c.end_us());
  const std::string end = frame_json(c);
  EXPECT_NE(end.find(R"("board":["GGGG......","..........",)"), std::string::npos) << end;
  EXPECT_NE(end.find(R"("active":{"piece":"I")"), std::string::npos) << end;
  EXPECT_NE(end.find(R"("buttons":0,)"), std::string::npos) << end;
  EXPECT_NE(end.find(R"("pps_x100":200,"kpp_x100":400,)"), std::string::npos) << end;
  EXPECT_NE(end.find(R"("tspin_doubles":1,)"), std::string::npos) << end;
}

TEST(JsonViews, TrackListsEveryChangeLockAndTheEnd) {
  const auto s = handwritten();
  ASSERT_NE(s, nullptr);
  const RacerCursor& c = s->cursor(0);
  std::string want = R"({"changes":[)";
  const int times[] = {100000, 150000, 200000, 250000, 300000, 350000, 400000, 450000};
  const int buttons[] = {16, 0, 4, 0, 16, 0, 8, 0};
  for (std::size_t i = 0; i < 8; ++i) {
    want += std::string(i == 0 ? "" : ",") + "[" + std::to_string(times[i]) + "," + std::to_string(buttons[i]) + ",\"" +
            hex64(c.change_hash(i + 1)) + "\"]";
  }
  want += R"(],"locks":[400000],"end_us":500000,"end_hash":")" + hex64(c.end_hash()) + R"("})";
  EXPECT_EQ(track_json(c), want);
}

}  // namespace
}  // namespace sr::web
