#include "common/replay/sample/scripted_player.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <span>

#include "common/engine/game.h"
#include "common/engine/random.h"
#include "common/replay/sample/placement.h"

namespace sr::replay::sample {
namespace {

namespace button = engine::button;
constexpr engine::TimeUs kMs = 1000;

class Player {
 public:
  Player(const engine::GameConfig& config, std::uint64_t seed, const PlayerStyle& style)
      : game_(config, seed), style_(style), rng_(style.seed) {}

  PlayedGame play(std::span<const engine::InputChange> opening) {
    (void)game_.update(0);
    for (const engine::InputChange& c : opening) {
      now_ms_ = c.time_us / kMs;
      held_ = c.buttons;
      inputs_.push_back(c);
      (void)game_.update(c.time_us, c.buttons);
    }
    while (!stopped()) {
      if (!game_.active()) {
        wait(1);  // spawn delay
        continue;
      }
      play_piece();
    }
    PlayedGame out;
    out.inputs = std::move(inputs_);
    out.game_over = game_.over();
    out.end_us = game_.over() ? game_.stats().time_us : now_ms_ * kMs;
    return out;
  }

 private:
  bool stopped() const {
    if (game_.over()) return true;
    if (style_.max_pieces > 0 && game_.stats().pieces >= style_.max_pieces) return true;
    return style_.max_time_us > 0 && now_ms_ * kMs >= style_.max_time_us;
  }

  int between(int lo, int hi) { return lo + static_cast<int>(rng_.below(static_cast<std::uint32_t>(hi - lo + 1))); }

  std::optional<Target> choose(engine::Piece piece) {
    if (style_.clumsy) return nth_placement(game_.matrix(), piece, rng_.below(1000));
    return best_placement(game_.matrix(), piece);
  }

  // The piece a hold would bring out.
  engine::Piece hold_alternative() const {
    if (game_.hold() != engine::Piece::kNone) return game_.hold();
    return game_.state().queue[0];
  }

  void play_piece() {
    const std::int64_t serial = game_.stats().pieces;
    wait(between(style_.think_ms_min, style_.think_ms_max));
    if (piece_gone(serial)) return;

    const engine::Piece current = game_.active()->piece;
    std::optional<Target> target = choose(current);
    if (style_.use_hold && game_.config().hold_enabled && !game_.state().hold_used) {
      const engine::Piece other = hold_alternative();
      const std::optional<Target> alt = choose(other);
      const bool better =
          alt && (!target || alt->score > target->score || (style_.hold_heavy && alt->score >= target->score));
      if (better) {
        tap(button::kHold);
        if (piece_gone(serial) || !game_.active()) return;
        target = choose(game_.active()->piece);
      }
    }
    if (!target) {
      tap(button::kHardDrop);
      return;
    }
    turn_to(*target, serial);
    if (piece_gone(serial)) return;
    shift_to(target->x, serial);
    if (piece_gone(serial)) return;
    tap(button::kHardDrop);
  }

  bool piece_gone(std::int64_t serial) const {
    return game_.over() || !game_.active() || game_.stats().pieces != serial;
  }

  void turn_to(const Target& target, std::int64_t serial) {
    const int turns = (static_cast<int>(target.rotation) - static_cast<int>(game_.active()->rotation) + 4) % 4;
    if (turns == 1) tap(button::kRotateCw);
    if (turns == 3) tap(button::kRotateCcw);
    if (turns == 2) {
      if (game_.config().allow_180) {
        tap(button::kRotate180);
      } else {
        tap(button::kRotateCw);
        if (!piece_gone(serial)) tap(button::kRotateCw);
      }
    }
  }

  void shift_to(int x, std::int64_t serial) {
    int dx = x - game_.active()->x;
    if (dx == 0) return;
    const engine::Buttons key = dx > 0 ? button::kMoveRight : button::kMoveLeft;
    if (std::abs(dx) <= 2) {
      for (int i = 0; i < std::abs(dx) && !piece_gone(serial); ++i) tap(key);
      return;
    }
    // Far moves: hold the key (DAS, then auto-repeat) until the piece gets there or stops moving, then correct
    // an overshoot (ARR 0 slides to the wall) with taps.
    press(key);
    for (int waited = 0; waited < 600 && !piece_gone(serial) && game_.active()->x != x; ++waited) wait(1);
    release(key);
    wait(between(style_.gap_ms_min, style_.gap_ms_max));
    if (piece_gone(serial)) return;
    dx = x - game_.active()->x;
    const engine::Buttons back = dx > 0 ? button::kMoveRight : button::kMoveLeft;
    for (int i = 0; i < std::min(std::abs(dx), 2) && !piece_gone(serial); ++i) tap(back);
  }

  void tap(engine::Buttons key) {
    press(key);
    const int das_ms = game_.config().handling.das_us / 1000;
    int hold = between(style_.tap_ms_min, style_.tap_ms_max);
    if (das_ms > 1) hold = std::min(hold, das_ms - 1);
    wait(std::max(hold, 1));
    release(key);
    wait(between(style_.gap_ms_min, style_.gap_ms_max));
  }

  void press(engine::Buttons key) { set(static_cast<engine::Buttons>(held_ | key)); }
  void release(engine::Buttons key) { set(static_cast<engine::Buttons>(held_ & ~key)); }

  void set(engine::Buttons buttons) {
    if (buttons == held_) return;
    held_ = buttons;
    inputs_.push_back(engine::InputChange{now_ms_ * kMs, buttons});
    (void)game_.update(now_ms_ * kMs, buttons);
  }

  void wait(int ms) {
    now_ms_ += ms;
    (void)game_.update(now_ms_ * kMs);
  }

  engine::Game game_;
  PlayerStyle style_;
  engine::Random rng_;
  engine::Buttons held_ = 0;
  engine::TimeUs now_ms_ = 0;
  std::vector<engine::InputChange> inputs_;
};

}  // namespace

PlayedGame play_scripted(const engine::GameConfig& config, std::uint64_t seed, const PlayerStyle& style,
                         std::span<const engine::InputChange> opening) {
  return Player(config, seed, style).play(opening);
}

}  // namespace sr::replay::sample
