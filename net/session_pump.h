// Runs many sessions from one thread without polling each in turn: it sleeps in epoll until a session's socket has
// traffic or a member's own next work is due (at most a few milliseconds), and services just those. Every member is
// serviced at least every `idle_us` as well, so that ENet's acknowledgements, the session's pings, heartbeats and
// reconnect attempts keep going. Relay delays are so measured to the moment a packet arrives. stackrace-bot's runners,
// the network matrix, the abuse suite's honest races and the server's network tests all run their bots on this.
//
// A member is whatever owns a Session and has work of its own (a bot that plays): the pump reaches it by index through
// two functions, so members may be replaced between calls (a bot started anew at the same index), and a session may
// open a new socket (a reconnect): the pump watches whatever socket each member's session has.
//
// Threading: single-threaded, like Session.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "net/session.h"

namespace sr::net {

class SessionPump {
 public:
  using Clock = std::chrono::steady_clock;
  // Member i's session, whose socket is watched.
  using SessionOf = std::function<const Session&(std::size_t i)>;
  // Services member i: its session's traffic without waiting (Session::poll(0)), then its own due work. Returns the
  // microseconds until it next has work of its own, or nullopt when it has none planned.
  using Service = std::function<std::optional<std::int64_t>(std::size_t i)>;

  struct Options {
    // A member with no traffic and nothing due is still serviced this often.
    std::int64_t idle_us = 20'000;
    // False: sockets are not watched, and a member reads its traffic only every idle_us and when its own work is due,
    // as a game reads the network once per frame (its acknowledgements then go out in batches, which is what a large
    // load generator wants).
    bool wake_on_traffic = true;
  };

  // `count` members, 0..count-1.
  SessionPump(std::size_t count, SessionOf session_of, Service service, Options options);
  SessionPump(std::size_t count, SessionOf session_of, Service service)
      : SessionPump(count, std::move(session_of), std::move(service), Options{}) {}
  ~SessionPump();
  SessionPump(SessionPump&& other) noexcept;
  SessionPump& operator=(SessionPump&&) = delete;
  SessionPump(const SessionPump&) = delete;
  SessionPump& operator=(const SessionPump&) = delete;

  // Waits for the first socket with traffic or the first due member (at most kMaxWait) and services what is ready.
  void once();
  // Calls once() until `done` holds or `deadline` passes; whether `done` held.
  bool until(const std::function<bool()>& done, Clock::time_point deadline);

  static constexpr std::chrono::milliseconds kMaxWait{5};

 private:
  void watch(std::size_t i);
  void service(std::size_t i);

  SessionOf session_of_;
  Service service_;
  Options options_;
  std::vector<Clock::time_point> due_;
  int epoll_ = -1;
  std::vector<int> fds_;  // the socket each member was last watched on
};

}  // namespace sr::net
