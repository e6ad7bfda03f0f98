#include "client/solo/bot_racer.h"

#include <algorithm>
#include <cmath>

#include "common/bot/bot.h"

namespace sr::client {

namespace {

// Feeds the bot's steps to its own Game as game time passes. A step is only applied once the player's clock has
// reached it, and the game is never advanced past a pending step, so the bot sees exactly the game it planned for.
class LiveBot final : public BotRacer {
 public:
  LiveBot(const engine::GameConfig& config, std::uint64_t seed, double pps)
      : run_(config, seed), bot_(settings_for(pps)), pps_(pps) {}

  void advance_to(engine::TimeUs t_us, double wall_s) override {
    while (!run_.game().over()) {
      if (!pending_) pending_ = bot_.next(run_.game());
      if (!pending_ || pending_->time_us > t_us) break;
      feed(std::max(pending_->time_us, run_.game().now()), pending_->buttons, wall_s);
      pending_.reset();
    }
    if (t_us > run_.game().now() && (!pending_ || pending_->time_us >= t_us)) feed(t_us, std::nullopt, wall_s);
    feedback_.expire(wall_s);
  }
  [[nodiscard]] const engine::Game& game() const override { return run_.game(); }
  [[nodiscard]] const engine::RacerRun& run() const override { return run_; }
  [[nodiscard]] const Feedback& feedback() const override { return feedback_; }
  [[nodiscard]] double pps() const override { return pps_; }

 private:
  static bot::BotSettings settings_for(double pps) {
    bot::BotSettings s;
    s.pps_milli = static_cast<std::int32_t>(std::lround(pps * 1000.0));
    return s;
  }
  void feed(engine::TimeUs t, std::optional<engine::Buttons> buttons, double wall_s) {
    const auto r = run_.update(t, buttons);
    if (r.error != engine::UpdateError::kOk) return;
    feedback_.on_events(r.events, wall_s);
  }

  engine::RacerRun run_;
  bot::Bot bot_;
  Feedback feedback_;
  std::optional<bot::Step> pending_;
  double pps_;
};

}  // namespace

sr::Result<std::unique_ptr<BotRacer>, std::string> BotRacer::create(const engine::GameConfig& config,
                                                                    std::uint64_t seed, double pps) {
  if (!(pps > 0.0 && pps <= 20.0)) {
    return sr::fail(std::string("the bot's speed must be between 0.1 and 20 pieces per second"));
  }
  return std::unique_ptr<BotRacer>(std::make_unique<LiveBot>(config, seed, pps));
}

}  // namespace sr::client
