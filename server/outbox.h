// How the lobby and rooms talk to players without knowing about ENet: the server implements this by encoding
// messages and queueing them on the player's peer; tests can record them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "common/protocol/messages.h"

namespace sr::server {

using PlayerId = std::uint32_t;

class Outbox {
 public:
  virtual ~Outbox() = default;
  // Queues `message` for `player` on `channel` (protocol::kChannel*). Unknown or departed players are ignored.
  virtual void send(PlayerId player, const protocol::Message& message, std::uint8_t channel) = 0;
  // The same message to several players. The server encodes it once and queues one shared packet, which is what
  // keeps relaying a racer's inputs to a full room cheap.
  virtual void send_many(std::span<const PlayerId> players, const protocol::Message& message, std::uint8_t channel) {
    for (PlayerId p : players) send(p, message, channel);
  }
  // Tells the player why (Disconnecting) and drops the connection once that is sent.
  virtual void drop(PlayerId player, protocol::DisconnectReason reason, const std::string& text) = 0;
  // Closes the connection without a word (the client takes it for a failed attempt and tries again later); for a
  // Resume that must wait until the seat's old connection is known to be gone.
  virtual void close_quietly(PlayerId player) = 0;
  // A racer resumed over a new connection (`from`, not yet welcomed): from now on `keep` is that connection and
  // `from` is no more (the old connection of `keep`, if any, is closed).
  virtual void rebind(PlayerId keep, PlayerId from) = 0;
  // Bytes queued for the player and not yet delivered (sent and unacknowledged, or waiting to be sent); 0 if unknown.
  [[nodiscard]] virtual std::size_t queued_bytes(PlayerId player) const {
    (void)player;
    return 0;
  }
};

}  // namespace sr::server
