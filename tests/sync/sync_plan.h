// The synctest's plan of one game (tests/sync/README.md), drawn from one 64-bit seed: the game's rules and seed,
// the player's button changes (random presses or the real bot's), the client's frame times (short frames, long
// ones and stalls) and the spans in which the network holds the client's messages back.
//
// # Reproducibility
// make_plan(game_seed) is a pure function of its arguments: our own SplitMix64, no <random> distributions (their
// output differs between standard libraries), no clock. So "game seed N failed" is reproduced anywhere with
// `stackrace-synctest --seed N --games 1`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/engine/config.h"
#include "common/engine/input.h"

namespace sr::synctest {

using engine::TimeUs;

// SplitMix64 (Steele, Lea and Flood, 2014): tiny, fast, and the same everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // A value in [lo, hi] (lo <= hi). The modulo's bias is far below anything a test could notice; what matters is
  // that the value is the same on every machine.
  std::int64_t range(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(next() % (static_cast<std::uint64_t>(hi - lo) + 1));
  }
  // True `percent` times in a hundred.
  bool chance(int percent) { return range(0, 99) < percent; }

 private:
  std::uint64_t state_;
};

enum class InputSource : std::uint8_t {
  kRandomPresses = 0,  // a random "bot": taps, long holds, chords, no-ops, several changes at one time
  kBot = 1,            // common/bot playing the game (its log, replayed through the client)
  kScripted = 2,       // a hand-made plan (targeted tests)
};
inline constexpr std::size_t kInputSources = 3;

// Messages the client produces in frames ending at game time in [from_us, until_us) are held back by the network
// and reach the referee together, in order, after the first frame that ends at or after until_us.
struct Hold {
  TimeUs from_us = 0;
  TimeUs until_us = 0;
  // Only the reliable channel is held (a lost packet waits for its resend): the unreliable RaceInputCopies get through
  // at once, ahead of the RaceInputs they repeat. Otherwise every message is held (a stalled connection).
  bool copies_pass = false;
};

struct SyncPlan {
  std::uint64_t game_seed = 0;  // what the plan was drawn from (0 for hand-made plans)
  engine::GameConfig config;    // with the racer's handling
  std::uint64_t engine_seed = 0;
  InputSource source = InputSource::kScripted;
  // What the player does, in time order (equal times allowed). May repeat the buttons already held, and (rarely)
  // hold bits outside button::kAll: the client must drop both without breaking its stream.
  std::vector<engine::InputChange> presses;
  // The client's frames: the game time each one advances to, strictly increasing, >= 0. A gap of seconds is a stall
  // (the client froze, then caught up in one advance).
  std::vector<TimeUs> frames;
  std::vector<Hold> holds;  // in time order, disjoint
  // Frames still played once the client's game is over, so that its last reports and heartbeats go out.
  TimeUs linger_us = 500'000;
};

struct PlanOptions {
  TimeUs max_game_us = 120'000'000;  // frames stop here (the game may end earlier)
  int bot_percent = 5;               // share of games the real bot plays (slower); the rest get random presses
};

// Draws everything of one game from `game_seed`: the mode (every preset, and custom limits), rotation system,
// generator, lock down, gravity (20G too), handling and the rest of the config; the presses; the frame cadence
// (1 ms to 1 s frames, mostly short, with stalls of seconds); and the message holds.
[[nodiscard]] SyncPlan make_plan(std::uint64_t game_seed, const PlanOptions& options = {});

// Names for summaries and messages, indexed by the enum's value.
inline constexpr std::array<const char*, 7> kModeNames = {"sprint",  "ultra",   "marathon", "master",
                                                          "endless", "contest", "custom"};
inline constexpr std::array<const char*, 3> kRotationNames = {"srs", "srs-no180", "classic"};
inline constexpr std::array<const char*, 4> kGeneratorNames = {"bag7", "recency", "uniform", "fixed"};
inline constexpr std::array<const char*, 4> kLockDownNames = {"extended", "infinite", "classic", "timer"};
inline constexpr std::array<const char*, 2> kGravityNames = {"level", "20G"};
inline constexpr std::array<const char*, kInputSources> kInputSourceNames = {"random", "bot", "scripted"};

// A random valid config (check_config accepts it), as make_plan draws it.
[[nodiscard]] engine::GameConfig random_config(SplitMix64& rng);

// One line naming what matters of a config: "sprint 40 lines, srs, bag7, extended 500 ms, gravity L1, das 167 ms,
// arr 33 ms, sdf 20, are 0 ms".
[[nodiscard]] std::string describe(const engine::GameConfig& config);

}  // namespace sr::synctest
