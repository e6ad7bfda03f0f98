// A room: its members and settings (waiting), and one race at a time (countdown -> racing -> results -> waiting).
// The room answers its members' requests and drives its race; it reads no clock (now_us is the server's
// monotonic clock) and sends through the Outbox.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/protocol/messages.h"
#include "common/result.h"
#include "server/catch_up_queue.h"
#include "server/live_tap.h"
#include "server/outbox.h"
#include "server/player.h"
#include "server/race.h"
#include "server/replay_writer.h"

namespace sr::server {

// How often a racing room sends what its members must hear of each other's games: every racer's changes logged since
// the last time (RacerInputs), and each racer's RaceInputAck. Every recipient then gets one datagram per period
// carrying all of it (the server flushes once per loop pass), where each input cost a datagram per opponent and an
// ack of its own (sent apart from ENet's acknowledgement, which goes out as the batch is read). It adds at most this
// long to what a player sees of the others, never anything to their own game (a player plays on without waiting for the
// server).
inline constexpr TimeUs kRelayEveryUs = 2'000;
// LiveStats that fall due wait this long at most for a relay period with news (Room::tick): the relay goes to every
// member (each other racer's changes, the racer's own RaceInputAck), so stats sent with it cost no datagram of their
// own. Without relay periods (relay_every_us 0) they go out when due.
inline constexpr TimeUs kLiveStatsHoldUs = 50'000;

// What a room needs from the server around it.
struct RoomServices {
  Outbox* outbox = nullptr;
  ReplayWriter* writer = nullptr;
  std::string server_name;  // the replay's "place"
  PaceLimits pace;
  std::uint64_t (*next_seed)(void* ctx) = nullptr;  // a fresh race seed
  void* seed_ctx = nullptr;
  std::int64_t (*unix_ms)() = nullptr;  // wall clock for the replay's creation time
  TimeUs countdown_us = 3'000'000;
  TimeUs live_stats_every_us = 100'000;
  // Relays go out once per this period (kRelayEveryUs), see Room::send_relays; 0 sends each at once.
  TimeUs relay_every_us = kRelayEveryUs;
  TimeUs max_race_us = 3600'000'000;  // a race still going after this long is ended (endless modes)
  // RaceResults wait for the replay to be durable (ReplayWriter), but no longer than this: then they go out with
  // ReplayNotStored "still being written" (a ReplayStored follows when the write ends).
  TimeUs results_wait_us = 5'000'000;
  // Told of every race's end with the referee's results, before the replay is written (the contest ladder records
  // its games' scores from them). May be empty.
  std::function<void(RoomId room, const protocol::RaceResults& results)> on_race_end;
  // Told of every race's replay job as it goes to the writer (with no writer, as it would): what the replay holds, and
  // the run signatures kept with it. For tests and tools; may be empty.
  std::function<void(const ReplayWriter::Job& job)> on_replay_job;
  // Web pages (server/web): every broadcast of a room goes to the live pages too. Null: no web pages.
  LiveTap* live = nullptr;
  // The server's catch-up budget: a spectator joining a running race is queued there, and the lobby has the room send
  // the catch-up when it is their turn (send_catch_up). Null: the catch-up goes at once with the join.
  CatchUpQueue* catch_ups = nullptr;
};

// Why a member's request was not done: refused with a notice to the sender, or so wrong that the sender is dropped.
struct RequestRefusal {
  enum class Kind : std::uint8_t { kRefused, kDropped };
  Kind kind = Kind::kRefused;
  protocol::NoticeCode code{};  // kRefused: the notice the sender gets
  std::string reason;           // kDropped: why the sender is disconnected (a protocol error)
  static RequestRefusal refused(protocol::NoticeCode code) { return {Kind::kRefused, code, {}}; }
  static RequestRefusal dropped(std::string why) { return {Kind::kDropped, {}, std::move(why)}; }
};

// What became of a member's request: done (ok), or a RequestRefusal.
using RequestResult = sr::Status<RequestRefusal>;

// Pace checks run this often in a race, not on every tick.
constexpr TimeUs kPaceCheckEveryUs = 100'000;

// A room's phase within a `period` (0 <= result < period) for its periodic work, so rooms started together do not
// all do it in the same loop pass. Consecutive ids land as far apart as possible (golden-ratio steps): any n rooms
// split the period into gaps of at most three sizes.
[[nodiscard]] TimeUs stagger(RoomId id, TimeUs period);

// 64 bits from the operating system's random source, for the seats' resume tokens (not guessable by other players).
[[nodiscard]] std::uint64_t secret64();

struct RoomCounters {
  std::uint64_t races_started = 0;
  std::uint64_t races_finished = 0;
  std::uint64_t racers_removed = 0;
  std::array<std::uint64_t, 7> racers_removed_by{};  // racers_removed by Violation (index = its value), for metrics
  std::uint64_t desyncs = 0;
  std::uint64_t inputs = 0;
  // Run signatures (RunSigned, PROTOCOL.md "Run signatures"): kept for a replay, and ignored (every other one).
  std::uint64_t run_signatures = 0;
  std::uint64_t run_signatures_refused = 0;

  void count_removal(Violation v) {
    ++racers_removed;
    const auto i = static_cast<std::size_t>(v);
    assert(i < racers_removed_by.size() && "a new Violation needs a slot in racers_removed_by");
    if (i < racers_removed_by.size()) ++racers_removed_by[i];
  }
};

class Room {
 public:
  Room(RoomId id, protocol::RoomSettings settings, std::string code, RoomServices services, RoomCounters& counters);

  [[nodiscard]] RoomId id() const { return id_; }
  [[nodiscard]] const std::string& code() const { return code_; }
  [[nodiscard]] bool is_private() const { return settings_.is_private; }
  [[nodiscard]] bool empty() const { return members_.empty(); }
  [[nodiscard]] protocol::RoomPhase phase() const { return phase_; }
  [[nodiscard]] protocol::RoomSummary summary() const;
  [[nodiscard]] protocol::RoomInfo info() const;
  [[nodiscard]] std::size_t racer_count() const;

  // Adds a player (who is in no room). Returns a notice code on refusal (room full, ...), nullopt when joined.
  [[nodiscard]] std::optional<protocol::NoticeCode> join(Player& player, protocol::Role role, TimeUs now_us);
  // Removes a member (left, kicked, disconnected). A racer in a running race is kept in it as did-not-finish.
  void leave(Player& player, protocol::RoomLeftReason reason, const std::string& text, TimeUs now_us);

  // A room request from a member (settings, ready, role, start, race inputs and hash reports).
  [[nodiscard]] RequestResult handle(Player& player, const protocol::Message& message, TimeUs now_us);
  [[nodiscard]] PlayerId host() const { return host_; }
  [[nodiscard]] bool has_member(PlayerId id) const;
  [[nodiscard]] std::vector<PlayerId> member_ids() const;
  // A contest ladder room: its settings, roles and start are the server's, so ChangeSettings, SetRole, SetReady and
  // StartRace are refused (kInvalidRequest); members may still leave, and spectators join by the code.
  void lock() { locked_ = true; }
  [[nodiscard]] bool locked() const { return locked_; }
  // Starts the countdown now (the server's own start of a ladder room). False unless waiting with a racer.
  bool start(TimeUs now_us);
  // Since when nothing has happened that makes a room live: a member joining, a race starting or ending.
  [[nodiscard]] TimeUs idle_since_us() const { return idle_since_us_; }

  // Resuming a race (PROTOCOL.md "Resuming a race"). suspend_racer: the racer's connection dropped; true if they are
  // racing in the running race, which then keeps their seat (nothing judged while away). seat_holder: the racer
  // whose seat the token opens in race `race_id`, if they are still racing (their connection may not have timed out
  // here yet: the client noticed first; the token is theirs alone). seat_kept: the running race still waits for
  // this racer, who is away. resume_racer: the racer is back on a new connection (the lobby has moved them to it):
  // tells them where their stream stands, sends what they missed of the others, and gives the seat a new token, sent
  // to the new connection alone (a token seen once, on a network or in a log, no longer opens the seat).
  [[nodiscard]] bool suspend_racer(PlayerId id);
  // The id of the room's latest race (0 before the first): the running one while a race runs.
  [[nodiscard]] std::uint32_t latest_race_id() const { return race_counter_; }
  [[nodiscard]] std::optional<PlayerId> seat_holder(std::uint32_t race_id, std::uint64_t token_hi,
                                                    std::uint64_t token_lo) const;
  [[nodiscard]] bool seat_kept(PlayerId id) const;
  void resume_racer(const Player& player, const protocol::Resume& resume, TimeUs now_us);

  // The catch-up of race `race_id` for member `spectator`, whose turn it is in the CatchUpQueue: the bytes sent, or
  // nullopt (nothing sent) when they are no longer a member or that race is no longer running.
  [[nodiscard]] std::optional<std::size_t> send_catch_up(PlayerId spectator, std::uint32_t race_id, TimeUs now_us);

  // Countdown end, live stats, pace checks, race end. Called often (every few ms).
  void tick(TimeUs now_us);
  // A replay write finished for a race of this room: its RaceResults go out now, with ReplayStored or
  // ReplayNotStored (or only the ReplayStored, if they went out already because the write was slow).
  void on_replay_written(const ReplayWriter::Done& done);
  // Ends a running race as aborted (server shutdown): racers still racing are unfinished, the replay is written and
  // the results go out when it is.
  void abort_race(TimeUs now_us);
  // For the chat: every member.
  // To every member but `except` (0: everyone).
  void broadcast(const protocol::Message& message, std::uint8_t channel, PlayerId except = 0) const;

 private:
  struct Member {
    PlayerId id = 0;
    std::string name;
    protocol::Role role = protocol::Role::kRacer;
    bool ready = false;
    // The lobby's player (a member leaves the room before the lobby forgets them): their handling is read from it
    // when a race starts, never copied into the room.
    const Player* player = nullptr;
  };
  struct RacerSession {
    TimeUs relayed_now_us = -1;     // last now_us relayed to the room
    std::uint32_t relayed_seq = 0;  // the racer's changes relayed to the room so far (a prefix of the referee's log)
    bool relay_due = false;         // send_relays owes the room this racer's changes (or clock) from relayed_seq on
    bool ack_due = false;           // send_relays owes the racer a RaceInputAck
    bool end_announced = false;
    std::uint64_t token_hi = 0, token_lo = 0;  // the RaceSeat: 128 random bits
    bool run_signed = false;                   // a RunSigned came (only the first is checked)
  };
  struct ActiveRace {
    std::uint32_t race_id = 0;
    TimeUs start_us = 0;  // server clock at game time 0
    std::unique_ptr<Race> race;
    std::map<PlayerId, RacerSession> sessions;
    TimeUs next_stats_us = 0;
    TimeUs stats_owed_since = -1;      // LiveStats fell due then and wait for a relay with news (-1: none owed)
    TimeUs next_pace_us = 0;           // pace checks run every kPaceCheckEveryUs, not every tick
    TimeUs next_relay_us = 0;          // send_relays runs every relay_every_us
    bool relays_pending = false;       // some session's relay_due or ack_due is set
    std::vector<std::string> desyncs;  // logged again with the replay id
  };
  // A race that has ended, until its replay is written.
  struct EndedRace {
    protocol::RaceResults results;
    std::vector<std::string> desyncs;  // logged again with the replay id
    TimeUs announce_by_us = 0;         // results go out by then even if the replay is not written yet
    bool announced = false;
  };

  // To every member but `a` and `b` (0: nobody left out).
  void broadcast_except(const protocol::Message& message, std::uint8_t channel, PlayerId a, PlayerId b) const;
  Member* find_member(PlayerId id);
  void send_update() const;
  void pick_new_host();
  void maybe_auto_start(TimeUs now_us);
  void start_countdown(TimeUs now_us);
  // room_race.cpp
  // What continues the racer's stream is applied, what the server already has is skipped, and a copy that would
  // leave a gap is ignored (the reliable stream fills it).
  RequestResult on_race_input(const Player& player, const InputBatch& m, TimeUs now_us);
  // After a racer's batch: `relay` owes the room what the referee logged, `ack` owes the racer a RaceInputAck, for
  // the next send_relays (at once when relay_every_us is 0).
  void owe_relay(PlayerId racer, bool relay, bool ack);
  // Sends what the room owes: to each racer owed one, a RaceInputAck (how much of their stream the server holds, so
  // their next RaceInputCopy starts there); to every member but the racer (and `except`), each racer's changes logged
  // since the last relay, numbered by the referee's log. Whatever else goes out on the race channel about the racers
  // (endings, results, a catch-up, a resume) calls it first, so every member hears a racer's inputs before what follows
  // from them, and a catch-up or resume that sends a whole log is never followed by part of it again.
  // Returns whether some racer's changes (or clock) went to the room, not only acknowledgements.
  bool send_relays(PlayerId except = 0);
  RequestResult on_hash_report(const Player& player, const protocol::StateHashReport& m);
  // room_run_signature.cpp: a racer's RunSigned, checked at once against their key and the referee's log, and kept
  // on their Race::Entry; any other is logged and counted, never a refusal (PROTOCOL.md "Run signatures").
  void on_run_signed(const Player& player, const protocol::RunSigned& m);
  // The race's replay for the writer, which plays each racer's game out on its own thread.
  [[nodiscard]] ReplayWriter::Job replay_job() const;
  void announce_endings();
  [[nodiscard]] protocol::RacerEnded ended_message(const Race::Entry& e, const std::vector<Standing>& standings) const;
  void send_live_stats(TimeUs now_us);
  void finish_race(protocol::RaceEndReason reason, TimeUs now_us);
  // Results of races whose write took longer than results_wait_us go out, saying the replay is not stored yet.
  void announce_overdue_results(TimeUs now_us);
  // CatchUpStart, the racers' input logs so far, CatchUpEnd: returns the bytes they encode to.
  std::size_t catch_up(PlayerId spectator, TimeUs now_us);

  RoomId id_;
  protocol::RoomSettings settings_;
  std::string code_;
  RoomServices services_;
  RoomCounters& counters_;
  std::vector<Member> members_;
  mutable std::vector<PlayerId> recipients_;  // broadcast()'s scratch list
  PlayerId host_ = 0;
  protocol::RoomPhase phase_ = protocol::RoomPhase::kWaiting;
  std::uint32_t race_counter_ = 0;
  bool locked_ = false;
  TimeUs idle_since_us_ = 0;
  std::optional<ActiveRace> race_;
  std::map<std::uint32_t, EndedRace> ended_races_;  // by race id, until the replay is written
};

}  // namespace sr::server
