// Button changes and auto-shift (DAS / ARR / DAS cut delay).
#include "common/engine/game.h"

#include <array>
#include <cstddef>
#include <cstdint>

#include "common/engine/bits.h"

namespace sr::engine {
namespace {

// How many buttons each set of buttons (0..button::kAll) holds.
constexpr std::array<std::uint8_t, button::kAll + 1> kButtonCount = [] {
  std::array<std::uint8_t, button::kAll + 1> counts{};
  for (std::size_t b = 0; b < counts.size(); ++b) counts[b] = static_cast<std::uint8_t>(count_bits(b));
  return counts;
}();

}  // namespace

void Game::apply_buttons(TimeUs t, Buttons buttons) {
  const Buttons pressed = static_cast<Buttons>(buttons & ~state_.held);
  const Buttons released = static_cast<Buttons>(state_.held & ~buttons);
  state_.held = buttons;
  state_.stats.key_presses += kButtonCount[pressed];  // update() let only bits of button::kAll through

  // Direction keys: the newest held direction wins; releasing it hands over to the other if still held.
  const bool left_held = buttons & button::kMoveLeft;
  const bool right_held = buttons & button::kMoveRight;
  std::int8_t new_dir = state_.das_dir;
  bool restart = false;
  if (pressed & button::kMoveRight) {
    new_dir = 1;
    restart = true;
  } else if (pressed & button::kMoveLeft) {
    new_dir = -1;
    restart = true;
  } else if ((state_.das_dir == -1 && (released & button::kMoveLeft)) ||
             (state_.das_dir == 1 && (released & button::kMoveRight))) {
    new_dir = right_held ? 1 : (left_held ? -1 : 0);
    restart = new_dir != 0;
    if (new_dir == 0) {
      state_.das_dir = 0;
      state_.das_charged = false;
      state_.shift_at = kNever;
      state_.shift_blocked = false;
    }
  }

  const bool piece_out = state_.phase == Phase::kFalling;
  if (!piece_out) {
    Buttons keep = 0;
    if (config_.handling.irs) keep |= button::kRotateCw | button::kRotateCcw | button::kRotate180;
    if (config_.handling.ihs) keep |= button::kHold;
    state_.pending_initial |= static_cast<Buttons>(pressed & keep);
    if (restart) start_das(t, new_dir);
    return;
  }

  if (pressed & button::kHold) do_hold(t);
  if (state_.phase == Phase::kFalling && (pressed & button::kRotateCcw))
    try_rotate(t, rotate_ccw(state_.active.rotation));
  if (state_.phase == Phase::kFalling && (pressed & button::kRotateCw))
    try_rotate(t, rotate_cw(state_.active.rotation));
  if (state_.phase == Phase::kFalling && (pressed & button::kRotate180) && config_.allow_180) {
    try_rotate(t, rotate_180(state_.active.rotation));
  }
  if (state_.phase == Phase::kOver) return;  // a hold or a locking turn topped out: nothing more to do
  if (restart) start_das(t, new_dir);
  if (state_.phase != Phase::kFalling) return;
  if (pressed & button::kSoftDrop) {
    soft_drop_press(t);
  } else if (released & button::kSoftDrop) {
    // Back to normal gravity, counted from now.
    if (!grounded()) state_.fall_at = t + fall_interval_us();
  }
  if (state_.phase == Phase::kFalling && (pressed & button::kHardDrop)) hard_drop(t);
}

void Game::start_das(TimeUs t, std::int8_t dir) {
  state_.das_dir = dir;
  state_.das_charged = false;
  state_.shift_blocked = false;
  // With DAS 0 the first repeat comes one ARR later, so a tap still moves one cell (with ARR 0 too the piece
  // goes to the wall at once: that is what DAS 0 / ARR 0 asks for).
  const Handling& h = config_.handling;
  state_.shift_at = t + (h.das_us == 0 && h.arr_us > 0 ? h.arr_us : h.das_us);
  if (state_.phase == Phase::kFalling) try_move(t, dir);
}

void Game::on_shift_timer(TimeUs t) {
  if (config_.handling.arr_us == 0) {
    state_.shift_at = kNever;
    state_.das_charged = true;
    if (state_.phase == Phase::kFalling) shift_to_wall(t);
    return;
  }
  state_.shift_at = t + config_.handling.arr_us;
  // A repeat that cannot move waits for the piece to change instead of trying again every ARR (resume_shift).
  if (state_.phase != Phase::kFalling || !try_move(t, state_.das_dir)) state_.shift_blocked = true;
}

void Game::resume_shift(TimeUs t) {
  GameState& s = state_;
  if (!s.shift_blocked) return;
  s.shift_blocked = false;
  // The next step of the rhythm at or after t, exactly where repeating every ARR would have put it. A step at the
  // time of this update's button change was already due (and blocked) before the buttons acted.
  const TimeUs arr = config_.handling.arr_us;
  if (s.shift_at < t) s.shift_at += (t - s.shift_at + arr - 1) / arr * arr;
  if (s.shift_at == buttons_at_) s.shift_at += arr;
}

}  // namespace sr::engine
