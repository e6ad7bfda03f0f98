// The live pages' view of every public room (web/README.md, "The live feed"), kept by the web thread from what the
// game loop hands it (LiveTap): each room's latest state, its current race as a list of Server-Sent Events frames
// from the countdown on, its latest live stats and its last chat lines. A watcher joining at any moment gets the
// room, the whole race so far (so the page catches up at once, as the game's spectators do) and then every new frame.
//
// Frames are immutable strings shared by every watcher: a room with 500 watchers holds each frame once, and a
// watcher is only a few positions into its room (Watcher). Web thread only; pure (no sockets, no clock), tested by
// tests/web_server/live_rooms_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/live_tap.h"
#include "server/web/web_limits.h"

namespace sr::server::web {

// One Server-Sent Events frame: "event: NAME\ndata: JSON\n\n".
using Frame = std::shared_ptr<const std::string>;

// One race's frames, from its `race` frame on: only ever appended to.
struct RaceFeed {
  std::uint32_t race_id = 0;
  std::vector<Frame> frames;
  std::size_t bytes = 0;
  bool cut = false;  // over the feed limits: its last frame says so and nothing more is added
};

struct RoomFeed {
  RoomId id = 0;
  Frame room;  // the latest `room` frame
  std::uint64_t room_version = 0;
  Frame stats;  // the latest `stats` frame of the current race (null between races)
  std::uint64_t stats_version = 0;
  std::shared_ptr<RaceFeed> race;  // the current or last race; null before the first one seen
  std::deque<Frame> chat;          // the last kChatKept `chat` frames
  std::uint64_t chat_count = 0;    // every chat line ever: chat.back() is line number chat_count
  Frame closed;                    // set once the room is gone (or private): the last frame its watchers get
  std::optional<protocol::RoomInfo> info;
  std::uint64_t last_seq = 0;  // LiveTap::RoomMessage::seq of its last message
};

// Where one watcher of a room is. Starts at the room's current state (what next_frames() sends first).
struct Watcher {
  std::shared_ptr<RoomFeed> feed;
  std::shared_ptr<RaceFeed> race;  // the race being sent (may be older than feed->race until it is all sent)
  std::size_t next_frame = 0;      // in race->frames
  std::uint64_t room_version = 0;  // sent so far
  std::uint64_t stats_version = 0;
  std::uint64_t chat_count = 0;
  bool closed_sent = false;
};

class LiveRooms {
 public:
  static constexpr std::size_t kChatKept = 20;

  explicit LiveRooms(const WebLimits& limits) : limits_(limits) {}

  // Takes in what the game loop sent. Returns the rooms that have something new for their watchers.
  std::vector<RoomId> apply(LiveTap::Batch batch);

  [[nodiscard]] std::shared_ptr<RoomFeed> room(RoomId id) const;
  [[nodiscard]] const std::optional<LobbySnapshot>& lobby() const { return lobby_; }
  [[nodiscard]] std::size_t room_count() const { return rooms_.size(); }
  // Bytes held in the current races' frames, every room together.
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

  // A new watcher of `feed`, at its start: it will get the room, the whole current race, the stats and the chat.
  [[nodiscard]] static Watcher watch(std::shared_ptr<RoomFeed> feed);
  // Appends to `out` the frames `watcher` should get next, about `max_bytes` at most (at least one frame when there
  // is one), and moves the watcher past them. Order: the room when it changed, the race's frames, then the latest
  // stats and new chat lines; the `closed` frame last of all.
  static void next_frames(Watcher& watcher, std::vector<Frame>& out, std::size_t max_bytes);
  // Whether the watcher has been sent the room's `closed` frame (its stream should end once written).
  [[nodiscard]] static bool finished(const Watcher& watcher) { return watcher.closed_sent; }

 private:
  std::shared_ptr<RoomFeed>& feed_of(RoomId id);
  void on_message(RoomFeed& feed, const protocol::Message& message);
  void append(RoomFeed& feed, Frame frame);
  void close(RoomId id, const char* reason);

  WebLimits limits_;
  std::map<RoomId, std::shared_ptr<RoomFeed>> rooms_;
  std::optional<LobbySnapshot> lobby_;
  std::size_t bytes_ = 0;
  std::vector<RoomId> touched_;
};

// Builds one frame: "event: `event`\ndata: `json`\n\n" (json must hold no newline, as JsonWriter's never does).
[[nodiscard]] Frame make_frame(const char* event, const std::string& json);

}  // namespace sr::server::web
