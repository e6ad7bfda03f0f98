// The attacks of issue 15, each made only of well-formed messages within today's per-player limit (server/player.h:
// 400 at once, 200 a second), sent from other loopback addresses than the honest players' (127.0.0.2 on; Linux
// routes all of 127/8 to lo). Each attack client is a raw ENet peer: the attacker picks its source address and
// decides how slowly it reads, which net::Connection (a well-behaved client) never would. tests/abuse/README.md says
// what each attack does.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/result.h"

namespace sr::abuse {

// The first five are issue 15's, from one address or a handful; the others issue 30's, from many (README.md).
enum class AttackKind : std::uint8_t {
  kSilent,
  kDownload,
  kList,
  kJoinLeave,
  kRooms,
  kIdle,
  kListRooms,
  kCatchUp,
  kTheft
};

[[nodiscard]] const char* attack_name(AttackKind kind);
// "silent", "download", "list", "joinleave", "rooms", "idle", "listrooms", "catchup", "theft"; nullopt for another
// name.
[[nodiscard]] std::optional<AttackKind> attack_by_name(const std::string& name);

// A racer's RaceSeat as an attacker might have seen it (a log, a shared screen): the honest side publishes it, the
// theft attack reads it. Thread-safe.
class SeenSeat {
 public:
  void publish(std::uint32_t race_id, std::uint64_t hi, std::uint64_t lo) {
    const std::lock_guard lock(mutex_);
    seat_ = {race_id, hi, lo};
  }
  struct Seat {
    std::uint32_t race_id = 0;
    std::uint64_t hi = 0, lo = 0;
  };
  [[nodiscard]] std::optional<Seat> get() const {
    const std::lock_guard lock(mutex_);
    if (seat_.race_id == 0) return std::nullopt;
    return seat_;
  }

 private:
  mutable std::mutex mutex_;
  Seat seat_;
};

struct AttackPlan {
  std::vector<AttackKind> kinds;       // all of them at once
  std::vector<std::string> addresses;  // the attacker's source addresses; each kind spreads its clients over them
  std::uint16_t port = 0;              // the server's, on 127.0.0.1
  int silent_connections = 1'100;      // connections that never say Hello, kept open (reopened when dropped)
  int download_players = 1;            // each asks for download_game_id downloads_per_s times a second ...
  int downloads_per_s = 100;
  std::uint64_t download_game_id = 0;
  int download_read_every_ms = 200;  // ... and reads (and acknowledges) only this often, with the smallest window
  int list_players = 20;             // each sends ListGames{before_game_id = list_marker} lists_per_s times a second
  int lists_per_s = 20;
  std::uint64_t list_marker = 0;
  int joinleave_spectators = 50;  // each joins one of target_rooms as a spectator and leaves, over and over
  std::vector<std::uint32_t> target_rooms;
  int room_players = 250;     // each creates a room and idles
  int idle_players = 1'116;   // each says Hello and nothing more (18 addresses x 62 in the issue)
  int listroom_players = 40;  // each sends ListRooms listrooms_per_s times a second
  int listrooms_per_s = 9;
  int catchup_spectators =
      50;  // each joins target_rooms' first as a spectator and leaves, catchup_joins_per_s a second
  int catchup_joins_per_s = 2;
  int theft_players = 10;  // each sends Resume with a token it saw (SeenSeat), again a second after every refusal
  std::shared_ptr<SeenSeat> seen_seat;
};

// What the attacker got done and what the server answered, for the report.
struct AttackCounters {
  std::int64_t connects = 0;   // connection attempts
  std::int64_t connected = 0;  // ENet connections the server accepted
  std::int64_t welcomed = 0;
  std::map<std::string, std::int64_t> rejects;      // Reject reason -> count
  std::map<std::string, std::int64_t> notices;      // Notice code -> count
  std::map<std::string, std::int64_t> disconnects;  // DisconnectReason (ENet data) -> count
  std::int64_t requests = 0;                        // messages sent after Hello
  std::int64_t game_lists = 0;
  std::int64_t chunk_bytes = 0;   // ReplayChunk data received
  std::int64_t rooms_joined = 0;  // RoomJoined (joins, and rooms created)
  std::int64_t rooms_left = 0;
  std::int64_t open_peak = 0;    // most connections open at once
  std::int64_t catch_ups = 0;    // CatchUpStart received
  std::int64_t race_bytes = 0;   // bytes received on the race channel (catch-ups and the relays after them)
  std::int64_t room_lists = 0;   // RoomList received
  std::int64_t seats_taken = 0;  // RaceResumed received by the theft attack: a seen token took a live racer's seat
  double seconds = 0;            // from start() to stop()
};

// One line: "1100 connects, 1064 connected, 0 welcomed; rejects: ...; notices: ...".
[[nodiscard]] std::string describe(const AttackCounters& c);

class Attacker {
 public:
  explicit Attacker(AttackPlan plan);
  ~Attacker();  // stops
  Attacker(const Attacker&) = delete;
  Attacker& operator=(const Attacker&) = delete;

  // Binds a host per kind and address and starts the attack on a thread of its own. Ok, or why not (an address that
  // cannot be bound).
  [[nodiscard]] sr::Status<std::string> start();
  // Ends the attack (every connection dropped at once) and returns what it did. Idempotent.
  AttackCounters stop();

 private:
  struct Group;
  void loop();

  AttackPlan plan_;
  std::vector<std::unique_ptr<Group>> groups_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  AttackCounters counters_;
  std::chrono::steady_clock::time_point started_{};
};

}  // namespace sr::abuse
