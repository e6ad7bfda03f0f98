// A race as one client sees it: every racer's board, simulated from the relayed inputs, and (when this client is
// racing) its own game, whose inputs it streams to the server.
//
// Times are race game time in microseconds (0 = the race start). The owner (GUI or bot) decides the time of each
// button change (stamped when the key event happened); RaceView never reads a clock.
//
// # The end of our own game
// When our game ends by the engine (finished or topped out), in whichever press() or advance() it happens, the view
// queues a last RaceInput up to that moment (unless the call's own one reached it), the due state-hash reports, and,
// when it holds the player's key, a RunSigned: the key's signature of our run (net/identity/run_signature.h), whose
// input log is our run's log, exactly what the referee logs and the replay keeps (PROTOCOL.md, "Run signatures").
// After that it sends nothing more for the race: no RaceInput, copy or report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/racer_run.h"
#include "common/protocol/messages.h"
#include "net/identity/player_key.h"

namespace sr::net {

using engine::TimeUs;

struct RacerBoard {
  protocol::RaceEntrant entrant;
  // The racer's run: fed from what the server relayed (remote racers, numbered by the referee's log) or from our
  // own presses (numbered as we send them).
  engine::RacerRun run;
  protocol::RacerStatus status = protocol::RacerStatus::kRacing;
  std::uint8_t place = 0;
  TimeUs end_time_us = 0;
  std::string end_reason;
  protocol::RacerLive live;  // the server's latest numbers

  [[nodiscard]] const engine::Game& game() const { return run.game(); }
  // A racer still racing whose relayed game time is more than kLaggingAfterUs behind the race clock: their
  // connection stalls. The board shows what arrived so far and catches up when the backlog comes (never runs ahead
  // of what the racer sent, so it never jumps back).
  static constexpr TimeUs kLaggingAfterUs = 1'000'000;
  [[nodiscard]] bool lagging(TimeUs race_time_us) const {
    return status == protocol::RacerStatus::kRacing && race_time_us - run.now_us() > kLaggingAfterUs;
  }
};

class RaceView {
 public:
  // Inputs are sent at least this often while racing, so the server's pace check sees the clock move.
  static constexpr TimeUs kHeartbeatUs = 50'000;
  // A RaceInputCopy goes with a RaceInput unless the last copy is younger than this (keeps the message rate down).
  static constexpr TimeUs kCopyEveryUs = 16'000;
  // A state-hash report after every this many locked pieces.
  static constexpr std::int64_t kReportEveryPieces = 10;

  // The countdown of a race this client is in (as racer if `me` is among the racers, else as a watcher). `key`: the
  // player's key, which signs our run when our game ends (none: the run is not signed).
  RaceView(const protocol::CountdownStart& start, std::uint32_t me, std::optional<PlayerKey> key = std::nullopt);
  // A race joined part-way (CatchUpStart); boards fill from the chunks that follow.
  RaceView(const protocol::CatchUpStart& start, std::uint32_t me);

  [[nodiscard]] std::uint32_t race_id() const { return race_id_; }
  [[nodiscard]] std::uint64_t seed() const { return seed_; }
  [[nodiscard]] const engine::GameConfig& config() const { return config_; }
  [[nodiscard]] const std::vector<RacerBoard>& boards() const { return boards_; }
  [[nodiscard]] const RacerBoard* board(std::uint32_t player_id) const;
  // This client's own board, if it races.
  [[nodiscard]] const RacerBoard* mine() const { return mine_ < boards_.size() ? &boards_[mine_] : nullptr; }
  [[nodiscard]] bool racing() const { return mine_ < boards_.size(); }
  // The events of our own game in the last press() or advance() call, in order (empty when it changed nothing):
  // what the owner shows or sounds. Replaced by every call; own_calls() counts the calls, so an owner that called
  // through layers that may stop short (Session, NetPlay) can tell whether these are new.
  [[nodiscard]] const std::vector<engine::Event>& own_events() const { return own_events_; }
  [[nodiscard]] std::uint64_t own_calls() const { return own_calls_; }
  // Our game is over and its end has been queued (see "The end of our own game"): nothing more goes out.
  [[nodiscard]] bool own_end_sent() const { return own_end_sent_; }
  // The RunSigned queued at our game's end, if we hold a key and it has ended.
  [[nodiscard]] const std::optional<protocol::RunSigned>& run_signed() const { return run_signed_; }

  // Our own racer: a button change at game time t (>= every earlier one). Applies it to our run and queues a
  // RaceInput carrying it, and a RaceInputCopy of everything the server has not acknowledged (see on_ack). Ignored when
  // not racing, when the game is over, when it changes no button, or when it holds a bit no button has.
  void press(TimeUs t, engine::Buttons buttons, std::vector<protocol::Message>& out);
  // Our own racer: advances the local game to t, sending a heartbeat and any due state-hash reports.
  void advance(TimeUs t, std::vector<protocol::Message>& out);

  // Resuming over a new connection (PROTOCOL.md "Resuming a race"). relay_positions: how much of each other racer's
  // stream we have, for Resume. resume: the server has `next_seq` of our changes and our game up to `server_now_us`;
  // queues the rest of our stream as RaceInputs (our game never paused, so this is everything played while away),
  // then our RunSigned if our game has ended meanwhile. False if the server claims more than we sent.
  [[nodiscard]] std::vector<protocol::RelayPosition> relay_positions() const;
  [[nodiscard]] bool resume(std::uint32_t next_seq, TimeUs server_now_us, std::vector<protocol::Message>& out);

  // Server messages for this race. False (with `error`) if the server sent something inconsistent.
  bool on_inputs(const protocol::RacerInputs& m, std::string& error);
  // The server holds our stream up to next_seq: our next copies start there. Ignored if it claims more than we sent.
  void on_ack(const protocol::RaceInputAck& m);
  [[nodiscard]] std::uint32_t acked_seq() const { return acked_seq_; }
  void on_live(const protocol::LiveStats& m);
  void on_ended(const protocol::RacerEnded& m);

 private:
  RacerBoard& add_board(const protocol::RaceEntrant& entrant, std::uint32_t me);
  // StateHashReports for our locks since the last call, due every kReportEveryPieces pieces.
  void report_locks(std::vector<protocol::Message>& out);
  // Advances our run to t; true if that queued a RaceInput (a heartbeat).
  bool advance_run(TimeUs t, std::vector<protocol::Message>& out);
  // Queues a RaceInputCopy of our stream from acked_seq_ (at most kMaxInputsPerBatch changes).
  void copy_unacked(std::vector<protocol::Message>& out);
  // Once our game is over: its last RaceInput (if the call's own did not reach its end) and our RunSigned.
  void send_own_end(std::vector<protocol::Message>& out);

  std::uint32_t race_id_ = 0;
  std::uint64_t seed_ = 0;
  engine::GameConfig config_;
  std::vector<RacerBoard> boards_;
  std::size_t mine_ = SIZE_MAX;
  std::vector<engine::Event> own_events_;
  std::uint64_t own_calls_ = 0;
  // Our own stream: the game time of the last RaceInput sent, and how many of our locks have been looked at.
  TimeUs sent_now_us_ = -1;
  std::size_t locks_reported_ = 0;
  // What the server acknowledged of our stream, and the game time of our last RaceInputCopy.
  std::uint32_t acked_seq_ = 0;
  TimeUs copied_at_us_ = -kCopyEveryUs;
  // The end of our game (see "The end of our own game").
  std::optional<PlayerKey> key_;
  bool own_end_sent_ = false;
  std::optional<protocol::RunSigned> run_signed_;
};

}  // namespace sr::net
