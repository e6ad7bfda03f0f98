// `stackrace-bot --server HOST:PORT --count N ...`: N bots join a server, ready up and race; one line per race and
// a summary (finishers, relay delay median and 99th percentile, the bots' own CPU time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bot/tbp_session.h"
#include "common/bot/bot.h"
#include "common/engine/config.h"
#include "net/identity/player_key.h"

namespace sr::botcli {

struct OnlineOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 7878;
  int count = 2;                             // bots, 1..4000
  int room_size = 8;                         // bots per room, 1..16 (--create); the bots fill rooms in order
  std::optional<std::string> room;           // join (or create) the room of this name instead of numbered rooms
  std::optional<engine::GameConfig> create;  // the mode of rooms the bots create
  int races = 1;                             // races each room plays
  std::string name_prefix = "bot";
  std::optional<net::PlayerKey> key;  // bot_key(): the bots' keys come from it (none: new keys for this run)
  std::vector<std::string> say;       // chat lines each room's bots say before the first race, shared out among them
  bot::BotSettings bot;               // pps, weights, lookahead
  int timeout_s = 600;                // give up after this long
  int poll_every_ms = 0;   // 0: read each socket as soon as it has traffic; N: every N ms (and at own inputs)
  std::string delays_out;  // if set: every relay delay measured, as "SECONDS_SINCE_START DELAY_MS" lines
  // With count 1: a TBP bot chooses the placements (external_player.h); `bot` gives only key timing and pace.
  std::optional<ExternalOptions> external;
  // A directory of recorded games: racers that play those instead of bots (bot/recorded_runner.h, run_recorded).
  std::string recorded;
};

// What the runners (this one and recorded_runner.h) print: this process's CPU seconds so far (user and system), a
// game time as "12.345s", and the value at fraction `p` (0.5 the median) of sorted microseconds, in milliseconds (0
// when empty).
[[nodiscard]] double process_cpu_seconds();
[[nodiscard]] std::string race_time_text(engine::TimeUs t);
[[nodiscard]] double sorted_percentile_ms(const std::vector<std::int64_t>& sorted_us, double p);

// The key bot `name` says Hello with: with one bot, OnlineOptions::key itself (the player's own key, as the game's);
// with more, a key derived from it per name (PlayerKey::derived: stable run after run); without a key, a new one.
[[nodiscard]] net::PlayerKey bot_key(const OnlineOptions& options, const std::string& name);

// "host:port" or "host" (default port 7878). nullopt when malformed.
struct HostPort {
  std::string host;
  std::uint16_t port = 7878;
};
[[nodiscard]] std::optional<HostPort> parse_host_port(const std::string& text);

// Runs the bots; returns the process exit code (0: every race done; 1: a race failed or timed out, or the external
// bot could not start, died or broke the protocol; 2: could not connect or join). A race the external bot forfeits
// is played to its end; its line says why.
int run_online(const OnlineOptions& options);

}  // namespace sr::botcli
