#include "server/catch_up_queue.h"

#include <algorithm>
#include <limits>

namespace sr::server {
namespace {

// When an address was last served is kept this long: longer than any wait in the queue.
constexpr TimeUs kForgetServedAfterUs = 60'000'000;

}  // namespace

CatchUpQueue::CatchUpQueue(CatchUpLimits limits) : limits_(limits), budget_(limits.bytes_burst) {}

void CatchUpQueue::refill(TimeUs now_us) {
  if (refilled_us_ < 0) refilled_us_ = now_us;
  if (now_us <= refilled_us_) return;
  // (Past a full refill more time adds nothing; capping the interval keeps the product in range.)
  const TimeUs elapsed = std::min<TimeUs>(now_us - refilled_us_, 1'000'000'000);
  budget_ = std::min(limits_.bytes_burst, budget_ + elapsed * limits_.bytes_per_second / 1'000'000);
  refilled_us_ = now_us;
}

std::int64_t CatchUpQueue::budget(TimeUs now_us) {
  refill(now_us);
  return budget_;
}

void CatchUpQueue::request(PlayerId player, RoomId room, std::uint32_t race_id, const std::string& host, bool trusted,
                           TimeUs now_us) {
  refill(now_us);
  waiting_[player] = Request{player, room, race_id, host, trusted, next_order_++};
}

const CatchUpQueue::Request* CatchUpQueue::next() const {
  const Request* best = nullptr;
  TimeUs best_served = 0;
  for (const auto& [id, r] : waiting_) {
    const auto served = served_.find(r.host);
    const TimeUs last = r.trusted                 ? std::numeric_limits<TimeUs>::min()
                        : served == served_.end() ? std::numeric_limits<TimeUs>::min() + 1
                                                  : served->second;
    if (best == nullptr || last < best_served || (last == best_served && r.order < best->order)) {
      best = &r;
      best_served = last;
    }
  }
  return best;
}

std::size_t CatchUpQueue::serve(TimeUs now_us, const Send& send) {
  refill(now_us);
  std::size_t sent = 0;
  while (const Request* r = next()) {
    if (budget_ <= 0 && !r->trusted) break;
    const Request request = *r;
    waiting_.erase(request.player);
    const auto bytes = send(request);
    if (!bytes) continue;
    budget_ -= static_cast<std::int64_t>(*bytes);
    bytes_sent_ += *bytes;
    served_[request.host] = now_us;
    ++sent;
  }
  return sent;
}

void CatchUpQueue::purge(TimeUs now_us) {
  for (auto it = served_.begin(); it != served_.end();) {
    it = now_us - it->second > kForgetServedAfterUs ? served_.erase(it) : std::next(it);
  }
}

}  // namespace sr::server
