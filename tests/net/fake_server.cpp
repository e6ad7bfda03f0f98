#include "tests/net/fake_server.h"

#include <gtest/gtest.h>

#include "common/protocol/codec.h"

namespace sr::test {

FakeServer::FakeServer() {
  const auto opened = host_.open("127.0.0.1", 0, protocol::kChannelCount, server::NetLimits{});
  EXPECT_TRUE(opened.ok()) << opened.error();
}

std::vector<server::NetEvent> FakeServer::poll() {
  std::vector<server::NetEvent> out;
  host_.poll(0, out);
  for (const server::NetEvent& e : out) {
    if (e.kind == server::NetEvent::Kind::kConnect) {
      peer_ = e.peer;
      // As a server does (PROTOCOL.md "Player keys"): the client says Hello only when challenged.
      send(protocol::KeyChallenge{}, protocol::kChannelControl);
    }
    events_.push_back(e);
  }
  return out;
}

bool FakeServer::run_until(const std::function<void()>& step, const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    (void)poll();
    step();
  }
  return true;
}

void FakeServer::send(const protocol::Message& message, std::uint8_t channel) {
  const std::vector<std::uint8_t> bytes = protocol::encode(message);
  EXPECT_TRUE(host_.send(peer_, channel, bytes, true));
  host_.flush();
}

void FakeServer::disconnect(std::uint32_t reason) {
  host_.disconnect(peer_, reason);
  host_.flush();
}

}  // namespace sr::test
