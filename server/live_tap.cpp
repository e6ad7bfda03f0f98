#include "server/live_tap.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>
#include <utility>

namespace sr::server {

LiveTap::LiveTap() : wake_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

LiveTap::~LiveTap() {
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void LiveTap::wake() {
  if (woken_ || wake_fd_ < 0) return;
  woken_ = true;
  const std::uint64_t one = 1;
  (void)!::write(wake_fd_, &one, sizeof one);
}

void LiveTap::room_message(RoomId room, bool is_private, const protocol::Message& message) {
  const std::lock_guard lock(mutex_);
  if (pending_.size() >= kMaxPending) {
    overflowed_ = true;
    return;
  }
  // A private room's messages stay in the room: only the fact that it is private reaches the web side.
  if (is_private) {
    pending_.push_back(RoomMessage{room, true, ++seq_, protocol::Message{}});
  } else {
    pending_.push_back(RoomMessage{room, false, ++seq_, message});
  }
  wake();
}

void LiveTap::lobby(LobbySnapshot snapshot) {
  const std::lock_guard lock(mutex_);
  snapshot.tap_seq = seq_;
  lobby_ = std::move(snapshot);
  wake();
}

LiveTap::Batch LiveTap::take() {
  Batch batch;
  const std::lock_guard lock(mutex_);
  // The eventfd is emptied under the lock: a message appended after this take() wakes the web thread again.
  if (woken_ && wake_fd_ >= 0) {
    std::uint64_t count = 0;
    (void)!::read(wake_fd_, &count, sizeof count);
  }
  woken_ = false;
  batch.messages.swap(pending_);
  batch.lobby.swap(lobby_);
  batch.overflowed = std::exchange(overflowed_, false);
  return batch;
}

}  // namespace sr::server
