// Player keys at the lobby (PROTOCOL.md "Player keys"): each connection's Hello must sign its own challenge, a name is
// held by the first key that used it (from any address, across restarts of the server), and a seat is resumed only by
// its racer's key. No network: a recording outbox.
#include <gtest/gtest.h>

#include <filesystem>

#include "server/lobby.h"
#include "tests/server/lobby_race_fixture.h"
#include "tests/support/test_keys.h"

namespace sr::server {
namespace {

using lobby_test::RecordingOutbox;
namespace fs = std::filesystem;

struct KeysFixture {
  RecordingOutbox outbox;
  std::unique_ptr<Lobby> lobby;
  TimeUs now = 0;

  KeysFixture() {
    RoomServices services;
    services.outbox = &outbox;
    services.next_seed = &lobby_test::fixed_seed;
    lobby = std::make_unique<Lobby>(LobbyOptions{}, services, nullptr, 1);
  }
  void connect(PlayerId id) {
    ASSERT_TRUE(lobby->connect(id, protocol::kProtocolVersion, "10.0.0." + std::to_string(id) + ":5000", now));
  }
  // Connects `id` and says Hello as `name` with `key`; true when welcomed.
  bool join(PlayerId id, const std::string& name, const net::PlayerKey& key) {
    connect(id);
    lobby->handle(id, outbox.hello(id, name, key), now);
    return outbox.of<protocol::Welcome>(id).size() == 1;
  }
  std::string refusal(PlayerId id) const {
    const auto rejects = outbox.of<protocol::Reject>(id);
    return rejects.empty() ? std::string() : rejects.back().text;
  }
};

TEST(PlayerKeys, EveryConnectionGetsItsOwnRandomChallengeFirst) {
  KeysFixture f;
  f.connect(1);
  f.connect(2);
  ASSERT_EQ(f.outbox.sent.at(1).size(), 1u);
  ASSERT_TRUE(std::holds_alternative<protocol::KeyChallenge>(f.outbox.sent.at(1)[0]));
  const auto a = f.outbox.of<protocol::KeyChallenge>(1).at(0).challenge;
  const auto b = f.outbox.of<protocol::KeyChallenge>(2).at(0).challenge;
  EXPECT_NE(a, b);
  EXPECT_NE(a, protocol::KeyChallengeBytes{});
}

TEST(PlayerKeys, AForgedSignatureIsRefused) {
  KeysFixture f;
  f.connect(1);
  protocol::Hello hello = f.outbox.hello(1, "ada");
  hello.signature[0] ^= 1;
  f.lobby->handle(1, hello, f.now);
  EXPECT_TRUE(f.outbox.of<protocol::Welcome>(1).empty());
  ASSERT_EQ(f.outbox.of<protocol::Reject>(1).size(), 1u);
  EXPECT_EQ(f.outbox.of<protocol::Reject>(1)[0].reason, protocol::RejectReason::kBadHello);
  EXPECT_EQ(f.refusal(1), "the key's signature of this connection's challenge does not verify");
  EXPECT_EQ(f.outbox.dropped.at(1), f.refusal(1));
}

TEST(PlayerKeys, AHelloReplayedOnAnotherConnectionIsRefused) {
  KeysFixture f;
  f.connect(1);
  const protocol::Hello seen = f.outbox.hello(1, "ada");  // what an eavesdropper saw on connection 1
  f.lobby->handle(1, seen, f.now);
  ASSERT_EQ(f.outbox.of<protocol::Welcome>(1).size(), 1u);
  f.lobby->disconnect(1, f.now);
  f.connect(2);
  f.lobby->handle(2, seen, f.now);  // signed for connection 1's challenge, not this one's
  EXPECT_TRUE(f.outbox.of<protocol::Welcome>(2).empty());
  EXPECT_EQ(f.refusal(2), "the key's signature of this connection's challenge does not verify");
}

TEST(PlayerKeys, AStolenPublicKeyWithoutItsSecretIsRefused) {
  KeysFixture f;
  const net::PlayerKey ada = test::test_key("ada");
  ASSERT_TRUE(f.join(1, "ada", ada));
  f.lobby->disconnect(1, f.now);
  // Mallory knows ada's public key (every Hello shows it) and signs with her own secret.
  f.connect(2);
  protocol::Hello forged = f.outbox.hello(2, "ada", test::test_key("mallory"));
  forged.key = ada.public_key();
  f.lobby->handle(2, forged, f.now);
  EXPECT_TRUE(f.outbox.of<protocol::Welcome>(2).empty());
  EXPECT_EQ(f.refusal(2), "the key's signature of this connection's challenge does not verify");
}

TEST(PlayerKeys, ANameIsHeldByItsFirstKeyFromAnyAddress) {
  KeysFixture f;
  const net::PlayerKey ada = test::test_key("ada");
  ASSERT_TRUE(f.join(1, "ada", ada));
  f.lobby->disconnect(1, f.now);  // gone: the name is not in use, but it is held
  EXPECT_FALSE(f.join(2, "Ada", test::test_key("mallory")));
  ASSERT_EQ(f.outbox.of<protocol::Reject>(2).size(), 1u);
  EXPECT_EQ(f.outbox.of<protocol::Reject>(2)[0].reason, protocol::RejectReason::kNameTaken);
  EXPECT_EQ(f.refusal(2), "the name 'Ada' belongs to another player's key on this server; 'Ada2' is free");
  EXPECT_TRUE(f.join(3, "ADA", ada));  // the same person, from another address: their name (any case)
  EXPECT_TRUE(f.join(4, "Ada2", test::test_key("mallory")));
}

TEST(PlayerKeys, TheSuggestionSkipsNamesOtherKeysHold) {
  KeysFixture f;
  ASSERT_TRUE(f.join(1, "ada", test::test_key("a")));
  ASSERT_TRUE(f.join(2, "ada2", test::test_key("b")));
  f.lobby->disconnect(2, f.now);  // not connected, still held by key b
  EXPECT_FALSE(f.join(3, "ada", test::test_key("c")));
  EXPECT_EQ(f.refusal(3), "the name 'ada' is taken on this server; 'ada3' is free");
}

TEST(PlayerKeys, NamesHeldByKeysOutliveTheServer) {
  const fs::path dir = fs::temp_directory_path() / ("stackrace-names-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    KeysFixture f;
    ASSERT_TRUE(f.lobby->names().open(dir / "names.sqlite").ok());
    ASSERT_TRUE(f.join(1, "ada", test::test_key("ada")));
  }
  KeysFixture again;  // a restarted server
  auto opened = again.lobby->names().open(dir / "names.sqlite");
  ASSERT_TRUE(opened.ok()) << opened.error();
  EXPECT_EQ(again.lobby->names().size(), 1u);
  EXPECT_FALSE(again.join(1, "ada", test::test_key("mallory")));
  EXPECT_TRUE(again.join(2, "ada", test::test_key("ada")));
  fs::remove_all(dir);
}

TEST(PlayerKeys, AFullNameBookTakesNoNewNamesButKeepsEveryHeldOne) {
  NameBook book(2);
  const auto a = test::test_key("a").public_key(), b = test::test_key("b").public_key();
  EXPECT_EQ(book.check("one", a), NameBook::Check::kFree);
  ASSERT_TRUE(book.bind("one", a, 0).ok());
  ASSERT_TRUE(book.bind("two", b, 0).ok());
  EXPECT_EQ(book.check("three", a), NameBook::Check::kFull);
  EXPECT_EQ(book.check("ONE", a), NameBook::Check::kOwn);
  EXPECT_EQ(book.check("two", a), NameBook::Check::kOther);
}

TEST(PlayerKeys, ASeatIsResumedOnlyWithItsRacersKey) {
  lobby_test::RaceFixture f;
  const protocol::RaceSeat seat = f.seat_of(1);
  f.lobby->disconnect(1, f.now, /*may_resume=*/true);
  // The token alone (seen in a log, say) with another key: as an unknown seat.
  ASSERT_TRUE(f.lobby->connect(3, protocol::kProtocolVersion, "10.0.0.9:6000", f.now));
  f.lobby->handle(3, f.outbox.resume(3, "mallory", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {}}),
                  f.now);
  EXPECT_TRUE(f.outbox.rebinds.empty());
  EXPECT_EQ(f.outbox.dropped.at(3), "no race to resume: it is over, or the seat is unknown");
  // A Resume whose signature does not verify.
  ASSERT_TRUE(f.lobby->connect(4, protocol::kProtocolVersion, "10.0.0.9:6001", f.now));
  protocol::Resume forged = f.outbox.resume(4, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {}});
  forged.signature[5] ^= 0x40;
  f.lobby->handle(4, forged, f.now);
  EXPECT_EQ(f.outbox.dropped.at(4), "the key's signature of this connection's challenge does not verify");
  EXPECT_TRUE(f.outbox.rebinds.empty());
  // Ada's own key takes it back: her player id moves to the new connection.
  ASSERT_TRUE(f.lobby->connect(5, protocol::kProtocolVersion, "10.0.0.9:6002", f.now));
  f.lobby->handle(5, f.outbox.resume(5, "ada", protocol::Resume{1, seat.token_hi, seat.token_lo, "test", {}}), f.now);
  EXPECT_EQ(f.outbox.rebinds, (std::vector<std::pair<PlayerId, PlayerId>>{{1, 5}}));
}

}  // namespace
}  // namespace sr::server
