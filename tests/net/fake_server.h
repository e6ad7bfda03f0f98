// A server that says only what a test makes it say: the server's ENet host (server/net_host.h) on 127.0.0.1, an
// ephemeral port, with raw messages sent on any channel. For the client's checks of what it receives.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "common/protocol/messages.h"
#include "server/net_host.h"

namespace sr::test {

class FakeServer {
 public:
  FakeServer();
  [[nodiscard]] std::uint16_t port() const { return host_.port(); }
  // Services the host without waiting; returns what happened.
  std::vector<server::NetEvent> poll();
  // Polls the host and calls `step` (the client's side) until `done` holds or 5 s pass; whether `done` held.
  bool run_until(const std::function<void()>& step, const std::function<bool()>& done);
  // The peer that connected last (0 before any).
  [[nodiscard]] server::PeerId peer() const { return peer_; }
  // Every event seen so far.
  [[nodiscard]] const std::vector<server::NetEvent>& events() const { return events_; }
  // Sends `message` to the last peer on `channel`, whatever the protocol says.
  void send(const protocol::Message& message, std::uint8_t channel);
  void disconnect(std::uint32_t reason);

 private:
  server::NetHost host_;
  server::PeerId peer_ = 0;
  std::vector<server::NetEvent> events_;
};

}  // namespace sr::test
