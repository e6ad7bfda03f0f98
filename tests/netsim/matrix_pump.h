// Runs many bots (bot/online_bot.h) in one thread, for stackrace-netmatrix (tests/netsim/README.md, "The network
// matrix"). It sleeps in epoll until a bot's socket has traffic or a bot's next input is due and services just those
// bots, and every bot at least every 20 ms so that ENet's acknowledgements, pings and the session's heartbeats and
// reconnect attempts keep going. Relay delays are so measured to the moment a packet arrives, as by
// `stackrace-bot --server` (the same scheme as its Pump in bot/online_runner.cpp, which is private to that file).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "bot/online_bot.h"
#include "common/protocol/messages.h"

namespace sr::netsim {

class BotPump {
 public:
  // Called with the bot's index in `bots` and each message the server sent it, in order.
  using OnMessage = std::function<void(std::size_t bot, const protocol::Message& message)>;

  // The bots must outlive the pump; their sessions are open (or opened before the first once()).
  BotPump(std::vector<botcli::OnlineBot*> bots, OnMessage on_message);
  ~BotPump();
  BotPump(const BotPump&) = delete;
  BotPump& operator=(const BotPump&) = delete;

  // Waits for the first socket with traffic or the first due bot (at most 5 ms) and services what is ready.
  void once();
  // Calls once() until `done` holds or `deadline` passes; whether `done` held.
  bool until(const std::function<bool()>& done, std::chrono::steady_clock::time_point deadline);

 private:
  void watch(std::size_t i);
  void service(std::size_t i);

  std::vector<botcli::OnlineBot*> bots_;
  OnMessage on_message_;
  std::vector<std::chrono::steady_clock::time_point> due_;
  int epoll_ = -1;
  std::vector<int> fds_;  // the socket each bot is watched on (a reconnect attempt opens a new one)
};

}  // namespace sr::netsim
