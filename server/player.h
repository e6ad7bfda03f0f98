// A connected player as the lobby knows them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/engine/config.h"
#include "common/protocol/records.h"
#include "server/outbox.h"
#include "server/rate_limiter.h"

namespace sr::server {

using RoomId = std::uint32_t;

struct Player {
  PlayerId id = 0;
  std::string name;      // empty until Hello is accepted
  std::string address;   // "ip:port", for logs
  std::string host;      // the ip alone: what the limits per address count by
  bool trusted = false;  // host is one of AddressLimits::trusted (a load test's machine)
  std::int64_t connected_us = 0;
  // The last message other than Ping and Pong (the client pings on its own): idle lobby players are dropped by it.
  std::int64_t active_us = 0;
  bool welcomed = false;
  // The random challenge sent at connect (KeyChallenge) that the Hello or Resume signs, and the key it proved
  // (PROTOCOL.md "Player keys"): set with `welcomed`.
  protocol::KeyChallengeBytes challenge{};
  protocol::PublicKeyBytes key{};
  RoomId room = 0;  // 0 = in the lobby
  // The last race of the room they left (0: none). Race messages of theirs still in flight when the LeaveRoom got
  // here (it travels on another channel) are for it, and are ignored rather than taken as hostile.
  std::uint32_t left_race = 0;
  engine::Handling handling;  // what they race with (SetHandling)
  // The connection dropped mid-race and the racer's seat is kept for a Resume (PROTOCOL.md "Resuming a race"):
  // since when (server time). Nothing is sent to them meanwhile.
  std::optional<std::int64_t> away_since_us;
  // Time away earlier in race `away_race` (of their room): the seat window is for all drops of one race together, so
  // that dropping again and again buys no more unjudged time than one drop.
  std::uint32_t away_race = 0;
  std::int64_t away_before_us = 0;
  // Every message counts against `messages`; chat lines also against `chat`.
  RateLimiter messages{400, 200};
  RateLimiter chat{5, 1};
  // Every refused request (a Notice saying why) counts against `refusals`; a player past it is dropped. A client that
  // waits for answers meets a handful of refusals; one that asks on regardless of them (a join/leave or list flood
  // from many connections, each within `messages`) would otherwise cost the server a decode, a refusal and a reliable
  // answer per message, and from 5 addresses that stalled every race's relays for seconds (tests/abuse, `all`).
  RateLimiter refusals{30, 5};
};

}  // namespace sr::server
