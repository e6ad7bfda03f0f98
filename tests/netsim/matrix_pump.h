// Runs many bots (bot/online_bot.h) in one thread, for stackrace-netmatrix (tests/netsim/README.md, "The network
// matrix"). It sleeps in epoll until a bot's socket has traffic or a bot's next input is due and services just those
// bots, and every bot at least every 20 ms so that ENet's acknowledgements, pings and the session's heartbeats and
// reconnect attempts keep going. Relay delays are so measured to the moment a packet arrives, as by
// `stackrace-bot --server` (the same scheme as its Pump in bot/online_runner.cpp, which is private to that file).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "bot/online_bot.h"
#include "common/protocol/messages.h"

namespace sr::netsim {

class BotPump {
 public:
  // Called with the bot's index in `bots` and each message the server sent it, in order.
  using OnMessage = std::function<void(std::size_t bot, const protocol::Message& message)>;

  // `bots` must outlive the pump. A bot may be replaced by a new one (at the same index) between calls, and a bot's
  // session may open a new socket (a reconnect): the pump watches whatever socket each bot has.
  BotPump(std::vector<std::unique_ptr<botcli::OnlineBot>>& bots, OnMessage on_message);
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

  std::vector<std::unique_ptr<botcli::OnlineBot>>& bots_;
  OnMessage on_message_;
  std::vector<std::chrono::steady_clock::time_point> due_;
  int epoll_ = -1;
  std::vector<int> fds_;  // the socket each bot was last watched on
};

}  // namespace sr::netsim
