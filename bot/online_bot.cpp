#include "bot/online_bot.h"

#include <algorithm>

#include "common/engine/input.h"

namespace sr::botcli {

std::uint64_t RelayProbe::key(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t seq) {
  // Three 21-bit fields; larger values would only mix, and a collision costs one wrong sample, nothing more.
  return (static_cast<std::uint64_t>(race_id) << 42) ^ (static_cast<std::uint64_t>(player_id) << 21) ^ seq;
}

void RelayProbe::sent(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t seq) {
  sent_[key(race_id, player_id, seq)] = std::chrono::steady_clock::now();
}

std::optional<std::chrono::steady_clock::time_point> RelayProbe::sent_at(std::uint32_t race_id, std::uint32_t player_id,
                                                                         std::uint32_t seq) const {
  const auto it = sent_.find(key(race_id, player_id, seq));
  if (it == sent_.end()) return std::nullopt;
  return it->second;
}

void RelayProbe::received(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t first_seq, std::size_t count) {
  const auto now = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < count; ++i) {
    const auto it = sent_.find(key(race_id, player_id, first_seq + static_cast<std::uint32_t>(i)));
    if (it == sent_.end()) continue;
    delays_us_.push_back(std::chrono::duration_cast<std::chrono::microseconds>(now - it->second).count());
    measured_at_.push_back(now);
  }
}

OnlineBot::OnlineBot(net::SessionOptions options, bot::BotSettings settings, RelayProbe* probe)
    : OnlineBot(std::move(options), std::make_unique<BuiltinPlayer>(std::move(settings)), probe) {}

OnlineBot::OnlineBot(net::SessionOptions options, std::unique_ptr<Player> player, RelayProbe* probe)
    : options_(std::move(options)), player_(std::move(player)), probe_(probe) {}

std::optional<engine::TimeUs> OnlineBot::race_time() const {
  const auto t = session_.race_time_us();
  if (!t) return std::nullopt;
  return stamp(*t, clock_rate_);
}

engine::TimeUs OnlineBot::stamp(engine::TimeUs race_us, double clock_rate) {
  const auto scaled =
      clock_rate == 1.0 ? race_us : static_cast<engine::TimeUs>(static_cast<double>(race_us) * clock_rate);
  return engine::stamp_on_grid(scaled);
}

std::vector<protocol::Message> OnlineBot::pump(std::uint32_t timeout_ms) {
  std::vector<protocol::Message> received = session_.poll(timeout_ms);
  if (probe_ != nullptr) {
    for (const auto& m : received) {
      if (const auto* inputs = std::get_if<protocol::RacerInputs>(&m)) {
        probe_->received(inputs->race_id, inputs->player_id, inputs->first_seq, inputs->changes.size());
      }
    }
  }
  drive();
  return received;
}

std::optional<std::int64_t> OnlineBot::us_until_due() const {
  const net::RaceView* race = session_.race();
  const auto now = race_time();
  if (race == nullptr || !now || race->mine() == nullptr || race->mine()->game().over()) return std::nullopt;
  if (*now < 0) return static_cast<std::int64_t>(static_cast<double>(-*now) / clock_rate_);
  if (race_key() != bot_race_) return 0;
  if (!pending_) return player_->us_until_ready();
  return std::max<std::int64_t>(0,
                                static_cast<std::int64_t>(static_cast<double>(pending_->time_us - *now) / clock_rate_));
}

std::uint64_t OnlineBot::race_key() const {
  const net::RaceView* race = session_.race();
  const std::uint64_t room = session_.room() ? session_.room()->room_id : 0;
  return race == nullptr ? 0 : room << 32 | race->race_id();
}

void OnlineBot::drive() {
  const net::RaceView* race = session_.race();
  const auto now = race_time();
  if (race == nullptr || !now || *now < 0 || race->mine() == nullptr) return;
  if (race_key() != bot_race_) {
    bot_race_ = race_key();
    player_->new_race();
    pending_.reset();
  }
  const engine::Game& game = race->mine()->game();
  for (int i = 0; i < 64; ++i) {
    // Asked also once the game is over, so that the player can end its business with the game.
    if (!pending_) pending_ = player_->next(game);
    if (game.over() || !pending_ || pending_->time_us > *now) break;
    if (pending_->buttons) {
      // Relays are numbered by the referee's log, which holds exactly the changes our run logs.
      const engine::RacerRun& run = race->mine()->run;
      if (probe_ != nullptr && *pending_->buttons != run.held()) {
        probe_->sent(race->race_id(), race->mine()->entrant.player_id, static_cast<std::uint32_t>(run.log().size()));
      }
      session_.race_press(pending_->time_us, *pending_->buttons);
    } else {
      session_.race_advance(pending_->time_us);
    }
    pending_.reset();
  }
  // A game over (a time limit) leaves any plan behind; the clock must go on, or the server never hears that our game
  // reached its end (a step planned just past a time limit held the heartbeats back until the referee's stall
  // budget removed us).
  if (game.over()) pending_.reset();
  // Never run the game past the next planned input: the bot's plan assumes it is fed exactly its steps.
  session_.race_advance(pending_ ? std::min(*now, pending_->time_us) : *now);
}

net::SessionPump pump_bots(std::vector<std::unique_ptr<OnlineBot>>& bots, OnMessage on_message,
                           net::SessionPump::Options options) {
  return net::SessionPump(
      bots.size(), [&bots](std::size_t i) -> const net::Session& { return bots[i]->session(); },
      [&bots, on_message = std::move(on_message)](std::size_t i) {
        OnlineBot& bot = *bots[i];
        for (const protocol::Message& m : bot.pump(0)) {
          if (on_message) on_message(i, m);
        }
        return bot.us_until_due();
      },
      options);
}

}  // namespace sr::botcli
