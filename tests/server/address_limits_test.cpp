// The limits per address (server/address_book.h): what one IP address may hold and do, and how the lobby refuses the
// rest, in words and in the refusal counts the metrics show. A recording outbox and a fake clock, no network.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "server/address_book.h"
#include "tests/server/lobby_race_fixture.h"

namespace sr::server {
namespace {

using lobby_test::kMs;
using lobby_test::kSecond;
using lobby_test::RecordingOutbox;
using protocol::NoticeCode;

std::uint64_t refused(const AddressBook& book, Limit limit) { return book.refused()[static_cast<std::size_t>(limit)]; }

TEST(AddressBook, CountsConnectionsAndPendingPerAddress) {
  AddressLimits limits;
  limits.max_connections = 3;
  limits.max_pending = 2;
  AddressBook book(limits);
  EXPECT_EQ(book.admit("10.0.0.1", 0), std::nullopt);
  EXPECT_EQ(book.admit("10.0.0.1", 0), std::nullopt);
  EXPECT_EQ(book.admit("10.0.0.1", 0), Limit::kPending);  // two are waiting for their Hello
  EXPECT_EQ(book.admit("10.0.0.2", 0), std::nullopt);     // another address is not affected
  book.welcome("10.0.0.1");
  EXPECT_EQ(book.admit("10.0.0.1", 0), std::nullopt);
  EXPECT_EQ(book.admit("10.0.0.1", 0), Limit::kConnections);
  EXPECT_EQ(book.connections("10.0.0.1"), 3u);
  EXPECT_EQ(book.pending("10.0.0.1"), 2u);
  EXPECT_EQ(book.pending_total(), 3u);
  book.release("10.0.0.1", /*was_pending=*/true, 0);
  EXPECT_EQ(book.connections("10.0.0.1"), 2u);
  EXPECT_EQ(book.pending("10.0.0.1"), 1u);
  EXPECT_EQ(book.admit("10.0.0.1", 0), std::nullopt);
}

TEST(AddressBook, AnAddressIsForgottenOnlyAfterItsBucketsRefilled) {
  AddressLimits limits;
  limits.join_burst = 1;
  limits.joins_per_second = 1;
  AddressBook book(limits);
  ASSERT_EQ(book.admit("10.0.0.1", 0), std::nullopt);
  EXPECT_TRUE(book.allow_join("10.0.0.1", 0));
  EXPECT_FALSE(book.allow_join("10.0.0.1", 0));
  book.release("10.0.0.1", true, 0);
  book.purge(30 * kSecond);
  EXPECT_EQ(book.address_count(), 1u);  // reconnecting now would not hand back a full bucket
  book.purge(61 * kSecond);
  EXPECT_EQ(book.address_count(), 0u);
}

TEST(AddressBook, BytesAreABucketOfTheirOwn) {
  AddressLimits limits;
  limits.bytes_burst = 1000;
  limits.bytes_per_second = 100;
  AddressBook book(limits);
  EXPECT_TRUE(book.allow_bytes("10.0.0.1", 900, 0));
  EXPECT_FALSE(book.allow_bytes("10.0.0.1", 200, 0));
  EXPECT_TRUE(book.allow_bytes("10.0.0.1", 200, kSecond));  // 100 left + 100 refilled
  EXPECT_FALSE(book.allow_bytes("10.0.0.1", 1, kSecond));
}

// A load test's bots all come from one machine: its address is trusted, counted, and never refused.
TEST(AddressBook, ATrustedAddressIsCountedButNeverRefused) {
  AddressLimits limits;
  limits.max_connections = 1;
  limits.max_pending = 1;
  limits.join_burst = 1;
  limits.request_burst = 1;
  limits.bytes_burst = 10;
  limits.trusted = {"127.0.0.1"};
  AddressBook book(limits);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(book.admit("127.0.0.1", 0), std::nullopt);
    EXPECT_TRUE(book.allow_join("127.0.0.1", 0));
    EXPECT_TRUE(book.allow_request("127.0.0.1", 0));
    EXPECT_TRUE(book.allow_bytes("127.0.0.1", 100, 0));
  }
  EXPECT_EQ(book.connections("127.0.0.1"), 5u);
  EXPECT_EQ(book.admit("127.0.0.2", 0), std::nullopt);
  EXPECT_EQ(book.admit("127.0.0.2", 0), Limit::kConnections);
}

// Downloads are charged by the bytes sent: a replay larger than what is left still goes, and the next waits longer.
TEST(AddressBook, DownloadsSpendABudgetOfBytes) {
  AddressLimits limits;
  limits.download_bytes_burst = 1000;
  limits.download_bytes_per_second = 100;
  AddressBook book(limits);
  ASSERT_TRUE(book.may_download("10.0.0.1", 0));
  book.charge_download("10.0.0.1", 3000, 0);  // 1000 - 3000 = -2000
  EXPECT_FALSE(book.may_download("10.0.0.1", 0));
  EXPECT_FALSE(book.may_download("10.0.0.1", 20 * kSecond));  // back to 0: not above it yet
  EXPECT_TRUE(book.may_download("10.0.0.1", 20 * kSecond + 10'000));
  EXPECT_TRUE(book.may_download("10.0.0.2", 0));  // every address its own
}

TEST(AddressBook, AFloodOfRefusalsIsLoggedOnceEveryTenSeconds) {
  AddressBook book({});
  std::uint64_t suppressed = 99;
  EXPECT_TRUE(book.count_refusal("10.0.0.1", Limit::kRequestRate, 0, suppressed));
  EXPECT_EQ(suppressed, 0u);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(book.count_refusal("10.0.0.1", Limit::kRequestRate, kSecond, suppressed));
  EXPECT_TRUE(book.count_refusal("10.0.0.2", Limit::kRequestRate, kSecond, suppressed));  // its own line
  EXPECT_TRUE(book.count_refusal("10.0.0.1", Limit::kJoinRate, AddressBook::kLogEveryUs, suppressed));
  EXPECT_EQ(suppressed, 5u);
  EXPECT_EQ(refused(book, Limit::kRequestRate), 7u);
  EXPECT_EQ(refused(book, Limit::kJoinRate), 1u);
}

TEST(AddressBook, EveryLimitHasADistinctLabel) {
  std::set<std::string> labels;
  for (std::size_t i = 0; i < kLimitCount; ++i) labels.insert(limit_label(static_cast<Limit>(i)));
  EXPECT_EQ(labels.size(), kLimitCount);
  EXPECT_EQ(labels.count("unknown"), 0u);
}

// A lobby with no players yet; players connect from the address given.
struct LimitsFixture {
  RecordingOutbox outbox;
  std::unique_ptr<Lobby> lobby;
  TimeUs now = 0;

  explicit LimitsFixture(LobbyOptions options = {}) {
    RoomServices services;
    services.outbox = &outbox;
    services.next_seed = &lobby_test::fixed_seed;
    lobby = std::make_unique<Lobby>(options, services, nullptr, 1);
  }
  bool connect(PlayerId id, const std::string& host) {
    return lobby->connect(id, protocol::kProtocolVersion, host + ":" + std::to_string(5000 + id), now);
  }
  void hello(PlayerId id) { lobby->handle(id, outbox.hello(id, "p" + std::to_string(id)), now); }
  bool player(PlayerId id, const std::string& host) {
    if (!connect(id, host)) return false;
    hello(id);
    return !outbox.of<protocol::Welcome>(id).empty();
  }
  void run_until(TimeUs t) {
    for (; now < t; now += 50 * kMs) lobby->tick(now);
    now = t;
    lobby->tick(now);
  }
  std::vector<protocol::Notice> notices(PlayerId id) const { return outbox.of<protocol::Notice>(id); }
  protocol::RoomSettings settings() const {
    protocol::RoomSettings s;
    s.name = "room";
    s.config = engine::make_sprint(40);
    return s;
  }
  std::uint64_t refused(Limit limit) const { return lobby->addresses().refused()[static_cast<std::size_t>(limit)]; }
};

TEST(AddressLimits, ConnectionsBeyondThePerAddressCapAreRefusedWithTheRightReason) {
  LobbyOptions options;
  options.max_per_address = 3;
  LimitsFixture f(options);
  for (PlayerId id = 1; id <= 3; ++id) ASSERT_TRUE(f.player(id, "10.0.0.1"));
  EXPECT_FALSE(f.connect(4, "10.0.0.1"));
  const auto rejects = f.outbox.of<protocol::Reject>(4);
  ASSERT_EQ(rejects.size(), 1u);
  EXPECT_EQ(rejects[0].reason, protocol::RejectReason::kTooManyFromAddress);
  EXPECT_EQ(rejects[0].text, "the server allows at most 3 players from one address");
  EXPECT_EQ(f.outbox.dropped.at(4), rejects[0].text);
  EXPECT_TRUE(f.player(5, "10.0.0.2"));
  EXPECT_EQ(f.refused(Limit::kConnections), 1u);
  // One leaves: the address may connect again.
  f.lobby->disconnect(1, f.now);
  EXPECT_TRUE(f.player(6, "10.0.0.1"));
}

// Connections that never say Hello: at most max_pending at once from one address, each dropped after the timeout.
TEST(AddressLimits, SilentConnectionsAreCappedAndTimedOut) {
  LimitsFixture f;
  const std::size_t pending = AddressLimits{}.max_pending;
  for (PlayerId id = 1; id <= pending; ++id) ASSERT_TRUE(f.connect(id, "10.0.0.66"));
  EXPECT_FALSE(f.connect(100, "10.0.0.66"));
  EXPECT_EQ(f.outbox.of<protocol::Reject>(100).at(0).reason, protocol::RejectReason::kTooManyFromAddress);
  EXPECT_TRUE(f.player(200, "10.0.0.1"));  // everybody else connects as usual
  f.run_until(AddressLimits{}.hello_timeout_us);
  EXPECT_TRUE(f.outbox.dropped.empty() || f.outbox.dropped.size() == 1u);  // only the refused one so far
  f.run_until(AddressLimits{}.hello_timeout_us + 300 * kMs);
  for (PlayerId id = 1; id <= pending; ++id) {
    ASSERT_EQ(f.outbox.dropped.count(id), 1u) << id;
    EXPECT_EQ(f.outbox.dropped.at(id), "no Hello within 10 s of connecting");
    EXPECT_EQ(f.outbox.of<protocol::Reject>(id).at(0).reason, protocol::RejectReason::kBadHello);
  }
  EXPECT_EQ(f.outbox.dropped.count(200), 0u);
  EXPECT_EQ(f.refused(Limit::kHelloTimeout), pending);
  EXPECT_EQ(f.refused(Limit::kPending), 1u);
}

TEST(AddressLimits, OneAddressMayHoldOnlySoManyRooms) {
  LimitsFixture f;
  const std::size_t max_rooms = AddressLimits{}.max_rooms;
  for (PlayerId id = 1; id <= max_rooms + 1; ++id) {
    ASSERT_TRUE(f.player(id, "10.0.0.1"));
    f.lobby->handle(id, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  }
  EXPECT_EQ(f.lobby->room_count(), max_rooms);
  const auto refusal = f.notices(max_rooms + 1);
  ASSERT_EQ(refusal.size(), 1u);
  EXPECT_EQ(refusal[0].code, NoticeCode::kTooManyRooms);
  EXPECT_EQ(refusal[0].text, "the server allows at most 8 open rooms made from one address");
  ASSERT_TRUE(f.player(50, "10.0.0.2"));
  f.lobby->handle(50, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  EXPECT_EQ(f.lobby->room_count(), max_rooms + 1);
  // A room closes when its last member leaves: the address may make another.
  f.lobby->handle(1, protocol::LeaveRoom{}, f.now);
  f.lobby->handle(max_rooms + 1, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  EXPECT_EQ(f.lobby->room_count(), max_rooms + 1);
  EXPECT_EQ(f.refused(Limit::kRooms), 1u);
}

// Rooms scarce (fewer than a quarter of max_rooms free): an address holding 5 rooms may not open another, nor one whose
// room is waiting for a race; one whose rooms race may, until it holds 5; the last rooms go to addresses holding none.
TEST(AddressLimits, WhenRoomsAreScarceEachAddressGetsItsShare) {
  LobbyOptions options;
  options.max_rooms = 24;  // scarce below 6 free, from 19 rooms on
  LimitsFixture f(options);
  const auto create = [&](PlayerId id, const std::string& host) {
    EXPECT_TRUE(f.player(id, host));
    f.lobby->handle(id, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
    return f.outbox.of<protocol::RoomJoined>(id).size() == 1;
  };
  // Alone and ready in their room: its countdown starts, so the room is no longer waiting.
  const auto ready = [&](PlayerId id) { f.lobby->handle(id, protocol::SetReady{true}, f.now); };
  EXPECT_TRUE(create(1, "10.0.0.1"));
  EXPECT_TRUE(create(2, "10.0.0.1"));
  // Three addresses open rooms in turn, 8 players each (their own limit): at 19 rooms they hold 6, 6 and 5, and each
  // is refused from then on.
  for (PlayerId i = 0; i < 24; ++i) (void)create(100 + i, "10.0.1." + std::to_string(i % 3 + 1));
  EXPECT_EQ(f.lobby->room_count(), 19u);
  EXPECT_EQ(f.refused(Limit::kRoomShare), 7u);
  const auto refusal = f.notices(117);  // the 18th, from 10.0.1.3 holding 5
  ASSERT_EQ(refusal.size(), 1u);
  EXPECT_EQ(refusal[0].code, NoticeCode::kTooManyRooms);
  EXPECT_EQ(refusal[0].text,
            "the server's rooms are nearly all taken and your address holds its share (5 open rooms): players from "
            "addresses with fewer rooms come first until some close");
  // 10.0.0.1 holds 2 rooms, both waiting: it may open no other.
  EXPECT_FALSE(create(3, "10.0.0.1"));
  EXPECT_EQ(f.notices(3).at(0).text,
            "the server's rooms are nearly all taken and a room made from your address is waiting for a race: join it "
            "(or race in it) before opening another");
  EXPECT_EQ(f.refused(Limit::kRoomShare), 8u);
  // Once they race (their countdowns run), it may open rooms, each racing before the next, until it holds 5.
  ready(1);
  ready(2);
  f.lobby->handle(3, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  EXPECT_EQ(f.outbox.of<protocol::RoomJoined>(3).size(), 1u);
  ready(3);
  EXPECT_TRUE(create(4, "10.0.0.1"));
  ready(4);
  EXPECT_TRUE(create(5, "10.0.0.1"));
  ready(5);
  EXPECT_FALSE(create(6, "10.0.0.1"));
  EXPECT_EQ(f.notices(6).at(0).text,
            "the server's rooms are nearly all taken and your address holds its share (5 open rooms): players from "
            "addresses with fewer rooms come first until some close");
  EXPECT_EQ(f.refused(Limit::kRoomShare), 9u);
  // An address holding none opens one room; while it waits, that address opens no other.
  EXPECT_TRUE(create(50, "10.0.0.9"));
  EXPECT_FALSE(create(51, "10.0.0.9"));
  EXPECT_EQ(f.refused(Limit::kRoomShare), 10u);
  // The last room goes to another address holding none; after it, the server is full for everyone.
  EXPECT_TRUE(create(52, "10.0.0.10"));
  EXPECT_EQ(f.lobby->room_count(), 24u);
  EXPECT_FALSE(create(53, "10.0.0.11"));
  EXPECT_EQ(f.notices(53).at(0).text, "the server has no room for more rooms");
  EXPECT_EQ(f.refused(Limit::kServerRooms), 1u);
  EXPECT_STREQ(limit_label(Limit::kRoomShare), "room_share");
}

// Issue 30's attack, scaled to 24 rooms: 12 addresses x 2 rooms, each under its share, took every room. Now they stop
// when rooms become scarce (their rooms wait), and a newcomer still gets one.
TEST(AddressLimits, ManyAddressesEachUnderItsShareLeaveRoomsToOthers) {
  LobbyOptions options;
  options.max_rooms = 24;
  LimitsFixture f(options);
  PlayerId id = 1;
  std::size_t created = 0;
  for (int round = 0; round < 2; ++round) {
    for (int a = 1; a <= 12; ++a, ++id) {
      ASSERT_TRUE(f.player(id, "10.0.2." + std::to_string(a)));
      f.lobby->handle(id, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
      created += f.outbox.of<protocol::RoomJoined>(id).size();
    }
  }
  // Rooms are scarce once 19 are open (fewer than 6 free): by then every attacking address holds a waiting room.
  EXPECT_EQ(created, 19u);
  EXPECT_EQ(f.refused(Limit::kRoomShare), 5u);
  ASSERT_TRUE(f.player(100, "10.0.3.1"));
  f.lobby->handle(100, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  EXPECT_EQ(f.outbox.of<protocol::RoomJoined>(100).size(), 1u);
  EXPECT_EQ(f.lobby->room_count(), 20u);
}

// A load test's or the network matrix's rooms all come from one trusted address: no share applies to it.
TEST(AddressLimits, ATrustedAddressMayOpenEveryRoom) {
  LobbyOptions options;
  options.max_rooms = 20;
  options.address.trusted = {"127.0.0.1"};
  LimitsFixture f(options);
  for (PlayerId id = 1; id <= 20; ++id) {
    ASSERT_TRUE(f.player(id, "127.0.0.1"));
    f.lobby->handle(id, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  }
  EXPECT_EQ(f.lobby->room_count(), 20u);
  EXPECT_EQ(f.refused(Limit::kRoomShare), 0u);
  EXPECT_EQ(f.refused(Limit::kRooms), 0u);
}

TEST(AddressLimits, JoiningAndLeavingOverAndOverIsRateLimitedPerAddress) {
  LimitsFixture f;
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  f.lobby->handle(1, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  const std::uint32_t room = f.outbox.of<protocol::RoomJoined>(1).at(0).room.room_id;
  ASSERT_TRUE(f.player(2, "10.0.0.9"));
  ASSERT_TRUE(f.player(3, "10.0.0.9"));
  const AddressLimits limits;
  std::size_t joined = 0;
  for (int i = 0; i < 30; ++i) {
    const PlayerId who = i % 2 == 0 ? 2 : 3;  // two connections share the address's budget
    f.lobby->handle(who, protocol::JoinRoom{room, "", protocol::Role::kSpectator}, f.now);
    joined = f.outbox.of<protocol::RoomJoined>(2).size() + f.outbox.of<protocol::RoomJoined>(3).size();
    f.lobby->handle(who, protocol::LeaveRoom{}, f.now);
  }
  EXPECT_EQ(joined, static_cast<std::size_t>(limits.join_burst));
  EXPECT_EQ(f.refused(Limit::kJoinRate), 30u - limits.join_burst);
  std::size_t rate_limited = 0;
  for (const auto& n : f.notices(2))
    rate_limited += n.code == NoticeCode::kRateLimited && n.about == protocol::MessageId::kJoinRoom;
  EXPECT_EQ(rate_limited, (30u - limits.join_burst) / 2);
  // Half a second later one more join is allowed (2 a second), and the room's creator never noticed any of it.
  f.now += 500 * kMs;
  f.lobby->handle(2, protocol::JoinRoom{room, "", protocol::Role::kSpectator}, f.now);
  EXPECT_EQ(f.outbox.of<protocol::RoomJoined>(2).size() + f.outbox.of<protocol::RoomJoined>(3).size(),
            static_cast<std::size_t>(limits.join_burst) + 1);
  EXPECT_TRUE(f.notices(1).empty());
}

// A client that asks on regardless of refusals (a join/leave flood, each message within the per-player limit) is
// dropped after 30 refusals at once; one refused request every 200 ms (5 a second) is answered for as long as it
// goes on, and another player of the same address is not affected.
TEST(AddressLimits, APlayerWhoseRequestsKeepBeingRefusedIsDropped) {
  LimitsFixture f;
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  ASSERT_TRUE(f.player(2, "10.0.0.1"));
  for (int i = 0; i < 31; ++i) f.lobby->handle(1, protocol::LeaveRoom{}, f.now);
  EXPECT_EQ(f.notices(1).size(), 30u);
  ASSERT_EQ(f.outbox.dropped.count(1), 1u);
  EXPECT_EQ(f.outbox.dropped.at(1), "too many refused requests: wait for the answer before asking again");
  EXPECT_EQ(f.refused(Limit::kRefusals), 1u);
  EXPECT_STREQ(limit_label(Limit::kRefusals), "refused_requests");

  for (int i = 0; i < 300; ++i) {  // a minute of one refused request every 200 ms
    f.lobby->handle(2, protocol::LeaveRoom{}, f.now);
    f.now += 200 * kMs;
  }
  EXPECT_EQ(f.notices(2).size(), 300u);
  EXPECT_EQ(f.outbox.dropped.count(2), 0u);
  EXPECT_EQ(f.refused(Limit::kRefusals), 1u);
}

// Idle lobby players are dropped after lobby_idle_us with a message; pings do not count as activity, and a player in
// a room is never dropped for it.
TEST(AddressLimits, PlayersIdleInTheLobbyAreDroppedButNeverThoseInARoom) {
  LobbyOptions options;
  options.room_idle_us = 60 * 60 * kSecond;
  LimitsFixture f(options);
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  ASSERT_TRUE(f.player(2, "10.0.0.2"));
  ASSERT_TRUE(f.player(3, "10.0.0.3"));
  f.lobby->handle(2, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  ASSERT_EQ(f.outbox.of<protocol::RoomJoined>(2).size(), 1u);
  for (int minute = 1; minute <= 9; ++minute) {
    f.run_until(minute * 60 * kSecond);
    f.lobby->handle(1, protocol::Ping{0}, f.now);
    f.lobby->handle(3, protocol::ListRooms{0}, f.now);
  }
  f.run_until(10 * 60 * kSecond);
  EXPECT_EQ(f.outbox.dropped.count(1), 0u);  // exactly 10 minutes: not yet
  f.run_until(10 * 60 * kSecond + 300 * kMs);
  ASSERT_EQ(f.outbox.dropped.count(1), 1u);
  EXPECT_EQ(f.outbox.dropped.at(1), "dropped after 10 minutes idle in the lobby: connect again to play");
  EXPECT_EQ(f.outbox.dropped.count(2), 0u);  // in a room
  EXPECT_EQ(f.outbox.dropped.count(3), 0u);  // asked for the room list a minute ago
  EXPECT_EQ(f.refused(Limit::kIdleLobby), 1u);
}

// The server full: a newcomer from an address with fewer places takes the place of the longest idle lobby player of
// the address holding the most; players in rooms are never asked to go, and an address only one place ahead keeps its
// places.
TEST(AddressLimits, AFullServerMakesRoomFromTheAddressHoldingTheMostPlaces) {
  LobbyOptions options;
  options.max_players = 5;
  LimitsFixture f(options);
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  f.now += kSecond;
  ASSERT_TRUE(f.player(2, "10.0.0.1"));
  ASSERT_TRUE(f.player(3, "10.0.0.1"));
  ASSERT_TRUE(f.player(4, "10.0.0.2"));
  ASSERT_TRUE(f.player(5, "10.0.0.2"));
  f.lobby->handle(1, protocol::ListRooms{0}, f.now + kSecond);  // 1 is the most recently active now
  f.now += 2 * kSecond;
  ASSERT_TRUE(f.player(6, "10.0.0.3"));  // 10.0.0.1 holds 3, 10.0.0.3 none: 2, idle the longest, goes
  ASSERT_EQ(f.outbox.dropped.count(2), 1u);
  EXPECT_EQ(f.outbox.dropped.at(2),
            "the server is full: your place in the lobby went to a player from an address with fewer players (3 are "
            "connected from yours)");
  EXPECT_EQ(f.refused(Limit::kFairShare), 1u);
  EXPECT_EQ(f.lobby->player_count(), 5u);
  // Now 2, 2 and 1 places; 10.0.0.4 holds none: 3, idle the longest of 10.0.0.1, goes.
  ASSERT_TRUE(f.player(7, "10.0.0.4"));
  EXPECT_EQ(f.outbox.dropped.count(3), 1u);
  EXPECT_EQ(f.refused(Limit::kFairShare), 2u);
  // 1, 2, 1 and 1 places, and 1 races from now on: a second place for 10.0.0.4 would need an address holding 3.
  f.lobby->handle(1, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  EXPECT_FALSE(f.player(8, "10.0.0.4"));
  EXPECT_EQ(f.outbox.of<protocol::Reject>(8).at(0).text, "the server is full");
  EXPECT_EQ(f.refused(Limit::kPlayersFull), 1u);
  EXPECT_EQ(f.outbox.dropped.count(1), 0u);
}

TEST(AddressLimits, RequestsAreRateLimitedPerAddressAndForTheServer) {
  LobbyOptions options;
  options.requests_per_second = 15;  // burst 30: a second address runs into the server's budget
  LimitsFixture f(options);
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  ASSERT_TRUE(f.player(2, "10.0.0.2"));
  for (int i = 0; i < 25; ++i) f.lobby->handle(1, protocol::ListRooms{0}, f.now);
  EXPECT_EQ(f.outbox.of<protocol::RoomList>(1).size(), 20u);
  ASSERT_EQ(f.notices(1).size(), 5u);
  EXPECT_EQ(f.notices(1)[0].code, NoticeCode::kRateLimited);
  EXPECT_EQ(f.notices(1)[0].text, "too many requests from your address (at most 10 a second): try again in a moment");
  for (int i = 0; i < 15; ++i) f.lobby->handle(2, protocol::ListRooms{0}, f.now);
  EXPECT_EQ(f.outbox.of<protocol::RoomList>(2).size(), 10u);  // 30 for the server, 20 of them taken
  EXPECT_EQ(f.notices(2).at(0).text, "the server is busy: try again in a moment");
  EXPECT_EQ(f.refused(Limit::kRequestRate), 5u);
  EXPECT_EQ(f.refused(Limit::kServerBusy), 5u);
}

// 40 addresses each asking 10 times a second (within their own limit) take the server's 200 a second; a bystander
// asking once a second still gets every answer, from its fair share.
TEST(AddressLimits, BusyAddressesCannotStarveOneThatAsksNowAndThen) {
  LimitsFixture f;
  for (PlayerId id = 1; id <= 40; ++id) ASSERT_TRUE(f.player(id, "10.0.1." + std::to_string(id)));
  ASSERT_TRUE(f.player(41, "10.0.2.1"));
  for (int tick = 0; tick < 100; ++tick) {  // 10 s in steps of 100 ms
    for (PlayerId id = 1; id <= 40; ++id) f.lobby->handle(id, protocol::ListRooms{0}, f.now);
    if (tick % 10 == 9) f.lobby->handle(41, protocol::ListRooms{0}, f.now);
    f.now += 100 * kMs;
  }
  EXPECT_EQ(f.outbox.of<protocol::RoomList>(41).size(), 10u);
  EXPECT_TRUE(f.notices(41).empty());
  std::size_t answered = 0;
  for (PlayerId id = 1; id <= 40; ++id) answered += f.outbox.of<protocol::RoomList>(id).size();
  // The server's 400 at once and 200 a second over 9.9 s, and each address's share beyond it: 2 at once, 1 a second.
  EXPECT_LE(answered, 400u + 1980u + 40u * (2u + 10u));
  EXPECT_GT(f.refused(Limit::kServerBusy), 0u);
}

TEST(AddressLimits, ADownloadWaitsUntilTheLastOneHasBeenSent) {
  LimitsFixture f;
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  ASSERT_TRUE(f.player(2, "10.0.0.1"));
  f.outbox.queued[1] = Lobby::kMaxQueuedBeforeDownload;
  f.lobby->handle(1, protocol::DownloadReplay{42}, f.now);
  auto busy = f.outbox.of<protocol::ReplayUnavailable>(1);
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy[0].game_id, 42u);
  EXPECT_EQ(busy[0].code, NoticeCode::kRateLimited);
  EXPECT_EQ(busy[0].text, "your last download is still being sent: ask again when it has arrived");
  // The address's budget counts every connection of it.
  f.outbox.queued[1] = Lobby::kMaxQueuedBeforeDownload - 1;
  f.outbox.queued[2] = AddressLimits{}.max_queued_download_bytes;
  f.lobby->handle(1, protocol::DownloadReplay{42}, f.now);
  busy = f.outbox.of<protocol::ReplayUnavailable>(1);
  ASSERT_EQ(busy.size(), 2u);
  EXPECT_EQ(busy[1].text, "downloads to your address are still being sent: ask again when they have arrived");
  EXPECT_EQ(f.refused(Limit::kDownloadQueue), 2u);
}

TEST(AddressLimits, DownloadsBeyondTheAddressByteRateAreRefused) {
  LobbyOptions options;
  options.address.download_bytes_burst = 0;  // nothing left: the next download must wait
  LimitsFixture f(options);
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  f.lobby->handle(1, protocol::DownloadReplay{7}, f.now);
  const auto busy = f.outbox.of<protocol::ReplayUnavailable>(1);
  ASSERT_EQ(busy.size(), 1u);
  EXPECT_EQ(busy[0].code, NoticeCode::kRateLimited);
  EXPECT_EQ(busy[0].text, "your address has downloaded more than 256 KiB a second: ask again in a moment");
  EXPECT_EQ(f.refused(Limit::kDownloadRate), 1u);
}

TEST(AddressLimits, APlayerWhoDoesNotReadIsDroppedBeforeTheQueueCostsTheServer) {
  LimitsFixture f;
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  ASSERT_TRUE(f.player(2, "10.0.0.1"));
  f.outbox.queued[1] = Lobby::kMaxQueuedBytes + 1;
  f.outbox.queued[2] = Lobby::kMaxQueuedBytes;
  f.run_until(500 * kMs);  // (the queues are looked at once a second; the server forgets whom it drops)
  ASSERT_EQ(f.outbox.dropped.count(1), 1u);
  EXPECT_EQ(f.outbox.dropped.at(1), "you are not reading what the server sends (over 16 MiB waiting for you)");
  EXPECT_EQ(f.outbox.dropped.count(2), 0u);
  EXPECT_EQ(f.refused(Limit::kSendQueue), 1u);
}

TEST(AddressLimits, BytesBeyondTheAddressBudgetDropTheSender) {
  LimitsFixture f;
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  const AddressLimits limits;
  EXPECT_TRUE(f.lobby->receive_bytes(1, static_cast<std::size_t>(limits.bytes_burst), f.now));
  EXPECT_FALSE(f.lobby->receive_bytes(1, 1, f.now));
  EXPECT_EQ(f.outbox.dropped.at(1), "your address sent more than 1024 KiB a second");
  EXPECT_EQ(f.refused(Limit::kBytesRate), 1u);
}

TEST(AddressLimits, ARoomWithNoRaceForFifteenMinutesIsClosed) {
  LimitsFixture f;
  ASSERT_TRUE(f.player(1, "10.0.0.1"));
  ASSERT_TRUE(f.player(2, "10.0.0.2"));
  f.lobby->handle(1, protocol::CreateRoom{f.settings(), protocol::Role::kRacer}, f.now);
  const std::uint32_t room = f.outbox.of<protocol::RoomJoined>(1).at(0).room.room_id;
  f.run_until(10 * 60 * kSecond);
  // Somebody joining makes the room live again: its 15 minutes start over.
  f.lobby->handle(2, protocol::JoinRoom{room, "", protocol::Role::kSpectator}, f.now);
  f.run_until(24 * 60 * kSecond);
  EXPECT_EQ(f.lobby->room_count(), 1u);
  f.run_until(25 * 60 * kSecond + 300 * kMs);
  EXPECT_EQ(f.lobby->room_count(), 0u);
  for (PlayerId id : {1u, 2u}) {
    const auto left = f.outbox.of<protocol::RoomLeft>(id);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].reason, protocol::RoomLeftReason::kRoomClosed);
    EXPECT_EQ(left[0].text, "the room was closed: no race for 15 minutes");
  }
  EXPECT_EQ(f.refused(Limit::kIdleRoom), 1u);
  EXPECT_TRUE(f.outbox.dropped.empty());  // its members stay on the server
}

// A racer who resumes from another address (a phone moving from Wi-Fi to mobile data) counts there from then on.
TEST(AddressLimits, AResumedRacerCountsAtTheirNewAddress) {
  lobby_test::RaceFixture f;
  f.lobby->disconnect(1, f.now, /*may_resume=*/true);
  const protocol::RaceSeat seat = f.seat_of(1);
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.9:6000", f.now));
  EXPECT_EQ(f.lobby->addresses().pending("10.0.0.9"), 1u);
  f.lobby->handle(
      3, f.outbox.resume(3, "ada", protocol::Resume{seat.race_id, seat.token_hi, seat.token_lo, "test", {}}), f.now);
  EXPECT_EQ(f.lobby->addresses().connections("10.0.0.9"), 1u);
  EXPECT_EQ(f.lobby->addresses().pending("10.0.0.9"), 0u);
  EXPECT_EQ(f.lobby->addresses().connections("10.0.0.1"), 0u);
  EXPECT_EQ(f.lobby->addresses().pending_total(), 0u);
}

// Attempts the connect gate dropped are counted by how many they were, and logged like every refusal.
TEST(AddressLimits, DroppedConnectAttemptsAreCountedInFull) {
  LimitsFixture f;
  f.lobby->count_refused_connects("10.0.0.9", 120, f.now);
  f.lobby->count_refused_connects("10.0.0.9", 30, f.now + kSecond);
  EXPECT_EQ(f.refused(Limit::kConnectRate), 150u);
  EXPECT_STREQ(limit_label(Limit::kConnectRate), "connect_rate");
  EXPECT_TRUE(f.player(1, "10.0.0.9"));  // the lobby itself holds nothing against the address
}

TEST(AddressBook, ABatchOfRefusalsCountsEachAndLogsOnce) {
  AddressBook book({});
  std::uint64_t suppressed = 99;
  EXPECT_TRUE(book.count_refusal("10.0.0.1", Limit::kConnectRate, 0, suppressed, 40));
  EXPECT_EQ(suppressed, 39u);  // the line stands for the batch: one said, 39 more
  EXPECT_FALSE(book.count_refusal("10.0.0.1", Limit::kConnectRate, kSecond, suppressed, 7));
  EXPECT_TRUE(book.count_refusal("10.0.0.1", Limit::kConnectRate, AddressBook::kLogEveryUs, suppressed, 1));
  EXPECT_EQ(suppressed, 7u);
  EXPECT_EQ(refused(book, Limit::kConnectRate), 48u);
}

}  // namespace
}  // namespace sr::server

namespace sr::server {
namespace {

// The refusal of a taken name offers a free one like it (Lobby::on_hello, free_name_like).
TEST(Names, ATakenNameIsRefusedWithAFreeOneLikeIt) {
  LimitsFixture f;
  const auto named = [&](PlayerId id, const std::string& name) {
    EXPECT_TRUE(f.connect(id, "10.0.0." + std::to_string(id)));
    f.lobby->handle(id, f.outbox.hello(id, name), f.now);
    return f.outbox.of<protocol::Welcome>(id).size() == 1;
  };
  ASSERT_TRUE(named(1, "ada"));
  ASSERT_TRUE(named(2, "Ada2"));
  ASSERT_FALSE(named(3, "ADA"));  // names compare ignoring case
  const auto rejects = f.outbox.of<protocol::Reject>(3);
  ASSERT_EQ(rejects.size(), 1u);
  EXPECT_EQ(rejects[0].reason, protocol::RejectReason::kNameTaken);
  EXPECT_EQ(rejects[0].text, "the name 'ADA' is taken on this server; 'ADA3' is free");
  ASSERT_TRUE(named(4, "ADA3"));  // the suggestion is good
}

// The names in use and the places taken are kept as players come and go (Lobby::welcomed_names_): a name is taken
// while its player is here, in any case, and free again once they left; a place that was taken is free again too.
TEST(Names, ANameAndItsPlaceAreFreeAgainOnceItsPlayerLeaves) {
  LobbyOptions options;
  options.max_players = 2;
  LimitsFixture f(options);
  const net::PlayerKey ada = test::test_key("ada");
  const auto named = [&](PlayerId id, const std::string& name, const net::PlayerKey& key) {
    EXPECT_TRUE(f.connect(id, "10.0.0." + std::to_string(id)));
    f.lobby->handle(id, f.outbox.hello(id, name, key), f.now);
    return f.outbox.of<protocol::Welcome>(id).size() == 1;
  };
  ASSERT_TRUE(named(1, "ada", ada));
  ASSERT_TRUE(named(2, "bob", test::test_key("bob")));
  ASSERT_FALSE(named(3, "Ada", ada));  // the same key, but its name is in use here
  EXPECT_EQ(f.outbox.of<protocol::Reject>(3).at(0).text, "the name 'Ada' is taken on this server; 'Ada2' is free");
  ASSERT_FALSE(named(4, "cy", test::test_key("cy")));
  EXPECT_EQ(f.outbox.of<protocol::Reject>(4).at(0).text, "the server is full");
  f.lobby->disconnect(1, f.now);
  ASSERT_TRUE(named(5, "ADA", ada));  // the name and the place of the player who left
  ASSERT_FALSE(named(6, "cy", test::test_key("cy")));
  EXPECT_EQ(f.outbox.of<protocol::Reject>(6).at(0).text, "the server is full");
  f.lobby->disconnect(2, f.now);
  f.lobby->disconnect(5, f.now);
  ASSERT_TRUE(named(7, "bob", test::test_key("bob")));
  ASSERT_TRUE(named(8, "ada", ada));
}

TEST(Names, AFreeNameCountsOnFromTheTrailingNumberAndKeepsWithinTheLimit) {
  const std::set<std::string> taken{"player8", "player9", "sixteen_letters2", "sixteen_letter10"};
  const auto is_taken = [&](const std::string& n) { return taken.contains(n); };
  EXPECT_EQ(free_name_like("ada", is_taken), "ada2");
  EXPECT_EQ(free_name_like("player7", is_taken), "player10");
  EXPECT_EQ(free_name_like("42", is_taken), "43");
  // 16 bytes is the most: the name is cut before the number.
  EXPECT_EQ(free_name_like("sixteen_letters!", is_taken), "sixteen_letters3");
  EXPECT_EQ(free_name_like("sixteen_letters9", is_taken), "sixteen_letter11");
  EXPECT_EQ(free_name_like("a b", is_taken), "a b2");
  // Nothing free among the next kFreeNameTries (100): no suggestion, after exactly that many lookups.
  int asked = 0;
  EXPECT_EQ(free_name_like("x",
                           [&](const std::string&) {
                             ++asked;
                             return true;
                           }),
            "");
  EXPECT_EQ(asked, 100);
  EXPECT_EQ(free_name_like("x", [](const std::string& n) { return n != "x101"; }), "x101");
  EXPECT_EQ(free_name_like("x", [](const std::string& n) { return n != "x102"; }), "");
  // A trailing number too long to count on.
  EXPECT_EQ(free_name_like("p99999999999999", is_taken), "p2");
}

}  // namespace
}  // namespace sr::server
