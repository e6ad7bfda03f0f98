// Who chooses the key presses of an OnlineBot's own game (online_bot.h): the built-in bot (BuiltinPlayer, here), or
// an external Tetris Bot Protocol bot (ExternalPlayer, external_player.h). The race clock runs in real time whatever
// the player does: while a player has nothing planned, the game follows the clock (gravity keeps acting).
#pragma once

#include <cstdint>
#include <optional>

#include "common/bot/bot.h"

namespace sr::botcli {

class Player {
 public:
  virtual ~Player() = default;

  // A new race begins: the next game passed to next() is a fresh one.
  virtual void new_race() = 0;
  // The next step for `game`, which was fed every step returned so far and otherwise advanced to the race clock.
  // nullopt: nothing planned now (the caller advances the game to the race clock and asks again on its next pump).
  // Called once more when the game is over, so that a player can end its business with that game. Must not block
  // for more than a few milliseconds while a game is on.
  [[nodiscard]] virtual std::optional<bot::Step> next(const engine::Game& game) = 0;
  // Placements chosen so far, over all races.
  [[nodiscard]] virtual std::int64_t decisions() const = 0;
  // After next() gave nullopt while the game is on: microseconds until it is worth asking again (a load generator
  // sleeps that long). 0: at once.
  [[nodiscard]] virtual std::int64_t us_until_ready() const { return 0; }
  // True once the player cannot play any more (an external bot died or broke the protocol; why was reported).
  [[nodiscard]] virtual bool broken() const { return false; }
};

// common/bot's own choices, a fresh bot::Bot per race.
class BuiltinPlayer final : public Player {
 public:
  explicit BuiltinPlayer(bot::BotSettings settings) : settings_(std::move(settings)) {}

  void new_race() override { bot_.emplace(settings_); }
  [[nodiscard]] std::optional<bot::Step> next(const engine::Game& game) override {
    if (!bot_) bot_.emplace(settings_);
    const std::int64_t before = bot_->counters().decisions;
    auto step = bot_->next(game);
    decisions_ += bot_->counters().decisions - before;
    return step;
  }
  [[nodiscard]] std::int64_t decisions() const override { return decisions_; }

 private:
  bot::BotSettings settings_;
  std::optional<bot::Bot> bot_;
  std::int64_t decisions_ = 0;
};

}  // namespace sr::botcli
