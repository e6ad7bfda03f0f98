// The live race of a web page (web/wasm/live_race.h): fed a race's inputs in relays of any size, each with the time
// the server vouched for, every racer's game is the one the replay's own feeding gives; gaps and bad changes are
// refused without touching the game; the C functions behave on bad handles.
#include "web/wasm/live_race.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/replay/codec.h"
#include "common/replay/simulate.h"
#include "tests/replays/test_support.h"
#include "web/wasm/api.h"
#include "web/wasm/json_views.h"
#include "web/wasm/racer_cursor.h"
#include "web/wasm/replay_session.h"

namespace sr::web {
namespace {

namespace rt = replay::testing;

// The race's start as the server's live feed sends it: the replay with every racer and no inputs.
std::string start_json(const replay::Replay& r) {
  replay::Replay start = r;
  for (replay::Racer& racer : start.racers) {
    racer.inputs.clear();
    racer.result = {};
    racer.checkpoints.clear();
  }
  return replay::encode_json(start);
}

std::span<const std::uint8_t> bytes(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

replay::Replay race_sprint() {
  auto r = replay::decode_binary(rt::read_bytes(rt::data_dir() / "race_sprint.srr"));
  EXPECT_TRUE(r.ok());
  return r.value();
}

TEST(LiveRace, RelaysOfAnySizeGiveTheReplaysOwnGames) {
  const replay::Replay r = race_sprint();
  ASSERT_EQ(r.racers.size(), 3u);
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{3}, std::size_t{17}, std::size_t{4096}}) {
    auto opened = LiveRace::open(bytes(start_json(r)));
    ASSERT_TRUE(opened.ok()) << opened.error();
    LiveRace& live = *opened.value();
    ASSERT_EQ(live.racer_count(), 3u);
    for (std::size_t i = 0; i < r.racers.size(); ++i) {
      const auto& inputs = r.racers[i].inputs;
      for (std::size_t first = 0; first < inputs.size(); first += chunk) {
        const std::size_t n = std::min(chunk, inputs.size() - first);
        const std::span<const engine::InputChange> relay(inputs.data() + first, n);
        // The server vouches up to the last change's time (a heartbeat may say more; the next change is later).
        const engine::TimeUs now = first + n < inputs.size() ? inputs[first + n].time_us : relay.back().time_us;
        ASSERT_TRUE(live.push(i, static_cast<std::uint32_t>(first), now, relay).ok());
      }
      live.end(i, r.racers[i].result.stats.time_us);
      EXPECT_EQ(live.racer(i).log.size(), inputs.size());
      // The recorded final hash is the state at the end of the canonical feeding.
      EXPECT_EQ(live.racer(i).game.state_hash(), r.racers[i].result.final_hash) << "racer " << i << " chunk " << chunk;
    }
  }
}

TEST(LiveRace, ARelayAlreadyHeldIsSkippedAndAGapIsRefused) {
  const replay::Replay r = race_sprint();
  auto live = LiveRace::open(bytes(start_json(r))).value();
  const auto& in = r.racers[0].inputs;
  ASSERT_TRUE(live->push(0, 0, in[4].time_us, std::span(in.data(), 5)).ok());
  // The same changes again (a reconnect's catch-up) and an overlap: only the new ones count.
  ASSERT_TRUE(live->push(0, 0, in[4].time_us, std::span(in.data(), 5)).ok());
  ASSERT_TRUE(live->push(0, 3, in[7].time_us, std::span(in.data() + 3, 5)).ok());
  EXPECT_EQ(live->racer(0).log.size(), 8u);
  const std::uint64_t before = live->racer(0).game.state_hash();
  const auto gap = live->push(0, 10, in[12].time_us, std::span(in.data() + 10, 3));
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.error(), "a gap in racer 0's inputs: change 10 arrived with 8 held");
  EXPECT_EQ(live->racer(0).game.state_hash(), before);
  const engine::InputChange back{in[7].time_us - 1, 0};
  const auto went_back = live->push(0, 8, in[7].time_us, std::span(&back, 1));
  ASSERT_FALSE(went_back.ok());
  EXPECT_EQ(went_back.error(), "racer 0's inputs go back in time");
  const engine::InputChange unknown{in[8].time_us, 0x100};
  EXPECT_EQ(live->push(0, 8, in[8].time_us, std::span(&unknown, 1)).error(), "racer 0 pressed unknown buttons");
  EXPECT_EQ(live->push(3, 0, 0, {}).error(), "no racer 3");
  EXPECT_EQ(live->racer(0).game.state_hash(), before);
}

TEST(LiveRace, AStartThatDoesNotDecodeSaysWhy) {
  const auto opened = LiveRace::open(bytes(std::string("{\"rules_version\": 1}")));
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.error(), "config: missing member \"config\"");
}

TEST(LiveApi, FramesFollowThePushesAndBadHandlesAreRefused) {
  const replay::Replay r = race_sprint();
  const std::string start = start_json(r);
  const std::int32_t race = sr_live_open(bytes(start).data(), static_cast<std::uint32_t>(start.size()));
  ASSERT_GT(race, 0);
  const auto& in = r.racers[1].inputs;
  std::vector<double> pairs;
  for (std::size_t i = 0; i < 20; ++i) {
    pairs.push_back(static_cast<double>(in[i].time_us));
    pairs.push_back(in[i].buttons);
  }
  EXPECT_EQ(sr_live_push(race, 1, 0, static_cast<double>(in[19].time_us), pairs.data(), 20), 1);
  EXPECT_EQ(sr_live_changes(race, 1), 20);
  EXPECT_EQ(sr_live_changes(race, 0), 0);
  // The frame is the one the replay's cursor shows after those 20 changes.
  const std::vector<std::uint8_t> encoded = replay::encode_binary(r);
  auto session = ReplaySession::open(encoded);
  ASSERT_TRUE(session.ok());
  RacerCursor& cursor = session.value()->cursor(1);
  ASSERT_TRUE(cursor.seek_change(20));
  EXPECT_EQ(std::string(sr_live_frame(race, 1)), frame_json(cursor));
  // A gap, a bad racer, a bad handle.
  EXPECT_EQ(sr_live_push(race, 1, 25, 0, pairs.data(), 1), 0);
  EXPECT_EQ(std::string(sr_message()), "a gap in racer 1's inputs: change 25 arrived with 20 held");
  EXPECT_EQ(sr_live_push(race, 3, 0, 0, nullptr, 0), 0);
  EXPECT_EQ(sr_live_push(race + 100, 0, 0, 0, nullptr, 0), 0);
  EXPECT_EQ(std::string(sr_live_frame(race, -1)), "");
  EXPECT_EQ(sr_live_changes(race + 100, 0), -1);
  EXPECT_EQ(sr_live_end(race, 0, 1e6), 1);
  sr_live_close(race);
  EXPECT_EQ(std::string(sr_live_frame(race, 0)), "");
  EXPECT_EQ(sr_live_open(reinterpret_cast<const std::uint8_t*>("{"), 1), 0);
  EXPECT_FALSE(std::string(sr_message()).empty());
}

}  // namespace
}  // namespace sr::web
