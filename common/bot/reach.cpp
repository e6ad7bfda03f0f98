#include "common/bot/reach.h"

#include <algorithm>
#include <bit>
#include <functional>

#include "common/engine/rotation.h"

namespace sr::bot {
namespace {

using engine::Buttons;
using engine::TimeUs;
namespace button = engine::button;

constexpr TimeUs kMs = 1000;
// Node keys: orientation, box position (offset so that every position that fits is inside), spin facts.
constexpr int kKeyXOffset = 3, kKeyWidth = 16, kKeyYOffset = 3, kKeyHeight = 48, kKeyFlags = 4;
constexpr int kKeys = 4 * kKeyHeight * kKeyWidth * kKeyFlags;

std::size_t bit_of(Buttons b) { return static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(b))); }

// The node key of a game with a piece out, or -1 if the piece is outside the key space.
int key_of(const engine::Game& game) {
  const engine::GameState& s = game.state();
  const engine::ActivePiece& a = s.active;
  const int x = a.x + kKeyXOffset, y = a.y + kKeyYOffset;
  if (x < 0 || x >= kKeyWidth || y < 0 || y >= kKeyHeight) return -1;
  // A rotation that was the last thing to happen makes a spin, and the fifth kick test can make a mini a full one.
  const int flags = s.last_rotated ? (engine::kick_makes_full_tspin(s.last_kick) ? 3 : 1) : 0;
  return ((static_cast<int>(a.rotation) * kKeyHeight + y) * kKeyWidth + x) * kKeyFlags + flags;
}

PieceState state_of(const engine::ActivePiece& a) { return PieceState{a.piece, a.rotation, a.x, a.y}; }

}  // namespace

void ReachPlanner::Sim::observe(std::span<const engine::Event> events) {
  for (const engine::Event& e : events) {
    if (e.kind == engine::EventKind::kLock && !locked) {
      locked = true;
      lock_state = PieceState{e.piece, e.rotation, e.x, e.y};
      lock_us = e.time_us;
    } else if (e.kind == engine::EventKind::kClear && locked) {
      spin = e.spin;
    }
  }
}

// Runs the game to t, releasing the previous plan's keys when their time comes.
void ReachPlanner::Sim::advance(TimeUs t) {
  if (done()) return;
  if (pending.buttons != 0) {
    const TimeUs release = ceil_ms(std::max({pending.release_us, last_change_us + kMs, game.now()}));
    if (release <= t) {
      const Buttons keys = pending.buttons;
      pending = Carry{};
      set(release, 0, keys);
      if (done()) return;
    }
  }
  if (t > game.now()) observe(game.update(t).events);
}

// Presses `down` and releases `up` at t (or the first free millisecond after it); returns when. The buttons are
// worked out after the time has come, since the previous plan's keys may have gone up on the way.
TimeUs ReachPlanner::Sim::set(TimeUs t, Buttons down, Buttons up) {
  t = ceil_ms(std::max({t, last_change_us + kMs, game.now()}));
  advance(t);
  const auto buttons = static_cast<Buttons>((game.state().held | down) & ~up);
  if (done() || buttons == game.state().held) return t;
  observe(game.update(t, buttons).events);
  changes.push_back(engine::InputChange{t, buttons});
  last_change_us = t;
  return t;
}

TimeUs ReachPlanner::press_time(const Sim& sim, TimeUs ready_us, Buttons key) const {
  TimeUs t = std::max(ready_us, sim.free_at[bit_of(key)]);
  if (key & (button::kMoveLeft | button::kMoveRight)) {
    // One hand for both directions.
    t = std::max({t, sim.free_at[bit_of(button::kMoveLeft)], sim.free_at[bit_of(button::kMoveRight)]});
  }
  return ceil_ms(t);
}

void ReachPlanner::load(Sim& sim, int node) const {
  sim = sims_[static_cast<std::size_t>(node)];
  sim.changes.clear();
}

std::optional<ReachResult> ReachPlanner::plan(const engine::Game& game, std::span<const ReachGoal> goals,
                                              const ReachRequest& request) {
  ended_.reset();
  if (!game.active() || goals.empty()) return std::nullopt;
  const engine::Handling& handling = game.config().handling;
  hold_us_ = kMs * std::max(1, request.timing.tap_min_ms);
  const TimeUs repeat_ms = first_repeat_us(handling) / kMs;
  if (repeat_ms >= 2) hold_us_ = std::min(hold_us_, kMs * (repeat_ms - 1));
  gap_us_ = kMs * std::max(1, request.timing.gap_min_ms);
  lock_not_before_us_ = request.lock_not_before_us;
  found_.assign(goals.size(), Found{});

  // The start: the previous plan's keys go up when it said; anything else held goes up at once.
  Sim root;
  root.game = game;
  root.last_change_us = std::max<TimeUs>(request.after_us, -1);
  const Buttons held = game.state().held;
  const Buttons carried = static_cast<Buttons>(held & request.carry.buttons);
  root.pending = Carry{carried, carried ? request.carry.release_us : 0};
  for (Buttons bit = 1; bit != 0 && bit <= button::kAll; bit = static_cast<Buttons>(bit << 1)) {
    if (carried & bit) root.free_at[bit_of(bit)] = ceil_ms(request.carry.release_us) + gap_us_;
  }
  const TimeUs start_us = ceil_ms(std::max(game.now(), root.last_change_us + kMs));
  if (const auto stray = static_cast<Buttons>(held & ~carried)) root.set(start_us, 0, stray);
  if (root.game.over()) {  // the time ran out while the keys went up: nothing left to place
    ReachResult r;
    r.plan.inputs = root.changes;
    r.plan.lock_us = root.game.now();
    r.plan.game_over = true;
    return r;
  }

  const engine::Piece active = game.active()->piece;
  const engine::GameState& st = game.state();
  const bool can_hold = game.config().hold_enabled && !st.hold_used;
  const engine::Piece alternative = st.hold != engine::Piece::kNone ? st.hold : st.queue[0];
  std::vector<int> now_goals, hold_goals;
  for (std::size_t i = 0; i < goals.size(); ++i) {
    const ReachGoal& g = goals[i];
    // A goal that is not resting on something can never be a lock: no search needed.
    const engine::Matrix& m = game.matrix();
    if (m.collides(g.state.piece, g.state.rotation, g.state.x, g.state.y) ||
        !m.collides(g.state.piece, g.state.rotation, g.state.x, g.state.y - 1)) {
      continue;
    }
    if (g.state.piece == active) {
      now_goals.push_back(static_cast<int>(i));
    } else if (can_hold && g.state.piece == alternative) {
      hold_goals.push_back(static_cast<int>(i));
    }
  }

  // Goals in order of preference: a start is searched (to the end) only when its first goal is the next in line.
  bool searched_now = false, searched_hold = false;
  for (std::size_t i = 0; i < goals.size(); ++i) {
    const int gi = static_cast<int>(i);
    const bool in_now = std::find(now_goals.begin(), now_goals.end(), gi) != now_goals.end();
    const bool in_hold = std::find(hold_goals.begin(), hold_goals.end(), gi) != hold_goals.end();
    if (in_now && !searched_now) {
      searched_now = true;
      search(root, goals, now_goals, gi);
    } else if (in_hold && !searched_hold) {
      searched_hold = true;
      Sim held_root = root;
      const TimeUs at = held_root.set(press_time(held_root, start_us, button::kHold), button::kHold, 0);
      const TimeUs up = held_root.set(at + hold_us_, 0, button::kHold);
      held_root.free_at[bit_of(button::kHold)] = up + gap_us_;
      held_root.advance(std::max(up + kMs, at + gap_us_));
      if (!held_root.done()) {
        search(held_root, goals, hold_goals, gi);
      } else if (held_root.game.over() && !ended_) {
        ended_ = ReachResult{};
        ended_->plan.inputs = held_root.changes;
        ended_->plan.lock_us = held_root.game.now();
        ended_->plan.game_over = true;
      }
    }
    if (found_[i].exact) return found_[i].result;
  }
  for (const Found& f : found_) {
    if (f.any) return f.result;
  }
  return ended_;
}

void ReachPlanner::search(const Sim& root, std::span<const ReachGoal> goals, std::span<const int> indices,
                          int stop_goal) {
  ++counters_.searches;
  nodes_.clear();
  changes_.clear();
  heap_.clear();
  best_.assign(kKeys, -1);
  stop_ = false;
  stop_goal_ = stop_goal;
  // The root's own changes (releases, a hold) come first in every plan.
  Sim start = root;
  changes_ = start.changes;
  start.changes.clear();
  nodes_.push_back(Node{-1, 0, static_cast<std::uint32_t>(changes_.size()), ceil_ms(start.game.now())});
  if (sims_.empty()) {
    sims_.push_back(start);
  } else {
    sims_[0] = start;
  }
  const int root_key = key_of(start.game);
  if (root_key >= 0) best_[static_cast<std::size_t>(root_key)] = 0;
  heap_.emplace_back(nodes_[0].ready_us, 0);
  int expanded = 0;
  while (!heap_.empty() && !stop_ && expanded < kMaxNodes) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const int node = heap_.back().second;
    heap_.pop_back();
    const int key = key_of(sims_[static_cast<std::size_t>(node)].game);
    if (key >= 0 && best_[static_cast<std::size_t>(key)] != node) continue;  // reached sooner another way
    ++expanded;
    ++counters_.nodes;
    try_drop(node, goals, indices);
    if (!stop_) expand(node, goals, indices);
  }
}

void ReachPlanner::add_child(Sim& sim, int parent, TimeUs ready_us, std::span<const ReachGoal> goals,
                             std::span<const int> indices) {
  if (!sim.done()) sim.advance(ready_us);
  if (sim.done()) {
    // The piece locked by itself (lock delay) or the game ended on the way: a plan if it is what a goal asks.
    if (sim.locked) {
      record(sim, parent, goals, indices, false);
    } else if (!ended_) {
      ReachResult r;
      r.plan = plan_to(parent, sim);
      r.plan.game_over = true;
      ended_ = std::move(r);
    }
    return;
  }
  const int key = key_of(sim.game);
  if (key < 0) return;
  int& best = best_[static_cast<std::size_t>(key)];
  if (best >= 0 && nodes_[static_cast<std::size_t>(best)].ready_us <= ready_us) return;
  const auto index = static_cast<int>(nodes_.size());
  const auto first = static_cast<std::uint32_t>(changes_.size());
  changes_.insert(changes_.end(), sim.changes.begin(), sim.changes.end());
  nodes_.push_back(Node{parent, first, static_cast<std::uint32_t>(changes_.size()), ready_us});
  if (sims_.size() <= static_cast<std::size_t>(index)) {
    sims_.push_back(sim);
  } else {
    sims_[static_cast<std::size_t>(index)] = sim;
  }
  sims_[static_cast<std::size_t>(index)].changes.clear();
  best = index;
  heap_.emplace_back(ready_us, index);
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
}

// The hard drop from `node`, if it would land on a goal's cells.
void ReachPlanner::try_drop(int node, std::span<const ReachGoal> goals, std::span<const int> indices) {
  const Sim& at = sims_[static_cast<std::size_t>(node)];
  const auto active = at.game.active();
  if (!active) return;
  PieceState landing = state_of(*active);
  landing.y = static_cast<std::int8_t>(at.game.ghost_y());
  bool wanted = false;
  for (const int i : indices) wanted = wanted || same_cells(landing, goals[static_cast<std::size_t>(i)].state);
  if (!wanted) return;
  load(edge_, node);
  const TimeUs t = std::max(
      {press_time(edge_, nodes_[static_cast<std::size_t>(node)].ready_us, button::kHardDrop), lock_not_before_us_,
       edge_.pending.buttons & button::kHardDrop ? ceil_ms(edge_.pending.release_us) + gap_us_ : TimeUs{0}});
  // Pacing may keep the piece waiting; the lock delay can lock it first, which record() checks all the same.
  const TimeUs dropped = edge_.set(t, button::kHardDrop, 0);
  if (!edge_.locked) return;
  if (edge_.game.state().held & button::kHardDrop) {
    const Buttons keys = static_cast<Buttons>(edge_.pending.buttons | button::kHardDrop);
    edge_.pending = Carry{keys, std::max(edge_.pending.release_us, dropped + hold_us_)};
  }
  record(edge_, node, goals, indices, true);
}

// A lock at the end of `sim` (started from `node`): kept for every goal it satisfies that has nothing better yet
// (the spin asked for, then the earlier lock). A hard drop from a node is the earliest way to lock there, since
// nodes come in time order, so it ends the search for the goal in line (`final`); a lock the lock delay made on
// the way does not, as a hard drop may still get there sooner.
void ReachPlanner::record(const Sim& sim, int node, std::span<const ReachGoal> goals, std::span<const int> indices,
                          bool final) {
  for (const int i : indices) {
    const ReachGoal& goal = goals[static_cast<std::size_t>(i)];
    Found& f = found_[static_cast<std::size_t>(i)];
    if (!same_cells(sim.lock_state, goal.state)) continue;
    const bool exact = sim.spin == goal.spin;
    if (f.any && (f.exact && !exact)) continue;
    if (f.any && f.exact == exact && f.result.plan.lock_us <= sim.lock_us) continue;
    f.any = true;
    f.exact = exact;
    f.result.goal = i;
    f.result.locked = sim.lock_state;
    f.result.spin = sim.spin;
    f.result.plan = plan_to(node, sim);
    if (exact && final && i == stop_goal_) stop_ = true;
  }
}

PlanResult ReachPlanner::plan_to(int node, const Sim& tail) const {
  std::vector<int> path;
  for (int n = node; n >= 0; n = nodes_[static_cast<std::size_t>(n)].parent) path.push_back(n);
  PlanResult r;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    const Node& n = nodes_[static_cast<std::size_t>(*it)];
    r.inputs.insert(r.inputs.end(), changes_.begin() + n.first_change, changes_.begin() + n.end_change);
  }
  r.inputs.insert(r.inputs.end(), tail.changes.begin(), tail.changes.end());
  r.lock_us = tail.locked ? tail.lock_us : tail.game.now();
  r.game_over = tail.game.over();
  const Buttons held = tail.game.state().held;
  if (held != 0) {
    // Keys still down at the lock are released by the next plan, when this one meant to.
    r.carry = Carry{held, std::max(tail.pending.release_us, tail.last_change_us + hold_us_)};
  }
  return r;
}

void ReachPlanner::expand(int node, std::span<const ReachGoal> goals, std::span<const int> indices) {
  // Copied out first: the moves below add nodes, which may move sims_.
  const engine::Game& game = sims_[static_cast<std::size_t>(node)].game;
  const bool turns = engine::piece_turns(game.config().rotation, game.active()->piece);
  const bool half_turns = game.config().allow_180;
  for (const Buttons key : {button::kMoveLeft, button::kMoveRight}) {
    tap(node, key, goals, indices);
    if (stop_) return;
  }
  if (turns) {
    for (const Buttons key : {button::kRotateCw, button::kRotateCcw, button::kRotate180}) {
      if (key == button::kRotate180 && !half_turns) continue;
      tap(node, key, goals, indices);
      if (stop_) return;
    }
  }
  for (const Buttons key : {button::kMoveLeft, button::kMoveRight}) {
    auto_shift(node, key, goals, indices);
    if (stop_) return;
  }
  soft_drop(node, goals, indices);
  if (!stop_) wait(node, goals, indices);
}

void ReachPlanner::tap(int node, Buttons key, std::span<const ReachGoal> goals, std::span<const int> indices) {
  load(edge_, node);
  const TimeUs ready = nodes_[static_cast<std::size_t>(node)].ready_us;
  const TimeUs down = edge_.set(press_time(edge_, ready, key), key, 0);
  const TimeUs up = edge_.set(down + hold_us_, 0, key);
  edge_.free_at[bit_of(key)] = up + gap_us_;
  add_child(edge_, node, std::max(up + kMs, down + gap_us_), goals, indices);
}

// Holds a direction past the auto-shift delay; every column the piece reaches is a place to let go.
void ReachPlanner::auto_shift(int node, Buttons key, std::span<const ReachGoal> goals, std::span<const int> indices) {
  load(edge_, node);
  const engine::Handling& h = edge_.game.config().handling;
  const TimeUs ready = nodes_[static_cast<std::size_t>(node)].ready_us;
  const TimeUs down = edge_.set(press_time(edge_, ready, key), key, 0);
  const TimeUs repeat_at = down + first_repeat_us(h);
  const TimeUs limit = repeat_at + 11 * static_cast<TimeUs>(h.arr_us) + kMs;
  int x = edge_.game.active() ? edge_.game.active()->x : 0;
  while (!edge_.done()) {
    const engine::GameState& s = edge_.game.state();
    const TimeUs next = std::min({s.shift_blocked ? engine::kNever : s.shift_at, s.fall_at, s.lock_timer_at});
    if (next == engine::kNever || next > limit) break;
    edge_.advance(std::max(next, edge_.game.now() + 1));
    if (edge_.done()) {
      add_child(edge_, node, edge_.game.now(), goals, indices);
      return;
    }
    if (edge_.game.active()->x == x || edge_.game.now() < repeat_at) continue;
    x = edge_.game.active()->x;
    child_ = edge_;
    const TimeUs up = child_.set(std::max(child_.game.now(), down + hold_us_), 0, key);
    child_.free_at[bit_of(key)] = up + gap_us_;
    add_child(child_, node, std::max(up + kMs, down + gap_us_), goals, indices);
    if (stop_) return;
  }
}

// Holds soft drop; every row the piece reaches is a place to let go.
void ReachPlanner::soft_drop(int node, std::span<const ReachGoal> goals, std::span<const int> indices) {
  load(edge_, node);
  if (edge_.game.config().gravity == engine::Gravity::k20G || edge_.game.state().fall_at == engine::kNever) return;
  const TimeUs ready = nodes_[static_cast<std::size_t>(node)].ready_us;
  const TimeUs down = edge_.set(press_time(edge_, ready, button::kSoftDrop), button::kSoftDrop, 0);
  TimeUs t = down + hold_us_;
  for (int rows = 0; rows < engine::kMatrixHeight && !edge_.done(); ++rows) {
    edge_.advance(t);
    if (edge_.done()) {
      add_child(edge_, node, t, goals, indices);
      return;
    }
    child_ = edge_;
    const TimeUs up = child_.set(t, 0, button::kSoftDrop);
    child_.free_at[bit_of(button::kSoftDrop)] = up + gap_us_;
    add_child(child_, node, std::max(up + kMs, down + gap_us_), goals, indices);
    if (stop_) return;
    const TimeUs fall = edge_.game.state().fall_at;
    if (fall == engine::kNever) return;  // on the floor
    t = std::max(t + kMs, ceil_ms(fall));
  }
}

// Lets gravity take the piece one row.
void ReachPlanner::wait(int node, std::span<const ReachGoal> goals, std::span<const int> indices) {
  load(edge_, node);
  const TimeUs fall = edge_.game.state().fall_at;
  if (fall == engine::kNever) return;
  const TimeUs t = std::max(nodes_[static_cast<std::size_t>(node)].ready_us, ceil_ms(fall));
  add_child(edge_, node, t, goals, indices);
}

}  // namespace sr::bot
