#include "tests/netsim/matrix_pump.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <thread>

namespace sr::netsim {
namespace {

using Clock = std::chrono::steady_clock;

// A bot with no traffic and nothing due is still serviced this often.
constexpr std::int64_t kIdleUs = 20'000;

}  // namespace

BotPump::BotPump(std::vector<std::unique_ptr<botcli::OnlineBot>>& bots, OnMessage on_message)
    : bots_(bots), on_message_(std::move(on_message)), due_(bots_.size(), Clock::now()) {
  epoll_ = epoll_create1(EPOLL_CLOEXEC);
  fds_.assign(bots_.size(), -1);
  for (std::size_t i = 0; i < bots_.size() && epoll_ >= 0; ++i) watch(i);
}

BotPump::~BotPump() {
  if (epoll_ >= 0) ::close(epoll_);
}

void BotPump::watch(std::size_t i) {
  // A closed socket leaves the epoll set by itself, and a new one often gets the same number (a reconnect attempt
  // closes the old socket just before it opens the new one): so while a bot connects, its socket is added again
  // whatever its number (EEXIST when it is already in).
  const int fd = bots_[i]->session().socket_handle();
  const net::Session::State state = bots_[i]->session().state();
  if (fd == fds_[i] && state != net::Session::State::kConnecting && state != net::Session::State::kReconnecting) {
    return;
  }
  fds_[i] = fd;
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = i;
  if (fd >= 0) (void)epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev);
}

void BotPump::service(std::size_t i) {
  botcli::OnlineBot& bot = *bots_[i];
  for (const protocol::Message& m : bot.pump(0)) on_message_(i, m);
  if (epoll_ >= 0) watch(i);
  const std::int64_t us = std::min(kIdleUs, bot.us_until_due().value_or(kIdleUs));
  due_[i] = Clock::now() + std::chrono::microseconds(us);
}

void BotPump::once() {
  Clock::time_point now = Clock::now();
  Clock::time_point first = now + std::chrono::milliseconds(5);
  for (const auto& d : due_) first = std::min(first, d);
  const auto wait_us = std::chrono::duration_cast<std::chrono::microseconds>(first - now).count();
  std::array<epoll_event, 256> events{};
  int n = 0;
  if (epoll_ >= 0) {
    n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()),
                   wait_us <= 0 ? 0 : static_cast<int>((wait_us + 999) / 1000));
  } else if (wait_us > 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(std::min<std::int64_t>(wait_us, 1000)));
  }
  for (int e = 0; e < n; ++e) service(static_cast<std::size_t>(events[static_cast<std::size_t>(e)].data.u64));
  now = Clock::now();
  for (std::size_t i = 0; i < bots_.size(); ++i) {
    if (due_[i] <= now || epoll_ < 0) service(i);
  }
}

bool BotPump::until(const std::function<bool()>& done, Clock::time_point deadline) {
  while (!done()) {
    if (Clock::now() >= deadline) return false;
    once();
  }
  return true;
}

}  // namespace sr::netsim
