// One racer's run: the one home for a racer's game wherever it is played. The client's own board and the boards of
// its opponents, the server's referee, the solo session, the bot opponent, stackrace-bot's runners and replay
// re-simulation all hold a RacerRun, so the game, its input log, its per-lock digests and its checkpoints are
// computed one way everywhere.
//
// # What a run keeps
// - The Game, fed with every change and every advance of time.
// - The input log: the changes that changed the held buttons, in order, no earlier than the game's time when they
//   were taken, and none after the game ended. It is exactly a replay racer's `inputs`.
// - The stream position: next_seq() counts every change taken (also those that changed nothing: a sender numbers
//   what it sends, and a receiver what it received), and now_us() is the latest game time the run has been
//   advanced to, which a receiver has been promised no later change will precede (PROTOCOL.md, "Input streams").
// - The lock digest (lock_digest.h) right after every lock, with the lock's time: the same on every machine
//   however often the run is advanced, so a client's report after its k-th lock compares with the referee's.
// - Checkpoints, when asked for (checkpoint_every > 0): state_hash() right after the feeding call in which every
//   N-th piece locked. Unlike digests they depend on when the run is advanced, so they equal a replay's stored
//   checkpoints only when fed the replay's way: each change in order, then one advance to the end (which is how
//   common/replay/simulate feeds it).
//
// # Reproducibility
// A run is a pure function of (rules version, config, seed, the calls made): no clock, no floating point.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/input.h"
#include "common/engine/lock_digest.h"

namespace sr::engine {

// A piece lock as the run saw it.
struct LockRecord {
  TimeUs time_us = 0;        // game time of the lock
  std::uint64_t digest = 0;  // LockDigest::value() right after this lock
  bool operator==(const LockRecord&) const = default;
};

// The game right after piece k = N, 2N, ... locked (N = checkpoint_every).
struct Checkpoint {
  TimeUs time_us = 0;            // game time at which piece k locked
  std::uint64_t state_hash = 0;  // Game::state_hash() after the feeding call in which piece k locked
  bool operator==(const Checkpoint&) const = default;
};

// Why a batch of a stream was refused (RacerRun::accept). Values are stable.
enum class StreamError : std::uint8_t {
  kOk = 0,
  kGap = 1,            // first_seq is past next_seq(): changes were lost
  kOverlap = 2,        // first_seq is before it: changes were sent twice
  kTimeBackwards = 3,  // a change is earlier than now_us() (the previous batch's game time)
  kNowBackwards = 4,   // the batch's now_us is earlier than now_us()
  kTooLong = 5,        // the stream would pass 2^32 - 1 changes
  kBadBatch = 6,       // inside the batch, times decrease, pass the batch's now_us, or hold unknown buttons
};

// A sentence for logs and errors ("changes missing before this batch").
[[nodiscard]] const char* stream_error_name(StreamError e);

class RacerRun {
 public:
  // `config` must be valid (check_config(config) is ok); checkpoint_every >= 0 (0: no checkpoints).
  RacerRun(GameConfig config, std::uint64_t seed, std::int32_t checkpoint_every = 0);

  // A change of the held buttons to `buttons` at game time `t`; one more change of the stream (next_seq() grows by
  // one) whatever happens. If it changes the held buttons and the game is still on at `t`, it is fed and logged; if
  // it changes nothing, or the game is over by `t` (also when it ends in the events up to `t`, before the buttons
  // would apply), only time advances to `t`, as advance(t) would.
  // # Errors
  // As Game::update: kTimeInPast when t < game().now(), kInvalidButtons for unknown bits; nothing is fed or
  // logged then (the change still counts in next_seq()).
  [[nodiscard]] UpdateResult press(TimeUs t, Buttons buttons);

  // Runs every timed event up to `t` (no buttons). kTimeInPast when t < game().now().
  UpdateResult advance(TimeUs t);

  // Game::update's shape: press(t, *buttons) when buttons are given, else advance(t).
  [[nodiscard]] UpdateResult update(TimeUs t, std::optional<Buttons> buttons) {
    return buttons ? press(t, *buttons) : advance(t);
  }

  // A batch of a stream (a racer's RaceInput, a relayed RacerInputs): `changes` numbered from first_seq, then the
  // sender's game time `now_us`. Each change is pressed, then the run advances to now_us. The rules of a stream:
  // first_seq == next_seq(); now_us >= now_us(); changes no earlier than now_us(), in time order, no later than
  // now_us, with known buttons. Nothing changes when a batch breaks them.
  [[nodiscard]] StreamError accept(std::uint32_t first_seq, TimeUs now_us, std::span<const InputChange> changes);

  [[nodiscard]] const Game& game() const { return game_; }
  // The changes that changed the held buttons: a replay racer's inputs.
  [[nodiscard]] const std::vector<InputChange>& log() const { return log_; }
  // The buttons held now (the last logged change's, 0 before any).
  [[nodiscard]] Buttons held() const { return log_.empty() ? Buttons{0} : log_.back().buttons; }
  // Changes taken so far, counting those that changed nothing: the first_seq of the next one.
  [[nodiscard]] std::uint32_t next_seq() const { return next_seq_; }
  // The latest game time the run was pressed or advanced to (0 before any). Can pass game().now(), which stays
  // put once the game is over.
  [[nodiscard]] TimeUs now_us() const { return now_us_; }
  // Every lock so far, in order: locks()[k - 1] is the k-th.
  [[nodiscard]] const std::vector<LockRecord>& locks() const { return locks_; }
  // The lock digest right after the `pieces`-th lock, if the run has got that far.
  [[nodiscard]] std::optional<std::uint64_t> digest_after(std::int64_t pieces) const;
  // One per checkpoint_every locks, in order (empty when checkpoint_every is 0).
  [[nodiscard]] const std::vector<Checkpoint>& checkpoints() const { return checkpoints_; }

 private:
  UpdateResult feed(TimeUs t, std::optional<Buttons> buttons);

  Game game_;
  std::int32_t checkpoint_every_;
  std::vector<InputChange> log_;
  std::uint32_t next_seq_ = 0;
  TimeUs now_us_ = 0;
  LockDigest digest_;
  std::vector<LockRecord> locks_;
  std::vector<Checkpoint> checkpoints_;
};

}  // namespace sr::engine
