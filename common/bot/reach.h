// Reaching a placement someone else chose (an external bot's suggestion), by searching the engine's own states.
//
// The placement search (search.h) predicts paths in a simplified model, and the input planner (input_plan.h) fails
// when gravity carries the piece off the predicted path. Here nothing is predicted: a search over copies of the
// Game, driven by the key presses a person would make, finds the first time-ordered way to lock the piece on the
// asked cells. A node is the game with every key up, keyed by the piece's position, orientation and spin facts;
// the moves out of a node are timed key presses the engine simulates (tap left, right, a rotation; hold a direction
// until the piece reaches a column; hold soft drop for some rows; wait for gravity to take the piece one row).
// Nodes are expanded earliest first (Dijkstra over game time), and a node whose hard drop locks the piece on a
// goal's cells ends the search for that goal. Since every plan is the list of changes that was simulated, the real
// game given the same changes does exactly the same thing.
//
// # Timing
// A key is held `tap_min_ms` (a direction less than the auto-shift delay, so a tap moves one column), the next key
// goes down `gap_min_ms` after the last press and at least 1 ms after the last release, and the same key again
// `gap_min_ms` after its release. Every change is on the 1 ms grid and later than the one before.
//
// # Reproducibility
// The result depends only on the game, the goals and the request: the same inputs always give the same plan.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/bot/input_plan.h"
#include "common/bot/search.h"
#include "common/engine/game.h"

namespace sr::bot {

struct ReachGoal {
  PieceState state;                                 // the cells to lock on (any orientation covering them)
  engine::SpinKind spin = engine::SpinKind::kNone;  // the spin asked for
};

struct ReachRequest {
  engine::TimeUs after_us = -1;           // the time of the last input already given
  engine::TimeUs lock_not_before_us = 0;  // pacing: do not hard drop before this time
  Carry carry;                            // keys the previous plan left held
  Timing timing;                          // tap_min_ms and gap_min_ms are used
};

struct ReachResult {
  int goal = -1;      // the goal played; -1 when the game ends (time limit) before the piece could lock
  PieceState locked;  // where the piece locked (the engine's lock event)
  engine::SpinKind spin = engine::SpinKind::kNone;  // what the engine scored the lock as
  PlanResult plan;
};

struct ReachCounters {
  std::int64_t searches = 0;  // searches from one start (with or without hold)
  std::int64_t nodes = 0;     // nodes expanded
};

class ReachPlanner {
 public:
  // The most preferred goal that can be reached: the first one in `goals` that locks with the spin asked for, else
  // the first one that locks on its cells with another spin. Goals of another piece than the active one are reached
  // through hold when the game allows it. nullopt when none can be reached (a forfeit). `game` must have a piece
  // out.
  [[nodiscard]] std::optional<ReachResult> plan(const engine::Game& game, std::span<const ReachGoal> goals,
                                                const ReachRequest& request);

  [[nodiscard]] const ReachCounters& counters() const { return counters_; }

  // The most nodes one search expands; past it, the goals left count as unreachable.
  static constexpr int kMaxNodes = 6000;

 private:
  // A game being driven: the changes it was given since the last node, and what the engine reported.
  struct Sim {
    engine::Game game{engine::GameConfig{}, 0};
    Carry pending;  // keys of the previous plan still to be released
    engine::TimeUs last_change_us = -1;
    std::array<engine::TimeUs, 8> free_at{};  // per button bit: the earliest time it may go down again
    std::vector<engine::InputChange> changes;
    bool locked = false;
    PieceState lock_state;
    engine::SpinKind spin = engine::SpinKind::kNone;
    engine::TimeUs lock_us = 0;

    [[nodiscard]] bool done() const { return locked || game.over(); }
    void advance(engine::TimeUs t);
    engine::TimeUs set(engine::TimeUs t, engine::Buttons down, engine::Buttons up);
    void observe(std::span<const engine::Event> events);
  };
  struct Node {
    int parent = -1;
    std::uint32_t first_change = 0, end_change = 0;  // the changes of the move into this node
    engine::TimeUs ready_us = 0;                     // the earliest time the next key may go down
  };
  struct Found {
    bool any = false, exact = false;
    ReachResult result;
  };

  void search(const Sim& root, std::span<const ReachGoal> goals, std::span<const int> indices, int stop_goal);
  void load(Sim& sim, int node) const;
  void add_child(Sim& sim, int parent, engine::TimeUs ready_us, std::span<const ReachGoal> goals,
                 std::span<const int> indices);
  void try_drop(int node, std::span<const ReachGoal> goals, std::span<const int> indices);
  void record(const Sim& sim, int node, std::span<const ReachGoal> goals, std::span<const int> indices, bool final);
  void expand(int node, std::span<const ReachGoal> goals, std::span<const int> indices);
  void tap(int node, engine::Buttons key, std::span<const ReachGoal> goals, std::span<const int> indices);
  void auto_shift(int node, engine::Buttons key, std::span<const ReachGoal> goals, std::span<const int> indices);
  void soft_drop(int node, std::span<const ReachGoal> goals, std::span<const int> indices);
  void wait(int node, std::span<const ReachGoal> goals, std::span<const int> indices);
  engine::TimeUs press_time(const Sim& sim, engine::TimeUs ready_us, engine::Buttons key) const;
  [[nodiscard]] PlanResult plan_to(int node, const Sim& tail) const;

  ReachCounters counters_;
  engine::TimeUs hold_us_ = 0, gap_us_ = 0;
  engine::TimeUs lock_not_before_us_ = 0;
  std::vector<Node> nodes_;
  std::vector<Sim> sims_;  // sims_[i]: node i's game at its ready time (kept across searches to reuse the memory)
  std::vector<engine::InputChange> changes_;
  std::vector<int> best_;  // per node key: the node that reached it first
  std::vector<std::pair<engine::TimeUs, int>> heap_;
  std::vector<Found> found_;
  std::optional<ReachResult> ended_;  // a plan during which the game ended without a lock
  bool stop_ = false;
  int stop_goal_ = -1;
  Sim edge_, child_;
};

}  // namespace sr::bot
