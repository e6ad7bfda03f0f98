// What the game loop hands to the web pages (server/web, docs/ARCHITECTURE.md "The web pages"): every message a
// public room sends to all its members (Room::broadcast: room updates, countdowns, relayed inputs, live stats,
// endings, results, stored replays, room chat), and every half second a snapshot of the lobby.
//
// # No lock a browser can hold
// The game loop only appends to a vector under a mutex held for that append (and writes an eventfd when the vector
// was empty). The web thread takes everything at once by swapping the vector out under the same mutex, then works on
// its own copy: it never holds the mutex while it reads or writes a socket, so a browser, however slow, can never make
// the game loop wait. Memory is bounded: past kMaxPending messages the tap drops what comes and says so to the web
// thread (take().overflowed), which then ends its live views of the rooms concerned (their watchers are told).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/protocol/messages.h"
#include "server/player.h"

namespace sr::server {

// The lobby as the front page shows it: the public rooms with their members, and the contest ladder.
struct LobbySnapshot {
  std::string server_name;
  std::string motd;
  std::uint16_t game_port = 0;             // the UDP port the game connects to
  std::size_t players = 0;                 // connected players
  std::vector<protocol::RoomInfo> rooms;   // public rooms only, by id; `code` is always empty
  std::optional<protocol::Ladder> ladder;  // when the server runs a contest ladder
  std::int64_t unix_ms = 0;                // when it was taken (wall clock)
  // Room messages the tap had taken in when the snapshot arrived (LiveTap::RoomMessage::seq): a room missing from
  // the snapshot is gone only if its last message is older than that.
  std::uint64_t tap_seq = 0;
};

class LiveTap {
 public:
  static constexpr std::size_t kMaxPending = 200'000;  // messages waiting for the web thread
  static constexpr std::int64_t kLobbyEveryUs = 500'000;

  LiveTap();
  ~LiveTap();
  LiveTap(const LiveTap&) = delete;
  LiveTap& operator=(const LiveTap&) = delete;

  struct RoomMessage {
    RoomId room = 0;
    bool is_private = false;  // the message itself is not kept: the web side forgets the room
    std::uint64_t seq = 0;    // 1, 2, ... in the order the game loop sent them
    protocol::Message message;
  };

  // Game loop: a message room `room` sent to all its members.
  void room_message(RoomId room, bool is_private, const protocol::Message& message);
  // Game loop: a new lobby snapshot (replaces one the web thread has not taken yet).
  void lobby(LobbySnapshot snapshot);

  // Web thread: everything since the last take(), in the order it came.
  struct Batch {
    std::vector<RoomMessage> messages;
    std::optional<LobbySnapshot> lobby;
    bool overflowed = false;  // messages were dropped since the last take()
  };
  [[nodiscard]] Batch take();
  // Readable (an eventfd) while something waits to be taken; -1 if the system gave no eventfd (then poll take()).
  [[nodiscard]] int wake_fd() const { return wake_fd_; }

 private:
  void wake();  // called with mutex_ held, when the first thing arrives after a take()

  std::mutex mutex_;
  std::vector<RoomMessage> pending_;
  std::optional<LobbySnapshot> lobby_;
  bool overflowed_ = false;
  bool woken_ = false;
  std::uint64_t seq_ = 0;
  int wake_fd_ = -1;
};

}  // namespace sr::server
