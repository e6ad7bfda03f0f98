// The server's budget for race catch-ups (docs/ARCHITECTURE.md, "Live stats and spectators"): a spectator who joins a
// running race gets every racer's input log so far, ~21 KB for a few racers a minute in, far more for a full room
// late in a long race. Joins are limited per address (AddressLimits::joins_per_second), but 50 addresses joining and
// leaving at their 2 a second pulled about 2 MB/s of catch-ups. So catch-ups spend one server-wide budget of bytes a
// second; a catch-up beyond it waits in this queue (it is never refused) and goes as soon as the budget allows, the
// address served longest ago first, so a spectator from an address that rarely joins is served before a busy one.
//
// Pure bookkeeping: time is passed in (microseconds, non-decreasing), nothing is sent. The lobby asks a room to send
// each catch-up the queue hands out, and the room says how many bytes it sent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "server/player.h"

namespace sr::server {

using TimeUs = std::int64_t;

struct CatchUpLimits {
  // Catch-up bytes from all rooms together: 1 MiB at once (about 50 catch-ups of a short race: a crowd arriving for a
  // final is served at once), 256 KiB a second after that (a dozen of them a second). A catch-up may start while the
  // budget is above zero and is then charged in full, so one larger than the burst still goes.
  std::int64_t bytes_burst = 1 << 20;
  std::int64_t bytes_per_second = 256 << 10;
};

class CatchUpQueue {
 public:
  struct Request {
    PlayerId player = 0;
    RoomId room = 0;
    std::uint32_t race_id = 0;  // the race to catch up on: a request for a race that has ended is dropped
    std::string host;
    bool trusted = false;  // AddressLimits::trusted: served at once, charged all the same
    std::uint64_t order = 0;
  };
  // Sends one catch-up: the bytes sent, or nullopt when the request no longer applies (the player left the room, the
  // race ended): nothing is charged then.
  using Send = std::function<std::optional<std::size_t>(const Request&)>;

  explicit CatchUpQueue(CatchUpLimits limits = {});

  // `player` joined `room` during race `race_id` and wants its catch-up. Replaces any request of the player's.
  void request(PlayerId player, RoomId room, std::uint32_t race_id, const std::string& host, bool trusted,
               TimeUs now_us);
  // The player left or disconnected: their request, if any, is dropped.
  void forget(PlayerId player) { waiting_.erase(player); }
  // Sends what the budget allows, fairest first: trusted requests, then by the time their address was last served
  // (never first), then in the order asked. Returns how many were sent.
  std::size_t serve(TimeUs now_us, const Send& send);
  // Forgets when addresses were last served once that is long past (call now and then).
  void purge(TimeUs now_us);

  [[nodiscard]] bool waiting(PlayerId player) const { return waiting_.count(player) != 0; }
  [[nodiscard]] std::size_t size() const { return waiting_.size(); }
  [[nodiscard]] std::int64_t budget(TimeUs now_us);
  [[nodiscard]] std::uint64_t bytes_sent() const { return bytes_sent_; }

 private:
  void refill(TimeUs now_us);
  // The next request to serve, or null.
  [[nodiscard]] const Request* next() const;

  CatchUpLimits limits_;
  std::map<PlayerId, Request> waiting_;
  std::map<std::string, TimeUs> served_;  // host -> when its last catch-up went
  std::int64_t budget_;                   // bytes; below zero after a catch-up larger than what was left
  TimeUs refilled_us_ = -1;
  std::uint64_t next_order_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace sr::server
