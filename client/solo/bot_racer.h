// "Race the bot": a second board with the same config and seed, played by the bot (common/bot) at a chosen
// speed. The bot's timed button log drives an ordinary engine Game, advanced to the player's game time each
// frame, so the two boards share one clock.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/solo/feedback.h"
#include "client/solo/solo_session.h"
#include "common/engine/game.h"

namespace sr::client {

class BotRacer {
 public:
  // Whether this build has the bot (common/bot) at all.
  [[nodiscard]] static bool available();
  // nullopt (with `error`) when the bot is unavailable or cannot play this config.
  [[nodiscard]] static std::unique_ptr<BotRacer> create(const engine::GameConfig& config, std::uint64_t seed,
                                                        double pps, std::string& error);
  virtual ~BotRacer() = default;

  // Plays the bot's inputs up to game time `t_us` (never earlier than the last call).
  virtual void advance_to(engine::TimeUs t_us, double wall_s) = 0;
  [[nodiscard]] virtual const engine::Game& game() const = 0;
  [[nodiscard]] virtual const Feedback& feedback() const = 0;
  [[nodiscard]] virtual double pps() const = 0;
  // The bot's button changes so far, as a player's would be logged (for the replay).
  [[nodiscard]] virtual const std::vector<InputEntry>& inputs() const = 0;
};

}  // namespace sr::client
