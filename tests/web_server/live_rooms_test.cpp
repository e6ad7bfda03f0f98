// The live pages' view of the rooms (server/web/live_rooms.h): what the game loop broadcasts becomes frames, a
// watcher joining at any moment gets the room and the whole race so far, rooms that close or turn private end their
// watchers' streams, and the feeds stay within their limits. Players' text is escaped in every frame.
#include "server/web/live_rooms.h"

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/replay/codec.h"

namespace sr::server::web {
namespace {

constexpr const char* kHostile = "<script>x</scr";  // 14 bytes: a player name may be this

protocol::RoomInfo room_info(RoomId id, const std::string& name) {
  protocol::RoomInfo info;
  info.room_id = id;
  info.settings.name = name;
  info.settings.config = engine::make_sprint();
  info.code = "SECRET";
  info.host_id = 1;
  info.members = {{1, kHostile, protocol::Role::kRacer, true}, {2, "bob", protocol::Role::kSpectator, false}};
  return info;
}

protocol::CountdownStart countdown(std::uint32_t race_id) {
  protocol::CountdownStart m;
  m.race_id = race_id;
  m.seed = 1234;
  m.countdown_us = 3'000'000;
  m.config = engine::make_sprint();
  m.racers = {{1, kHostile, engine::Handling{}}, {3, "carol", engine::Handling{}}};
  return m;
}

protocol::RacerInputs inputs(std::uint32_t race_id, std::uint32_t player, std::uint32_t first, engine::TimeUs now) {
  return protocol::RacerInputs{race_id, player, first, now, {{now, engine::button::kMoveLeft}}};
}

// A tap's batch of messages from room `room`, numbered from `seq`.
LiveTap::Batch batch(RoomId room, std::vector<protocol::Message> messages, std::uint64_t seq = 1) {
  LiveTap::Batch b;
  for (auto& m : messages) b.messages.push_back(LiveTap::RoomMessage{room, false, seq++, std::move(m)});
  return b;
}

std::vector<std::string> drain(Watcher& w, std::size_t max_bytes = 1u << 20) {
  std::vector<std::string> out;
  for (;;) {
    std::vector<Frame> frames;
    LiveRooms::next_frames(w, frames, max_bytes);
    if (frames.empty()) return out;
    for (const Frame& f : frames) out.push_back(*f);
  }
}

std::string event_of(const std::string& frame) { return frame.substr(7, frame.find('\n') - 7); }

std::vector<std::string> events(const std::vector<std::string>& frames) {
  std::vector<std::string> out;
  for (const auto& f : frames) out.push_back(event_of(f));
  return out;
}

TEST(LiveRooms, AFrameIsAServerSentEvent) {
  EXPECT_EQ(*make_frame("chat", "{\"a\":1}"), "event: chat\ndata: {\"a\":1}\n\n");
}

TEST(LiveRooms, AWatcherJoiningMidRaceGetsTheRoomTheWholeRaceAndTheLatestStats) {
  LiveRooms rooms{WebLimits{}};
  const auto touched =
      rooms.apply(batch(5, {protocol::RoomUpdate{room_info(5, "room one")}, countdown(1), protocol::RaceStart{1, 0},
                            inputs(1, 1, 0, 1000), inputs(1, 3, 0, 2000), protocol::LiveStats{1, 5000, {}},
                            inputs(1, 1, 1, 3000), protocol::LiveStats{1, 6000, {}}}));
  EXPECT_EQ(touched, std::vector<RoomId>{5});
  Watcher w = LiveRooms::watch(rooms.room(5));
  const auto frames = drain(w);
  EXPECT_EQ(events(frames), (std::vector<std::string>{"room", "race", "start", "inputs", "inputs", "inputs", "stats"}));
  // Only the latest stats.
  EXPECT_NE(frames.back().find("\"race_time_us\":6000"), std::string::npos) << frames.back();
  EXPECT_NE(frames[3].find("\"player_id\":1,\"first_seq\":0,\"now_us\":1000,\"changes\":[[1000,1]]"), std::string::npos)
      << frames[3];
  // Then only what is new.
  rooms.apply(batch(5, {inputs(1, 3, 1, 7000)}, 100));
  EXPECT_EQ(events(drain(w)), std::vector<std::string>{"inputs"});
  EXPECT_TRUE(drain(w).empty());
}

TEST(LiveRooms, TheRaceFrameHoldsAReplayThePageOpens) {
  LiveRooms rooms{WebLimits{}};
  protocol::CountdownStart m = countdown(7);
  m.seed = 0xFEDCBA9876543210;  // beyond 2^53: the page must get it exactly
  rooms.apply(batch(5, {m}));
  Watcher w = LiveRooms::watch(rooms.room(5));
  const auto frames = drain(w);
  ASSERT_EQ(frames.size(), 1u);
  const std::string& f = frames[0];
  // One line of data (an event's data may not hold a newline), escaped for markup.
  ASSERT_EQ(f.rfind("event: race\ndata: ", 0), 0u);
  EXPECT_EQ(f.find('\n', 19), f.size() - 2);
  EXPECT_EQ(f.find('<'), std::string::npos);
  rapidjson::Document data;
  data.Parse(f.substr(18, f.size() - 20).c_str());
  ASSERT_FALSE(data.HasParseError()) << f;
  EXPECT_EQ(data["race_id"].GetInt(), 7);
  EXPECT_EQ(data["countdown_us"].GetInt64(), 3'000'000);
  EXPECT_EQ(std::string(data["racers"][0]["name"].GetString()), kHostile);
  EXPECT_EQ(data["racers"][1]["player_id"].GetInt(), 3);
  // The replay is a string holding its JSON, which the replay codec reads back.
  ASSERT_TRUE(data["replay"].IsString());
  const auto decoded = replay::decode_json(data["replay"].GetString());
  ASSERT_TRUE(decoded.ok()) << decoded.error().describe();
  EXPECT_EQ(decoded.value().seed, 0xFEDCBA9876543210u);
  EXPECT_EQ(decoded.value().config, engine::make_sprint());
  ASSERT_EQ(decoded.value().racers.size(), 2u);
  EXPECT_EQ(decoded.value().racers[0].name, kHostile);
  EXPECT_TRUE(decoded.value().racers[0].inputs.empty());
}

TEST(LiveRooms, PlayersTextIsEscapedEverywhere) {
  LiveRooms rooms{WebLimits{}};
  protocol::RaceResults results;
  results.race_id = 1;
  results.racers = {protocol::RacerResult{1, kHostile, 1}};
  rooms.apply(batch(5, {protocol::RoomUpdate{room_info(5, "\"><img src=x onerror=y>")}, countdown(1),
                        protocol::RacerEnded{1, 1, protocol::RacerStatus::kRemoved, 5, 0, "<b>rule</b>"}, results,
                        protocol::Chat{protocol::ChatScope::kRoom, 1, kHostile, "&lt;<script>\u202e"}}));
  Watcher w = LiveRooms::watch(rooms.room(5));
  for (const std::string& f : drain(w)) {
    EXPECT_EQ(f.find('<'), std::string::npos) << f;
    EXPECT_EQ(f.find('>'), std::string::npos) << f;
    EXPECT_EQ(f.find('&'), std::string::npos) << f;
    EXPECT_EQ(f.find("SECRET"), std::string::npos) << f;  // a room's code never reaches a page
  }
}

TEST(LiveRooms, AnOldRaceIsSentToItsEndBeforeTheNextOne) {
  LiveRooms rooms{WebLimits{}};
  rooms.apply(batch(5, {countdown(1), inputs(1, 1, 0, 1000)}));
  Watcher w = LiveRooms::watch(rooms.room(5));
  std::vector<Frame> first;
  LiveRooms::next_frames(w, first, 1);  // one frame at a time
  ASSERT_EQ(first.size(), 1u);
  rooms.apply(batch(5, {protocol::RaceResults{1, {}, 0, {}}, countdown(2), inputs(2, 3, 0, 10)}, 10));
  EXPECT_EQ(events(drain(w, 1)), (std::vector<std::string>{"inputs", "results", "race", "inputs"}));
  // A frame for a race this side never saw start is dropped.
  rooms.apply(batch(5, {inputs(9, 1, 0, 1)}, 20));
  EXPECT_TRUE(drain(w).empty());
}

TEST(LiveRooms, ChatKeepsTheLastLinesForNewWatchers) {
  LiveRooms rooms{WebLimits{}};
  std::vector<protocol::Message> lines;
  for (int i = 0; i < 25; ++i) lines.push_back(protocol::Chat{protocol::ChatScope::kRoom, 1, "a", std::to_string(i)});
  rooms.apply(batch(5, std::move(lines)));
  Watcher w = LiveRooms::watch(rooms.room(5));
  const auto frames = drain(w);
  ASSERT_EQ(frames.size(), LiveRooms::kChatKept);
  EXPECT_NE(frames.front().find("\"text\":\"5\""), std::string::npos);
  EXPECT_NE(frames.back().find("\"text\":\"24\""), std::string::npos);
  rooms.apply(batch(5, {protocol::Chat{protocol::ChatScope::kRoom, 1, "a", "new"}}, 100));
  EXPECT_EQ(drain(w).size(), 1u);
}

TEST(LiveRooms, ARoomGoneFromTheLobbyOrPrivateEndsItsStreams) {
  LiveRooms rooms{WebLimits{}};
  rooms.apply(batch(5, {protocol::RoomUpdate{room_info(5, "a")}}, 1));
  rooms.apply(batch(6, {protocol::RoomUpdate{room_info(6, "b")}}, 2));
  Watcher five = LiveRooms::watch(rooms.room(5));
  Watcher six = LiveRooms::watch(rooms.room(6));
  (void)drain(five);
  (void)drain(six);
  // A snapshot taken before room 7's first message does not close it; rooms 5 and 6 are gone from it.
  LiveTap::Batch b = batch(7, {protocol::RoomUpdate{room_info(7, "c")}}, 3);
  b.lobby = LobbySnapshot{};
  b.lobby->tap_seq = 2;
  rooms.apply(std::move(b));
  EXPECT_EQ(rooms.room(5), nullptr);
  EXPECT_EQ(rooms.room(6), nullptr);
  EXPECT_NE(rooms.room(7), nullptr);
  const auto last = drain(five);
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0], "event: closed\ndata: {\"reason\":\"the room has closed\"}\n\n");
  EXPECT_TRUE(LiveRooms::finished(five));
  LiveTap::Batch p;
  p.messages.push_back(LiveTap::RoomMessage{7, true, 4, {}});
  rooms.apply(std::move(p));
  EXPECT_EQ(rooms.room(7), nullptr);
}

TEST(LiveRooms, ALobbySnapshotMakesRoomsWatchableBeforeTheyBroadcast) {
  LiveRooms rooms{WebLimits{}};
  LiveTap::Batch b;
  b.lobby = LobbySnapshot{};
  b.lobby->rooms = {room_info(3, "quiet")};
  rooms.apply(std::move(b));
  ASSERT_NE(rooms.room(3), nullptr);
  Watcher w = LiveRooms::watch(rooms.room(3));
  const auto frames = drain(w);
  ASSERT_EQ(frames.size(), 1u);
  EXPECT_NE(frames[0].find("\"name\":\"quiet\""), std::string::npos);
}

TEST(LiveRooms, ARaceOverTheFeedLimitIsCutButItsEndStillComes) {
  // The race frame's size, then room for about ten inputs.
  LiveRooms probe{WebLimits{}};
  probe.apply(batch(5, {countdown(1)}));
  WebLimits limits;
  limits.max_race_feed_bytes = probe.bytes() + 1000;
  LiveRooms rooms{limits};
  std::vector<protocol::Message> messages = {countdown(1)};
  for (std::uint32_t i = 0; i < 40; ++i) messages.push_back(inputs(1, 1, i, 1000 * (i + 1)));
  messages.push_back(protocol::RacerEnded{1, 1, protocol::RacerStatus::kFinished, 50'000, 1, ""});
  rooms.apply(batch(5, std::move(messages)));
  Watcher w = LiveRooms::watch(rooms.room(5));
  const auto names = events(drain(w));
  ASSERT_GE(names.size(), 3u);
  EXPECT_EQ(names[names.size() - 2], "cut");
  EXPECT_EQ(names.back(), "ended");
  EXPECT_EQ(names.front(), "race");
  EXPECT_LE(rooms.bytes(), limits.max_race_feed_bytes + 400u);
}

TEST(LiveRooms, LostMessagesEndEveryStream) {
  LiveRooms rooms{WebLimits{}};
  rooms.apply(batch(5, {countdown(1)}));
  Watcher w = LiveRooms::watch(rooms.room(5));
  (void)drain(w);
  LiveTap::Batch b;
  b.overflowed = true;
  rooms.apply(std::move(b));
  EXPECT_EQ(rooms.room_count(), 0u);
  EXPECT_EQ(events(drain(w)), std::vector<std::string>{"closed"});
  EXPECT_EQ(rooms.bytes(), 0u);
}

}  // namespace
}  // namespace sr::server::web
