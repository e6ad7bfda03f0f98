// Playing an input log through the engine: the one place that defines how a recorded game is re-run, shared by the
// recorder (filling results and checkpoints), the verifier, and the viewers (board, fumen).
//
// # The feeding (FORMAT.md, "Re-simulation, results and checkpoints")
// A Game(config, seed) gets every input in order, then one more call at end_us: each input is one
// Game::update(t, buttons) (once the game is over, update(t): a change after the end only moves time), the end one
// update(end_us) with no buttons. These are exactly the calls of a RacerRun(config, seed) (common/engine/racer_run.h)
// pressed with every input and advanced to end_us, which is how a live game fed them; simulate() makes them on a Game
// of its own, without a run's stream bookkeeping (its copy of the log, a digest per lock), which a verifier would
// only throw away. end_us is the racer's recorded game end (RacerResult::stats.time_us); a game that ended by itself
// (finish, top out) ignores the later calls, so feeding always stops where the recording did.
//
// # Checkpoints
// Checkpoint k (k = N, 2N, ... for N = checkpoint_every) is taken for the k-th kLock event: its time_us is that
// event's time and its state_hash is Game::state_hash() right after the update call the event came from. Because
// the feeding above is fixed, any implementation that follows it gets the same hashes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/engine/game.h"
#include "common/engine/racer_run.h"
#include "common/replay/error.h"
#include "common/replay/replay.h"

namespace sr::replay {

struct Simulation {
  engine::Game game;                            // after the last update
  std::vector<engine::Checkpoint> checkpoints;  // one per checkpoint_every locks, in order
  // Set when the engine refused an update (the game then stops where it was): which input (or "the end time")
  // and why. A log that passes check_input_log() is only refused when end_us lies before its last input.
  std::optional<std::string> feed_error;
};

// Plays `inputs` through Game(config, seed) up to end_us as described above. `config` must be valid
// (engine::check_config is ok); checkpoint_every >= 1. `on_event`, when set, sees every engine event in order.
[[nodiscard]] Simulation simulate(const engine::GameConfig& config, std::uint64_t seed,
                                  std::span<const engine::InputChange> inputs, engine::TimeUs end_us,
                                  std::int32_t checkpoint_every,
                                  const std::function<void(const engine::Event&)>& on_event = {});

// Fills racers[racer].result and .checkpoints from its inputs, as the recorder of a live game would. The game is
// played to max(end_us, last input time); a game that has not ended by then gets `if_unfinished` (kDisconnected,
// kForfeited or kUnfinished). result.unverified_us and result.reconnects are kept (only the live recorder can know
// them; set them before or after), unverified_us cut to the recorded game time. Everything else in the replay must
// already be valid (check_replay() is ok).
void record_racer(Replay& replay, std::size_t racer, engine::TimeUs end_us,
                  ResultStatus if_unfinished = ResultStatus::kForfeited);

// A replay of games played with `config` and `seed` (its handling is cleared: each racer carries their own), made at
// `created_unix_ms` (clamped to 0..kMaxCreatedUnixMs) at `place` ("local" when empty or not valid_text). No racers
// yet: add them with racer_of() and record_racer(), or add_racer().
[[nodiscard]] Replay replay_of(const engine::GameConfig& config, std::uint64_t seed, const std::string& place,
                               std::int64_t created_unix_ms);

// The one way a run becomes a replay's racer: `name` (cut to kMaxNameBytes at a character boundary; "player" if
// that leaves it empty or not valid_text), the run's handling and its input log. Its result and checkpoints are
// empty: record_racer() fills them by re-running the log the replay's way (which the server does on its replay
// writer's thread, away from the main loop).
[[nodiscard]] Racer racer_of(const engine::RacerRun& run, const std::string& name);

// racer_of() appended to `replay`, then record_racer() up to the run's game time now_us() (a game that had not
// ended by itself by then gets `if_unfinished`). The run must share the replay's config (handling aside) and seed.
void add_racer(Replay& replay, const engine::RacerRun& run, const std::string& name,
               ResultStatus if_unfinished = ResultStatus::kForfeited);

// Where to stop when looking at a game part-way (board, viewers).
struct ViewPoint {
  enum class Kind : std::uint8_t { kEnd, kPiece, kTime };
  Kind kind = Kind::kEnd;
  std::int64_t value = 0;  // kPiece: pieces locked (0 = the start); kTime: game time in microseconds
};

// Racer `racer`'s game at `at`: after the racer's whole recording (kEnd); right after the k-th piece locked, at the
// exact microsecond it locked (kPiece; k = 0 is time 0 with the first piece out); or at a game time, clamped to the
// recorded end (kTime). # Errors: kOutOfRange for an unknown racer, or a piece the racer never locked.
[[nodiscard]] Result<engine::Game> game_at(const Replay& replay, std::size_t racer, ViewPoint at);

}  // namespace sr::replay
