// The server's catch-up budget (server/catch_up_queue.h): joiners of a running race beyond it wait their turn, the
// address served longest ago first, and are never refused; what the lobby does with it (a Notice, the count, the
// catch-up a tick later). Fake clocks, no network.
#include <gtest/gtest.h>

#include <vector>

#include "server/catch_up_queue.h"
#include "tests/server/lobby_race_fixture.h"

namespace sr::server {
namespace {

using lobby_test::kMs;
using lobby_test::kSecond;

// Sends every request at `bytes` and notes who got theirs, in order.
struct Recorder {
  std::size_t bytes = 600;
  std::vector<PlayerId> sent;
  CatchUpQueue::Send send() {
    return [this](const CatchUpQueue::Request& r) -> std::optional<std::size_t> {
      sent.push_back(r.player);
      return bytes;
    };
  }
};

TEST(CatchUpQueue, ABudgetOfBytesAndTheRestWaitsTheirTurn) {
  CatchUpQueue queue({1000, 500});
  Recorder rec;
  queue.request(1, 9, 1, "10.0.0.1", false, 0);
  queue.request(2, 9, 1, "10.0.0.1", false, 0);
  queue.request(3, 9, 1, "10.0.0.2", false, 0);
  EXPECT_EQ(queue.serve(0, rec.send()), 2u);
  // 1 first (asked first), then 3: its address was never served, 2's just was. 1000 - 600 - 600 = -200.
  EXPECT_EQ(rec.sent, (std::vector<PlayerId>{1, 3}));
  EXPECT_EQ(queue.budget(0), -200);
  EXPECT_TRUE(queue.waiting(2));
  EXPECT_EQ(queue.serve(400 * kMs, rec.send()), 0u);  // back to 0: not above it yet
  EXPECT_EQ(queue.serve(402 * kMs, rec.send()), 1u);  // 1 byte: 2's catch-up may start, and is charged in full
  EXPECT_EQ(rec.sent.back(), 2u);
  EXPECT_EQ(queue.budget(402 * kMs), 1 - 600);
  EXPECT_EQ(queue.size(), 0u);
  EXPECT_EQ(queue.bytes_sent(), 1800u);
}

// 50 busy addresses, each served once, ask again; a spectator from an address that was never served, asking last,
// goes first.
TEST(CatchUpQueue, AnAddressThatRarelyJoinsGoesBeforeBusyOnes) {
  CatchUpQueue queue({50 * 600, 600});
  Recorder rec;
  for (PlayerId p = 1; p <= 50; ++p) queue.request(p, 9, 1, "10.0.1." + std::to_string(p), false, 0);
  EXPECT_EQ(queue.serve(0, rec.send()), 50u);  // the burst: all at once
  for (PlayerId p = 1; p <= 50; ++p) queue.request(p, 9, 1, "10.0.1." + std::to_string(p), false, kSecond);
  queue.request(100, 9, 1, "10.0.2.1", false, kSecond);
  rec.sent.clear();
  EXPECT_EQ(queue.serve(kSecond, rec.send()), 1u);  // a second's budget: one catch-up
  EXPECT_EQ(rec.sent, (std::vector<PlayerId>{100}));
  EXPECT_EQ(queue.size(), 50u);
  EXPECT_EQ(queue.serve(2 * kSecond, rec.send()), 1u);  // then the busy address served longest ago
  EXPECT_EQ(rec.sent.back(), 1u);
}

TEST(CatchUpQueue, StaleRequestsCostNothingAndTrustedOnesNeverWait) {
  CatchUpQueue queue({1000, 100});
  std::vector<PlayerId> sent;
  const auto send = [&](const CatchUpQueue::Request& r) -> std::optional<std::size_t> {
    if (r.player == 1) return std::nullopt;  // left the room meanwhile
    sent.push_back(r.player);
    return std::size_t{500};
  };
  queue.request(1, 9, 1, "10.0.0.1", false, 0);
  queue.request(2, 9, 1, "10.0.0.2", false, 0);
  queue.request(3, 9, 1, "10.0.0.3", false, 0);
  queue.request(4, 9, 1, "127.0.0.1", true, 0);
  EXPECT_EQ(queue.serve(0, send), 2u);
  EXPECT_EQ(sent, (std::vector<PlayerId>{4, 2}));  // trusted first; 1 was stale and charged nothing
  EXPECT_EQ(queue.budget(0), 0);
  EXPECT_TRUE(queue.waiting(3));
  queue.request(5, 9, 1, "127.0.0.1", true, 0);
  queue.forget(3);
  EXPECT_EQ(queue.serve(0, send), 1u);  // the budget is used up, but a trusted address does not wait
  EXPECT_EQ(sent.back(), 5u);
  EXPECT_EQ(queue.budget(0), -500);
  EXPECT_EQ(queue.size(), 0u);
}

// In the lobby: the first spectator's catch-up goes with the join; the next waits (told so, counted) and gets it at a
// later tick; one who leaves while waiting gets none.
TEST(CatchUpQueue, TheLobbyQueuesCatchUpsBeyondTheBudgetAndServesThemLater) {
  LobbyOptions options;
  options.catch_up = {1, 1'000};  // the first catch-up empties the budget; then 10 bytes every 10 ms
  lobby_test::RaceFixture f({}, options);
  f.run_until(lobby_test::kCountdownUs + 500 * kMs);
  const auto spectator = [&](PlayerId id, const std::string& host) {
    EXPECT_TRUE(f.lobby->connect(id, protocol::kProtocolVersion, host + ":6000", f.now));
    f.lobby->handle(id, f.outbox.hello(id, "s" + std::to_string(id)), f.now);
    f.lobby->handle(id, protocol::JoinRoom{1, "", protocol::Role::kSpectator}, f.now);
    EXPECT_EQ(f.outbox.of<protocol::RoomJoined>(id).size(), 1u);
  };
  spectator(10, "10.0.0.10");
  ASSERT_EQ(f.outbox.of<protocol::CatchUpStart>(10).size(), 1u);
  EXPECT_EQ(f.outbox.of<protocol::CatchUpEnd>(10).size(), 1u);
  const std::size_t bytes = f.lobby->catch_ups().bytes_sent();
  ASSERT_GT(bytes, 0u);
  spectator(11, "10.0.0.11");
  spectator(12, "10.0.0.12");
  EXPECT_TRUE(f.outbox.of<protocol::CatchUpStart>(11).empty());
  const auto notices = f.outbox.of<protocol::Notice>(11);
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0].code, protocol::NoticeCode::kInfo);
  EXPECT_EQ(notices[0].text, "many spectators are joining races: this race follows in a moment");
  f.lobby->handle(12, protocol::LeaveRoom{}, f.now);
  EXPECT_EQ(f.lobby->catch_ups().size(), 1u);
  EXPECT_EQ(f.lobby->addresses().refused()[static_cast<std::size_t>(Limit::kCatchUpQueued)], 2u);
  // The budget is 1 - bytes: above zero again after `bytes` ms (1,000 bytes a second), at the next tick after that.
  const TimeUs joined = f.now;
  f.run_until(joined + static_cast<TimeUs>(bytes) * kMs - 10 * kMs);
  EXPECT_TRUE(f.outbox.of<protocol::CatchUpStart>(11).empty());
  f.run_until(joined + static_cast<TimeUs>(bytes) * kMs + 10 * kMs);
  EXPECT_EQ(f.outbox.of<protocol::CatchUpStart>(11).size(), 1u);
  EXPECT_EQ(f.outbox.of<protocol::CatchUpEnd>(11).size(), 1u);
  EXPECT_TRUE(f.outbox.of<protocol::CatchUpStart>(12).empty());
  EXPECT_EQ(f.lobby->catch_ups().size(), 0u);
  EXPECT_EQ(f.lobby->catch_ups().bytes_sent(), 2 * bytes);
}

}  // namespace
}  // namespace sr::server
