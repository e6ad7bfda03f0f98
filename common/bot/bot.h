// The bot driver: plays a Game like a person at a keyboard. It reads the game's public state, chooses a placement
// (chooser.h) and turns it into timed button changes (input_plan.h), or takes placements it is given (an external
// bot's suggestions) and finds the button changes that reach the first one it can (reach.h), and hands them out one
// at a time; the caller feeds each to Game::update exactly as it would a player's input. The bot never changes the
// game.
//
// # Reproducibility
// A Bot's choices and timings depend only on its settings and the game it is shown (seed, config, state). The same
// seed, config and settings therefore always produce the same input log and the same game.
//
// # Pace
// With a target rate, piece n (counting from 1) is hard dropped no earlier than n / rate seconds into the game; a
// bot that falls behind plays as fast as its key timing allows until it has caught up.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "common/bot/chooser.h"
#include "common/bot/input_plan.h"
#include "common/bot/reach.h"
#include "common/bot/search.h"
#include "common/bot/weights.h"
#include "common/engine/game.h"
#include "common/engine/racer_run.h"
#include "common/engine/random.h"

namespace sr::bot {

struct BotSettings {
  // Evaluation weights (see weights_by_name() for presets); unset: the preset for the game's mode
  // (default_weights_name), so a default BotSettings plays every mode sensibly.
  std::optional<Weights> weights;
  ChooserSettings chooser;     // lookahead, search size
  Timing timing;               // key hold times and gaps
  std::int32_t pps_milli = 0;  // target pieces per second x 1000 (3000 = 3 PPS); 0 = as fast as the keys allow
  std::int32_t instant_gravity_us = kInstantGravityUsPerRow;  // see search_options_for
  std::uint64_t timing_seed = 0;                              // mixed with the game seed to draw hold times and gaps
  int max_attempts = 12;  // ranked placements tried before giving up and hard dropping
};

// A placement chosen outside the bot (an external bot's suggestion).
struct Target {
  PieceState state;
  engine::SpinKind spin = engine::SpinKind::kNone;  // asked for; the same cells with another spin are a last resort
};

// What to feed the game next: game.update(time_us, buttons). Steps without buttons only let time pass (waiting
// for a spawn or a lock) and are not inputs.
struct Step {
  engine::TimeUs time_us = 0;
  std::optional<engine::Buttons> buttons;
};

struct BotCounters {
  std::int64_t decisions = 0;
  std::int64_t fallbacks = 0;      // decisions where no planned path held up and the piece was just hard dropped
  std::int64_t plan_attempts = 0;  // plans tried on a copy of the game
};

class Bot {
 public:
  explicit Bot(BotSettings settings);

  // The next step for `game`, or nullopt once the game is over (or the bot forfeited). Call with the same game,
  // fed with every step returned so far. A decision (search, choice, planning) happens inside the call that
  // follows a new piece's appearance; counters().decisions tells when one did.
  [[nodiscard]] std::optional<Step> next(const engine::Game& game);

  // External choice: the next decision plays the most preferred of these placements that can be reached (of the
  // active piece, or of the hold alternative when the piece differs) instead of choosing its own, found by a search
  // over the engine's states (reach.h): the first one that locks with the spin asked for, else the first that locks
  // on its cells with another spin. If none can be reached, the bot forfeits. The plan's key timing is the
  // fastest the settings allow (tap_min_ms, gap_min_ms), so the same game and targets always give the same inputs.
  void set_targets(std::vector<Target> targets);
  // Which of the targets the last decision played (-1 if it chose on its own, forfeited, or the game ended first).
  [[nodiscard]] int played_target() const { return played_target_; }
  // The move the last decision played for its targets, as the engine locked and scored it (nullopt as above).
  [[nodiscard]] const std::optional<Target>& played() const { return played_; }
  [[nodiscard]] bool forfeited() const { return forfeited_; }
  // True when the next call to next() will make a decision.
  [[nodiscard]] bool needs_decision(const engine::Game& game) const;

  // Makes a decision for `game` now, replacing any plan in progress (next() calls this when a piece appears).
  // Public for benchmarks and tools; `game` must have a piece out.
  void decide(const engine::Game& game);

  [[nodiscard]] const BotCounters& counters() const { return counters_; }
  [[nodiscard]] const BotSettings& settings() const { return settings_; }

 private:
  bool try_candidate(const engine::Game& game, const PlacementSearch& search, const Placement& placement, bool hold,
                     Piece hold_piece, const PlanRequest& base);
  void play_targets(const engine::Game& game, const PlanRequest& base);
  bool try_other_model(const engine::Game& game, const BotView& view, const PieceState& start, const PieceState& cells,
                       engine::SpinKind spin, bool hold, const PlanRequest& base);
  void adopt(PlanResult result);

  BotSettings settings_;
  Weights weights_;  // settings_.weights, or the mode's preset once a game is seen
  bool weights_set_ = false;
  Chooser chooser_;
  PlacementSearch spare_;
  engine::Random rng_;
  bool seeded_ = false;
  std::vector<engine::InputChange> plan_;
  std::size_t plan_pos_ = 0;
  engine::TimeUs plan_end_us_ = 0;  // when the planned piece locks (the game must reach it before the next choice)
  engine::TimeUs last_input_us_ = -1;
  Carry carry_;
  std::optional<std::vector<Target>> targets_;
  int played_target_ = -1;
  std::optional<Target> played_;
  ReachPlanner reach_;
  bool forfeited_ = false;
  BotCounters counters_;
  std::vector<Action> actions_;
  std::vector<PieceState> states_;
};

// Plays `run` with `bot` until the game ends, the bot forfeits, or game time passes `stop_us`; the run logs every
// button change.
void play_to_end(engine::RacerRun& run, Bot& bot, engine::TimeUs stop_us = engine::kNever);

}  // namespace sr::bot
