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
#include "common/engine/racer_run.h"
#include "common/result.h"

namespace sr::client {

class BotRacer {
 public:
  // The bot, or the sentence saying why it cannot play (the speed is out of range).
  [[nodiscard]] static sr::Result<std::unique_ptr<BotRacer>, std::string> create(const engine::GameConfig& config,
                                                                                 std::uint64_t seed, double pps);
  virtual ~BotRacer() = default;

  // Plays the bot's inputs up to game time `t_us` (never earlier than the last call).
  virtual void advance_to(engine::TimeUs t_us, double wall_s) = 0;
  [[nodiscard]] virtual const engine::Game& game() const = 0;
  [[nodiscard]] virtual const Feedback& feedback() const = 0;
  [[nodiscard]] virtual double pps() const = 0;
  // The bot's run: its game and its button changes so far, as a player's are logged (for the replay).
  [[nodiscard]] virtual const engine::RacerRun& run() const = 0;
};

}  // namespace sr::client
