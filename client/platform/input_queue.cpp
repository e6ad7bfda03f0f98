#include "client/platform/input_queue.h"

#include <chrono>

namespace sr::client {

void InputQueue::push(InputEvent e) {
  {
    std::lock_guard lock(mutex_);
    e.time_s = clock_();  // under the lock: stamps are in push order
    keys_ = keys_ || e.type == InputType::kKey || e.type == InputType::kPads;
    seen_ = true;
    events_.push_back(e);
  }
  cv_.notify_all();
}

void InputQueue::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  cv_.notify_all();
}

std::vector<InputEvent> InputQueue::take() {
  std::vector<InputEvent> out;
  std::lock_guard lock(mutex_);
  out.swap(events_);
  keys_ = false;
  return out;
}

bool InputQueue::has_keys() const {
  std::lock_guard lock(mutex_);
  return keys_;
}

bool InputQueue::take_input_seen() {
  std::lock_guard lock(mutex_);
  const bool seen = seen_;
  seen_ = false;
  return seen;
}

void InputQueue::wait_until(double deadline_s) {
  std::unique_lock lock(mutex_);
  for (;;) {
    if (keys_ || seen_ || woken_) break;
    const double left_s = deadline_s - clock_();
    if (left_s <= 0) break;
    cv_.wait_for(lock, std::chrono::duration<double>(left_s));
  }
  woken_ = false;
}

}  // namespace sr::client
