// Input generation: turns a key path (search.h actions) into the presses and releases a person would make, with
// realistic hold times and gaps, on a 1 ms grid, and proves the result by playing it on a copy of the game.
//
// The engine keeps running while keys are pressed (gravity, auto-shift, lock delay), so a path found in the search's
// simplified model may not play out as planned. plan_inputs() therefore drives a copy of the Game with exactly the
// button changes it emits, waits on the copy for what takes time (auto-shift reaching the target column, soft drop
// reaching the floor), checks the piece after every key, and fails unless the piece locks on the target cells.
// Since the engine is deterministic, the real game given the same changes does exactly what the copy did.
//
// # Rules the generated log keeps
// - Every change time is a multiple of 1000 us and later than the previous change (and than `after_us`).
// - A tap holds its key tap_min_ms..tap_max_ms (a direction tap less than DAS, so it never auto-repeats).
// - Presses are gap_min_ms..gap_max_ms apart, and a key is pressed again only that long after its release.
// - Directions and soft drop are released before the hard drop, so nothing carries over to the next piece; the hard
//   drop key itself is released by the next plan (`carry`), like a player who keeps playing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/bot/search.h"
#include "common/engine/game.h"
#include "common/engine/input.h"
#include "common/engine/random.h"

namespace sr::bot {

struct Timing {
  std::int32_t tap_min_ms = 30;  // 1..1000, <= tap_max_ms
  std::int32_t tap_max_ms = 60;
  std::int32_t gap_min_ms = 15;  // 1..1000, <= gap_max_ms
  std::int32_t gap_max_ms = 30;
  bool operator==(const Timing&) const = default;
};

// A key left held at the end of a plan, to be released by the next one.
struct Carry {
  engine::Buttons buttons = 0;
  engine::TimeUs release_us = 0;
};

struct PlanRequest {
  std::span<const Action> actions;        // the path; may start with Action::kHold
  std::span<const PieceState> expected;   // the predicted state after each action (x and rotation are checked; for
                                          // kHold only the piece)
  PieceState target;                      // the cells the piece must lock on
  engine::TimeUs after_us = -1;           // the time of the last input already given (changes come later)
  engine::TimeUs lock_not_before_us = 0;  // pacing: do not hard drop before this time
  Carry carry;                            // from the previous plan
};

struct PlanResult {
  std::vector<engine::InputChange> inputs;  // the changes, in time order
  engine::TimeUs lock_us = 0;               // when the piece locks (or the game ended)
  bool game_over = false;                   // the game ended during the plan (time limit, lines goal, top out)
  Carry carry;                              // keys left held for the next plan to release
};

// Whether a and b cover the same cells.
[[nodiscard]] bool same_cells(const PieceState& a, const PieceState& b);

// Plays `request` on a copy of `game` (which must have a piece out). nullopt if the piece strays from the path or
// locks anywhere but `request.target`. Draws hold times and gaps from `rng`.
[[nodiscard]] std::optional<PlanResult> plan_inputs(const engine::Game& game, const PlanRequest& request,
                                                    const Timing& timing, engine::Random& rng);

// A plan that only hard drops where the piece is now (after releasing what is held). Never fails while a piece is
// out; the last resort when no planned path works.
[[nodiscard]] PlanResult plan_hard_drop(const engine::Game& game, engine::TimeUs after_us, const Carry& carry);

// The smallest multiple of 1000 us at or after t (t >= 0).
[[nodiscard]] constexpr engine::TimeUs ceil_ms(engine::TimeUs t) { return (t + 999) / 1000 * 1000; }

}  // namespace sr::bot
