#include "common/bot/input_plan.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>

namespace sr::bot {
namespace {

using engine::Buttons;
using engine::TimeUs;
namespace button = engine::button;

constexpr TimeUs kMs = 1000;

Buttons button_for(Action a) {
  switch (a) {
    case Action::kLeft:
    case Action::kDasLeft: return button::kMoveLeft;
    case Action::kRight:
    case Action::kDasRight: return button::kMoveRight;
    case Action::kRotateCw: return button::kRotateCw;
    case Action::kRotateCcw: return button::kRotateCcw;
    case Action::kRotate180: return button::kRotate180;
    case Action::kSoftDrop: return button::kSoftDrop;
    case Action::kHold: return button::kHold;
  }
  return 0;
}

std::size_t bit_of(Buttons b) { return static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(b))); }

// Drives the copy of the game and records every change it makes to the buttons.
class Builder {
 public:
  Builder(const engine::Game& game, TimeUs after_us, const Timing& timing, engine::Random& rng)
      : sim_(game), timing_(timing), rng_(rng) {
    held_ = sim_.state().held;
    last_change_ = std::max<TimeUs>(after_us, -1);
    pieces_ = sim_.stats().pieces;
    available_.fill(0);
    next_press_ = ceil_ms(sim_.now()) + gap();
  }

  [[nodiscard]] bool done() const { return locked_.has_value() || sim_.over(); }
  [[nodiscard]] const std::optional<PieceState>& locked() const { return locked_; }
  [[nodiscard]] const engine::Game& sim() const { return sim_; }
  [[nodiscard]] Buttons held() const { return held_; }
  [[nodiscard]] TimeUs lock_us() const { return lock_us_; }
  std::vector<engine::InputChange>& inputs() { return out_; }

  TimeUs gap() { return kMs * draw(timing_.gap_min_ms, timing_.gap_max_ms); }
  TimeUs tap_hold(Buttons b) {
    TimeUs ms = draw(timing_.tap_min_ms, timing_.tap_max_ms);
    if (b & (button::kMoveLeft | button::kMoveRight)) {
      // Released before the first auto-repeat, so a tap moves one column.
      const TimeUs repeat_ms = first_repeat_us(sim_.config().handling) / kMs;
      if (repeat_ms >= 2) ms = std::min(ms, repeat_ms - 1);
    }
    return kMs * std::max<TimeUs>(1, ms);
  }

  // Presses `b` at the earliest time the pacing rules allow at or after `earliest`; returns when.
  TimeUs press(Buttons b, TimeUs earliest) {
    TimeUs t = std::max(earliest, next_press_);
    t = std::max(t, available_[bit_of(b)]);
    if (b & (button::kMoveLeft | button::kMoveRight)) {
      // One hand for both directions: the other one must be up first.
      t = std::max({t, available_[bit_of(button::kMoveLeft)], available_[bit_of(button::kMoveRight)]});
    }
    advance_to(ceil_ms(t));
    if (done()) return sim_.now();
    const TimeUs at = change(ceil_ms(t), static_cast<Buttons>(held_ | b));
    next_press_ = at + gap();
    return at;
  }

  void release_at(Buttons b, TimeUs at) {
    // Never more than a few keys are down at once; a full list would be a planner bug.
    assert(pending_count_ < static_cast<int>(pending_.size()));
    if (pending_count_ >= static_cast<int>(pending_.size())) return;
    pending_[static_cast<std::size_t>(pending_count_++)] = Pending{ceil_ms(at), b};
    for (Buttons bit = 1; bit != 0 && bit <= button::kAll; bit = static_cast<Buttons>(bit << 1)) {
      if (b & bit) available_[bit_of(bit)] = ceil_ms(at) + gap();
    }
  }
  [[nodiscard]] TimeUs latest_release() const {
    TimeUs t = -1;
    for (int i = 0; i < pending_count_; ++i) t = std::max(t, pending_[static_cast<std::size_t>(i)].at);
    return t;
  }
  [[nodiscard]] bool releases_pending() const { return pending_count_ > 0; }
  [[nodiscard]] TimeUs next_press() const { return next_press_; }
  [[nodiscard]] TimeUs available(Buttons b) const { return available_[bit_of(b)]; }
  void delay_next_press(TimeUs t) { next_press_ = std::max(next_press_, t); }

  // Runs the copy to time t, releasing keys whose release falls before or at t.
  void advance_to(TimeUs t) {
    while (!done()) {
      int first = -1;
      for (int i = 0; i < pending_count_; ++i) {
        if (first < 0 || pending_[static_cast<std::size_t>(i)].at < pending_[static_cast<std::size_t>(first)].at)
          first = i;
      }
      if (first < 0 || pending_[static_cast<std::size_t>(first)].at > t) break;
      const Pending p = pending_[static_cast<std::size_t>(first)];
      pending_[static_cast<std::size_t>(first)] = pending_[static_cast<std::size_t>(--pending_count_)];
      change(p.at, static_cast<Buttons>(held_ & ~p.buttons));
    }
    if (!done() && t > sim_.now()) observe(sim_.update(t).events);
  }

  // Applies a button change at t, or at the first free millisecond after it.
  TimeUs change(TimeUs t, Buttons buttons) {
    t = ceil_ms(std::max({t, last_change_ + 1, sim_.now()}));
    if (buttons == held_) return t;  // an input log holds only changes
    const engine::UpdateResult r = sim_.update(t, buttons);
    observe(r.events);
    out_.push_back(engine::InputChange{t, buttons});
    held_ = buttons;
    last_change_ = t;
    return t;
  }

 private:
  struct Pending {
    TimeUs at = 0;
    Buttons buttons = 0;
  };

  TimeUs draw(std::int32_t lo, std::int32_t hi) {
    if (hi <= lo) return lo;
    return lo + static_cast<TimeUs>(rng_.below(static_cast<std::uint32_t>(hi - lo + 1)));
  }
  void observe(std::span<const engine::Event> events) {
    for (const engine::Event& e : events) {
      if (e.kind == engine::EventKind::kLock && !locked_) {
        locked_ = PieceState{e.piece, e.rotation, e.x, e.y};
        lock_us_ = e.time_us;
      }
    }
    if (sim_.over() && !locked_) lock_us_ = sim_.now();
  }

  engine::Game sim_;
  const Timing& timing_;
  engine::Random& rng_;
  std::vector<engine::InputChange> out_;
  Buttons held_ = 0;
  TimeUs last_change_ = -1;
  std::int64_t pieces_ = 0;
  std::array<Pending, 16> pending_{};
  int pending_count_ = 0;
  std::array<TimeUs, 8> available_{};  // per button: earliest next press
  TimeUs next_press_ = 0;
  std::optional<PieceState> locked_;
  TimeUs lock_us_ = 0;
};

bool at_state(const engine::Game& g, const PieceState& want, bool check_y) {
  const auto a = g.active();
  if (!a) return false;
  if (a->piece != want.piece || a->rotation != want.rotation || a->x != want.x) return false;
  return !check_y || a->y == want.y;
}

bool grounded(const engine::Game& g) {
  const auto a = g.active();
  return a && g.ghost_y() == a->y;
}

// The plan so far. Keys still waiting for their release (the piece locked by itself first) are handed on.
PlanResult finish(Builder& b) {
  PlanResult r;
  r.inputs = std::move(b.inputs());
  r.lock_us = b.lock_us();
  r.game_over = b.sim().over();
  if (b.held() != 0 && b.releases_pending()) r.carry = Carry{b.held(), b.latest_release()};
  return r;
}

// Starts a builder: keys the last plan left held are released when it said, anything else held at once.
void take_over(Builder& b, const Carry& carry) {
  const Buttons carried = static_cast<Buttons>(b.held() & carry.buttons);
  if (carried) b.release_at(carried, carry.release_us);
  const Buttons stray = static_cast<Buttons>(b.held() & ~carried);
  for (Buttons bit = 1; bit != 0 && bit <= button::kAll; bit = static_cast<Buttons>(bit << 1)) {
    if (stray & bit) b.release_at(bit, 0);
  }
}

}  // namespace

bool same_cells(const PieceState& a, const PieceState& b) {
  if (a.piece != b.piece) return false;
  const PieceMask& ma = piece_mask(a.piece, a.rotation);
  const PieceMask& mb = piece_mask(b.piece, b.rotation);
  return ma.canonical == mb.canonical && a.x + ma.canonical_dx == b.x + mb.canonical_dx &&
         a.y + ma.canonical_dy == b.y + mb.canonical_dy;
}

std::optional<PlanResult> plan_inputs(const engine::Game& game, const PlanRequest& request, const Timing& timing,
                                      engine::Random& rng) {
  if (!game.active() || request.actions.size() != request.expected.size()) return std::nullopt;
  Builder b(game, request.after_us, timing, rng);
  take_over(b, request.carry);
  const engine::Handling& handling = game.config().handling;
  // Anything held for longer than this without reaching its goal has gone wrong.
  const TimeUs patience = handling.das_us + 12 * static_cast<TimeUs>(handling.arr_us) + 2'000'000;

  // Once the piece has locked (or the game ended) the plan is over: right if it locked on the target.
  auto ended_well = [&]() -> std::optional<bool> {
    if (b.sim().over() && !b.locked()) return true;  // time ran out: nothing left to place
    if (!b.locked()) return std::nullopt;
    return same_cells(*b.locked(), request.target);
  };

  for (std::size_t i = 0; i < request.actions.size(); ++i) {
    const Action action = request.actions[i];
    const PieceState& want = request.expected[i];
    const Buttons key = button_for(action);
    const TimeUs pressed = b.press(key, 0);
    if (const auto end = ended_well()) return *end ? std::optional(finish(b)) : std::nullopt;
    switch (action) {
      case Action::kHold:
        if (!b.sim().active() || b.sim().active()->piece != want.piece) return std::nullopt;
        b.release_at(key, pressed + b.tap_hold(key));
        break;
      case Action::kDasLeft:
      case Action::kDasRight:
      case Action::kSoftDrop: {
        const bool drop = action == Action::kSoftDrop;
        for (;;) {
          if (!b.sim().active()) break;
          if (drop ? grounded(b.sim()) : b.sim().active()->x == want.x) break;
          // The next thing that can move the piece: a gravity or soft-drop step, or an auto-shift step (which,
          // when it is blocked, waits for the piece to change, so only a fall can free it).
          const engine::GameState& st = b.sim().state();
          const TimeUs shift = st.shift_blocked ? engine::kNever : st.shift_at;
          const TimeUs next_event = drop ? st.fall_at : std::min(shift, st.fall_at);
          if (next_event == engine::kNever || next_event > pressed + patience) return std::nullopt;
          b.advance_to(ceil_ms(std::max(next_event, b.sim().now() + 1)));
          if (b.done()) break;
        }
        if (const auto end = ended_well()) return *end ? std::optional(finish(b)) : std::nullopt;
        const TimeUs reached = b.sim().now();
        b.release_at(key, std::max(reached + kMs, pressed + kMs * timing.tap_min_ms));
        b.delay_next_press(reached + b.gap());
        if (!at_state(b.sim(), want, false)) return std::nullopt;
        break;
      }
      default:
        if (!at_state(b.sim(), want, false)) return std::nullopt;
        b.release_at(key, pressed + b.tap_hold(key));
        break;
    }
  }

  // The hard drop: every other key up first, and not before the pace allows.
  TimeUs drop_at =
      std::max({b.next_press(), b.latest_release() + kMs, request.lock_not_before_us, b.available(button::kHardDrop)});
  b.advance_to(ceil_ms(drop_at));
  while (!b.done() && b.releases_pending()) b.advance_to(b.latest_release());
  if (const auto end = ended_well()) return *end ? std::optional(finish(b)) : std::nullopt;
  const auto active = b.sim().active();
  if (!active) return std::nullopt;
  const PieceState landing{active->piece, active->rotation, active->x, static_cast<std::int8_t>(b.sim().ghost_y())};
  if (!same_cells(landing, request.target)) return std::nullopt;
  const TimeUs dropped = b.change(drop_at, static_cast<Buttons>(b.held() | button::kHardDrop));
  if (!b.locked() || !same_cells(*b.locked(), request.target)) return std::nullopt;
  PlanResult r = finish(b);
  r.carry = Carry{button::kHardDrop, dropped + b.tap_hold(button::kHardDrop)};
  return r;
}

PlanResult plan_hard_drop(const engine::Game& game, engine::TimeUs after_us, const Carry& carry) {
  engine::Random rng(0);
  const Timing quick{1, 1, 1, 1};
  Builder b(game, after_us, quick, rng);
  take_over(b, carry);
  while (!b.done() && b.releases_pending()) b.advance_to(b.latest_release());
  if (b.held() != 0 && !b.done()) b.change(0, 0);
  if (b.done() || !b.sim().active()) return finish(b);
  const TimeUs dropped = b.change(0, button::kHardDrop);
  PlanResult r = finish(b);
  r.carry = Carry{button::kHardDrop, dropped + kMs};
  return r;
}

}  // namespace sr::bot
