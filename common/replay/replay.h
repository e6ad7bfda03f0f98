// The replay model: everything needed to replay and check a game, for one racer (solo) or many (a race).
//
// A racer's game is fully defined by (rules_version, racer_config(replay, i), seed, racers[i].inputs); the result and
// the checkpoints are what the recorder saw, kept so that a verifier can prove that the inputs give them.
// Byte layout and JSON schema: common/replay/FORMAT.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/events.h"
#include "common/engine/input.h"
#include "common/engine/racer_run.h"
#include "common/engine/stats.h"
#include "common/engine/types.h"
#include "common/result.h"

namespace sr::replay {

// Version of the file framing and body layout (FORMAT.md, "Versioning"). Independent of the rules version.
inline constexpr std::uint16_t kFormatVersion = 1;

inline constexpr std::int32_t kDefaultCheckpointEvery = 25;  // pieces between two state-hash checkpoints
inline constexpr std::int32_t kMaxCheckpointEvery = 1'000'000;
// Racers in one replay file (FORMAT.md): the format's limit, not a room's. A room races at most protocol::kMaxRacers
// (16, PROTOCOL.md), so every race fits in one replay.
inline constexpr std::size_t kMaxReplayRacers = 64;
inline constexpr std::size_t kMaxNameBytes = 64;    // racer names: 1..64 bytes of UTF-8, no control characters
inline constexpr std::size_t kMaxPlaceBytes = 128;  // place: 0..128 bytes of UTF-8, no control characters
inline constexpr std::int64_t kMaxCreatedUnixMs = 253'402'300'799'999;  // 9999-12-31T23:59:59.999Z
// Every game time in a replay (inputs, results, checkpoints) is at most this: about 31 years, far beyond any game,
// and far enough below INT64_MAX that the engine's timers (time + a delay) cannot overflow.
inline constexpr engine::TimeUs kMaxGameTimeUs = 1'000'000'000'000'000;

// How a racer's game ended. Values are stored: never renumber.
enum class ResultStatus : std::uint8_t {
  kFinished = 0,      // the mode's limit was reached (40 lines cleared, time up, ...)
  kToppedOut = 1,     // block out or lock out (RacerResult::top_out says which)
  kDisconnected = 2,  // the racer's connection ended before the game did (the game time is the disconnect time)
  kForfeited = 3,     // the racer gave up (the game time is when they did)
  kUnfinished = 4,    // still playing when the race ended (the server's time cap, a shutdown): the game time is then
};

struct RacerResult {
  ResultStatus status = ResultStatus::kFinished;
  engine::TopOut top_out = engine::TopOut::kNone;  // kBlockOut or kLockOut exactly when status is kToppedOut
  // The engine's stats at the end. stats.time_us is the game time the racer's game ended at: the finish or top-out
  // time, or the disconnect / forfeit time; the verifier plays the inputs up to exactly this time.
  engine::Stats stats;
  std::uint64_t final_hash = 0;  // Game::state_hash() at the end
  // What the live recorder (the server's referee) measured against the real clock. No re-simulation can recompute
  // these, so verify() does not check them (FORMAT.md, "Re-simulation, results and checkpoints"). Both are 0 in solo
  // games, and when read from a file written before RacerResult class version 2, which did not record them.
  // unverified_us: game time the racer's clock vouched for later than the jitter allowance (a stalled connection, a
  // reconnect), so unverifiable against the real clock. 0..stats.time_us; 0 is a clean run.
  engine::TimeUs unverified_us = 0;
  std::uint32_t reconnects = 0;  // times the racer's connection dropped and the racer came back in this race
  bool operator==(const RacerResult&) const = default;
};

// A racer's Ed25519 public key (net/identity/player_key.h), as the server's handshake proved it.
inline constexpr std::size_t kRacerKeyBytes = 32;
using RacerKey = std::array<std::uint8_t, kRacerKeyBytes>;

struct Racer {
  std::string name;
  engine::Handling handling;  // this racer's DAS, ARR, ...: replaces GameConfig::handling for their game
  std::vector<engine::InputChange> inputs;
  RacerResult result;
  std::vector<engine::Checkpoint> checkpoints;  // one per checkpoint_every locked pieces, in order
  // The player key the racer proved they hold when they joined the server (its challenge, signed), so that two
  // players who used one name on different servers can be told apart. None in solo games, for bots without keys and
  // in files written before Racer class version 2. Like unverified_us, only as trustworthy as the server that wrote
  // the file: verify() does not check it.
  std::optional<RacerKey> key;
  bool operator==(const Racer&) const = default;
};

struct Replay {
  std::uint32_t rules_version = engine::kRulesVersion;  // >= 1; the engine behaviour the game was played with
  std::int64_t created_unix_ms = 0;  // 0..kMaxCreatedUnixMs; set by the caller (the library reads no clock)
  std::string place = "local";       // server name, or "local" for a game played offline
  // Shared rules. Its `handling` member is not stored (decoded as the engine default): each racer has their own.
  engine::GameConfig config;
  std::uint64_t seed = 0;
  std::int32_t checkpoint_every = kDefaultCheckpointEvery;  // 1..kMaxCheckpointEvery
  std::vector<Racer> racers;                                // 1..kMaxReplayRacers
  bool operator==(const Replay&) const = default;
};

// The config racer `racer` played: the shared config with that racer's handling. `racer` must be in range.
[[nodiscard]] engine::GameConfig racer_config(const Replay& replay, std::size_t racer);

// How check_replay() checks input logs: in full, or for a log decode_input_log() gave (input_log_codec.h), which is
// in time order with known buttons and a change in every entry, only its times' range (the same sentence either way).
enum class InputLogCheck : std::uint8_t { kFull, kDecoded };

// Ok if the replay can be stored: every range above holds, every racer's config passes engine::check_config,
// input logs are well formed, results are self-consistent. Otherwise a sentence naming the first problem.
// Says nothing about whether the inputs give the recorded results: that is verify() (verify.h).
[[nodiscard]] sr::Status<std::string> check_replay(const Replay& replay, InputLogCheck inputs = InputLogCheck::kFull);

// Checks a racer or place name: valid UTF-8 without control characters, at most max_bytes long.
[[nodiscard]] bool valid_text(const std::string& text, std::size_t max_bytes);

// Ok if the log can be stored (times >= 0 and non-decreasing, known buttons only, each entry a change), otherwise a
// sentence naming the first bad entry.
[[nodiscard]] sr::Status<std::string> check_input_log(const std::vector<engine::InputChange>& inputs);

// "finished", "topped_out", "disconnected", "forfeited", "unfinished"; and the inverse.
[[nodiscard]] const char* status_name(ResultStatus status);
[[nodiscard]] std::optional<ResultStatus> status_from_name(const std::string& name);

// A racer key as 64 lower-case hex digits (its JSON form), and back: none unless `hex` is exactly that.
[[nodiscard]] std::string key_hex(const RacerKey& key);
[[nodiscard]] std::optional<RacerKey> key_from_hex(std::string_view hex);

}  // namespace sr::replay
