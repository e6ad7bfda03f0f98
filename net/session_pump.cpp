#include "net/session_pump.h"

#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <thread>
#include <utility>

namespace sr::net {

SessionPump::SessionPump(std::size_t count, SessionOf session_of, Service service, Options options)
    : session_of_(std::move(session_of)), service_(std::move(service)), options_(options), due_(count, Clock::now()) {
  if (!options_.wake_on_traffic) return;
  epoll_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_ < 0) {
    options_.idle_us = std::min<std::int64_t>(options_.idle_us, 1000);  // no epoll: every socket read each millisecond
    return;
  }
  fds_.assign(count, -1);
  for (std::size_t i = 0; i < count; ++i) watch(i);
}

SessionPump::SessionPump(SessionPump&& other) noexcept
    : session_of_(std::move(other.session_of_)),
      service_(std::move(other.service_)),
      options_(other.options_),
      due_(std::move(other.due_)),
      epoll_(std::exchange(other.epoll_, -1)),
      fds_(std::move(other.fds_)) {}

SessionPump::~SessionPump() {
  if (epoll_ >= 0) ::close(epoll_);
}

void SessionPump::watch(std::size_t i) {
  // A closed socket leaves the epoll set by itself, and a new one often gets the same number (a reconnect attempt
  // closes the old socket just before it opens the new one): so while a session connects, its socket is added again
  // whatever its number (EEXIST when it is already in).
  const Session& session = session_of_(i);
  const int fd = session.socket_handle();
  const Session::State state = session.state();
  if (fd == fds_[i] && state != Session::State::kConnecting && state != Session::State::kReconnecting) return;
  fds_[i] = fd;
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.u64 = i;
  if (fd >= 0) (void)epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &ev);
}

void SessionPump::service(std::size_t i) {
  const std::optional<std::int64_t> own_us = service_(i);
  if (epoll_ >= 0) watch(i);
  const std::int64_t us = std::min(options_.idle_us, own_us.value_or(options_.idle_us));
  due_[i] = Clock::now() + std::chrono::microseconds(us);
}

void SessionPump::once() {
  Clock::time_point now = Clock::now();
  Clock::time_point first = now + kMaxWait;
  for (const auto& d : due_) first = std::min(first, d);
  const auto wait_us = std::chrono::duration_cast<std::chrono::microseconds>(first - now).count();
  std::array<epoll_event, 256> events{};
  int n = 0;
  if (epoll_ >= 0) {
    n = epoll_wait(epoll_, events.data(), static_cast<int>(events.size()),
                   wait_us <= 0 ? 0 : static_cast<int>((wait_us + 999) / 1000));
  } else if (wait_us > 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(wait_us));
  }
  for (int e = 0; e < n; ++e) service(static_cast<std::size_t>(events[static_cast<std::size_t>(e)].data.u64));
  now = Clock::now();
  for (std::size_t i = 0; i < due_.size(); ++i) {
    if (due_[i] <= now) service(i);
  }
}

bool SessionPump::until(const std::function<bool()>& done, Clock::time_point deadline) {
  while (!done()) {
    if (Clock::now() >= deadline) return false;
    once();
  }
  return true;
}

}  // namespace sr::net
