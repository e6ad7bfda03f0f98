// One bot racing on a server: a net/ Session whose own board is driven by a Player (online_player.h: common/bot,
// or an external TBP bot) exactly as a person's keys would drive it (stamped on a 1 ms grid, sent as they happen).
// Used by `stackrace-bot --server`, `--ladder` and the server's integration tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bot/online_player.h"
#include "common/bot/bot.h"
#include "common/result.h"
#include "net/session.h"
#include "net/session_pump.h"

namespace sr::botcli {

// Measures relay delay inside one process: when a bot sends a change and when another bot receives it relayed.
class RelayProbe {
 public:
  void sent(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t seq);
  void received(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t first_seq, std::size_t count);
  // When change `seq` of racer `player_id` in race `race_id` was sent, if it was.
  [[nodiscard]] std::optional<std::chrono::steady_clock::time_point> sent_at(std::uint32_t race_id,
                                                                             std::uint32_t player_id,
                                                                             std::uint32_t seq) const;
  // Delays in microseconds, in the order they were measured, and when each was measured (steady clock).
  [[nodiscard]] const std::vector<std::int64_t>& delays_us() const { return delays_us_; }
  [[nodiscard]] const std::vector<std::chrono::steady_clock::time_point>& measured_at() const { return measured_at_; }

 private:
  static std::uint64_t key(std::uint32_t race_id, std::uint32_t player_id, std::uint32_t seq);
  std::unordered_map<std::uint64_t, std::chrono::steady_clock::time_point> sent_;
  std::vector<std::int64_t> delays_us_;
  std::vector<std::chrono::steady_clock::time_point> measured_at_;
};

class OnlineBot {
 public:
  // Played by the built-in bot.
  OnlineBot(net::SessionOptions options, bot::BotSettings settings, RelayProbe* probe = nullptr);
  // Played by `player` (not null).
  OnlineBot(net::SessionOptions options, std::unique_ptr<Player> player, RelayProbe* probe = nullptr);

  [[nodiscard]] sr::Status<std::string> open() { return session_.open(options_); }
  // Network traffic (waits up to timeout_ms), then the bot's due inputs. Returns what the server sent.
  std::vector<protocol::Message> pump(std::uint32_t timeout_ms);
  // The bot's due inputs only (pump() calls it).
  void drive();
  // Microseconds until the bot next has something to do in a race (its next input, or the start), or nullopt when it
  // has none planned. A load generator sleeps until the earliest of these instead of polling every bot.
  [[nodiscard]] std::optional<std::int64_t> us_until_due() const;

  net::Session& session() { return session_; }
  [[nodiscard]] const net::Session& session() const { return session_; }
  [[nodiscard]] const std::string& name() const { return options_.name; }
  // Tests: the bot's race clock runs at this rate of real time (0.9 = a slowed game).
  void set_clock_rate(double rate) { clock_rate_ = rate; }
  // The stamp of a change the bot makes when its session's race clock reads `race_us` and its own clock runs at
  // `clock_rate` of it: the scaled time, stamped as the game stamps key events (engine::stamp_on_grid).
  [[nodiscard]] static engine::TimeUs stamp(engine::TimeUs race_us, double clock_rate);
  [[nodiscard]] std::int64_t decisions() const { return player_->decisions(); }
  [[nodiscard]] const Player& player() const { return *player_; }

 private:
  [[nodiscard]] std::optional<engine::TimeUs> race_time() const;

  net::SessionOptions options_;
  std::unique_ptr<Player> player_;
  RelayProbe* probe_;
  net::Session session_;
  [[nodiscard]] std::uint64_t race_key() const;
  // The race the bot plays, as room id << 32 | race id: race ids count per room, and a contest entrant plays each
  // game in a new room, whose first race is race 1 again.
  std::uint64_t bot_race_ = 0;
  std::optional<bot::Step> pending_;
  double clock_rate_ = 1.0;
};

// Runs `bots` on one net::SessionPump (net/session_pump.h): each serviced bot's traffic, then its due inputs. Every
// message a bot receives goes to `on_message` (when given) with the bot's index. `bots` must outlive the pump; a bot
// may be replaced at its index between calls.
using OnMessage = std::function<void(std::size_t bot, const protocol::Message& message)>;
[[nodiscard]] net::SessionPump pump_bots(std::vector<std::unique_ptr<OnlineBot>>& bots, OnMessage on_message = {},
                                         net::SessionPump::Options options = {});

}  // namespace sr::botcli
