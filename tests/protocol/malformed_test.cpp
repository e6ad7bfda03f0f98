// Input that must not decode: cut short, padded, unknown, oversized. Every failure is an error value naming the
// field and the byte offset.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/protocol/byte_io.h"
#include "common/protocol/codec.h"
#include "tests/protocol/samples.h"

namespace sr::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

DecodeError error_of(const Bytes& bytes) {
  const DecodeResult r = decode(bytes);
  EXPECT_FALSE(r.ok()) << "decoded a " << message_name(message_id(r.value()));
  return r.ok() ? DecodeError{} : r.error();
}

TEST(Malformed, EveryTruncationOfEveryMessageFails) {
  for (const Message& m : testing::all_samples()) {
    const Bytes bytes = encode(m);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      SCOPED_TRACE(std::string(message_name(message_id(m))) + " cut to " + std::to_string(n) + " bytes");
      const DecodeError e = error_of(Bytes(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)));
      EXPECT_EQ(e.code, DecodeErrorCode::kTruncated) << e.message;
      EXPECT_LE(e.offset, n);
    }
  }
}

TEST(Malformed, TrailingBytesFail) {
  for (const Message& m : testing::all_samples()) {
    Bytes bytes = encode(m);
    const std::size_t end = bytes.size();
    bytes.push_back(0x00);
    const DecodeError e = error_of(bytes);
    EXPECT_EQ(e.code, DecodeErrorCode::kTrailingBytes) << message_name(message_id(m));
    EXPECT_EQ(e.offset, end);
  }
}

TEST(Malformed, EmptyInputFails) {
  const DecodeError e = error_of({});
  EXPECT_EQ(e.code, DecodeErrorCode::kTruncated);
  EXPECT_EQ(e.offset, 0u);
}

TEST(Malformed, UnknownIdsFail) {
  for (unsigned id = 0; id < 256; ++id) {
    if (is_message_id(static_cast<std::uint8_t>(id))) continue;
    const DecodeError e = error_of({static_cast<std::uint8_t>(id), 0x00, 0x00});
    EXPECT_EQ(e.code, DecodeErrorCode::kUnknownMessage) << id;
    EXPECT_NE(e.message.find(std::to_string(id)), std::string::npos) << e.message;
  }
}

TEST(Malformed, MessageOverTheSizeLimitFailsBeforeParsing) {
  Bytes bytes(kMaxMessageBytes + 1, 0x00);
  bytes[0] = static_cast<std::uint8_t>(MessageId::kReplayChunk);
  EXPECT_EQ(error_of(bytes).code, DecodeErrorCode::kTooLarge);
}

TEST(Malformed, ErrorNamesTheFieldPathAndOffset) {
  RoomList list = testing::sample<RoomList>();
  Bytes bytes = encode(list);
  // Corrupt rooms[1].name's first character into a control character.
  const Bytes name(list.rooms[1].name.begin(), list.rooms[1].name.end());
  const auto it = std::search(bytes.begin() + 20, bytes.end(), name.begin(), name.end());
  ASSERT_NE(it, bytes.end());
  *it = 0x07;
  const auto name_at = static_cast<std::size_t>(it - bytes.begin()) - 1;  // the length byte before it
  const DecodeError e = error_of(bytes);
  EXPECT_EQ(e.code, DecodeErrorCode::kBadText);
  EXPECT_EQ(e.offset, name_at);
  EXPECT_EQ(e.message, "RoomList.rooms[1].name: byte 0x07 at index 0 is not printable ASCII (byte " +
                           std::to_string(name_at) + ")");
}

TEST(Malformed, NonCanonicalVarintsFail) {
  EXPECT_EQ(error_of({0x16, 0x81, 0x00}).code, DecodeErrorCode::kBadVarint);  // KickPlayer 1 in two bytes
  Bytes eleven{0x16};
  for (int i = 0; i < 10; ++i) eleven.push_back(0xFF);
  eleven.push_back(0x01);
  EXPECT_EQ(error_of(eleven).code, DecodeErrorCode::kBadVarint);  // over 64 bits
}

TEST(Malformed, TextRulesApply) {
  auto hello = [](std::string_view name) {
    ByteWriter w;
    w.u8(static_cast<std::uint8_t>(MessageId::kHello));
    w.varint(name.size());
    w.bytes(name);
    w.varint(0);
    w.bytes(std::vector<std::uint8_t>(kPublicKeyBytes + kSignatureBytes, 0));  // key and signature
    return w.take();
  };
  EXPECT_EQ(error_of(hello("")).code, DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(error_of(hello("seventeen chars!!")).code, DecodeErrorCode::kTooLong);
  EXPECT_EQ(error_of(hello(" ada")).code, DecodeErrorCode::kBadText);
  EXPECT_EQ(error_of(hello("ada\n")).code, DecodeErrorCode::kBadText);
  EXPECT_EQ(error_of(hello("ad\x7F")).code, DecodeErrorCode::kBadText);
  EXPECT_EQ(error_of(hello("\xC3\xA9t\xC3\xA9")).code, DecodeErrorCode::kBadText);  // names are ASCII
  ASSERT_TRUE(decode(hello("sixteen chars ok")).ok());

  auto chat = [](std::string_view text) {
    ByteWriter w;
    w.u8(static_cast<std::uint8_t>(MessageId::kSendChat));
    w.varint(text.size());
    w.bytes(text);
    return w.take();
  };
  EXPECT_TRUE(decode(chat("caf\xC3\xA9 \xF0\x9F\x8E\x89")).ok());
  EXPECT_EQ(error_of(chat("\xC3")).code, DecodeErrorCode::kBadText);          // cut-off character
  EXPECT_EQ(error_of(chat("\xC0\xAF")).code, DecodeErrorCode::kBadText);      // overlong '/'
  EXPECT_EQ(error_of(chat("\xED\xA0\x80")).code, DecodeErrorCode::kBadText);  // surrogate
  EXPECT_EQ(error_of(chat("a\tb")).code, DecodeErrorCode::kBadText);
  EXPECT_EQ(error_of(chat(std::string(kMaxChatBytes + 1, 'x'))).code, DecodeErrorCode::kTooLong);
  EXPECT_EQ(error_of(chat("")).code, DecodeErrorCode::kOutOfRange);
}

// A server's web address reaches a client only as an http(s) URL of at most 200 bytes (web_url.h): anything else in
// Welcome.web_url is refused with the field, the offset and what is wrong.
TEST(Malformed, WelcomeWebUrlMustBeAnHttpUrl) {
  auto welcome = [](std::uint32_t web_port, std::string_view url) {
    ByteWriter w;
    w.u8(static_cast<std::uint8_t>(MessageId::kWelcome));
    w.varint(1);  // player_id
    w.varint(1);
    w.bytes("s");  // server_name
    w.varint(0);   // motd
    w.varint(web_port);
    w.varint(url.size());
    w.bytes(url);
    return w.take();
  };
  ASSERT_TRUE(decode(welcome(8080, "")).ok());
  ASSERT_TRUE(decode(welcome(0, "http://example.org:8080/sr")).ok());
  EXPECT_EQ(error_of(welcome(0, "javascript:alert(1)")).message,
            "Welcome.web_url: it does not start with http:// or https:// (byte 6)");
  EXPECT_EQ(error_of(welcome(0, "http://a b/")).code, DecodeErrorCode::kBadText);
  EXPECT_EQ(error_of(welcome(0, "http://x/\"><img>")).code, DecodeErrorCode::kBadText);
  EXPECT_EQ(error_of(welcome(0, "http://x/" + std::string(kMaxWebUrlBytes - 8, 'p'))).code, DecodeErrorCode::kTooLong);
  EXPECT_EQ(error_of(welcome(65536, "")).message, "Welcome.web_port: value 65536, must be 0..65535 (byte 5)");
}

TEST(Malformed, ReplayNotStoredNeedsARaceAndALine) {
  auto not_stored = [](std::uint32_t race_id, std::string_view reason) {
    ByteWriter w;
    w.u8(static_cast<std::uint8_t>(MessageId::kReplayNotStored));
    w.varint(race_id);
    w.varint(reason.size());
    w.bytes(reason);
    return w.take();
  };
  ASSERT_TRUE(decode(not_stored(1, "the server's disk is full")).ok());
  ASSERT_TRUE(decode(not_stored(1, "")).ok());
  EXPECT_EQ(error_of(not_stored(0, "x")).code, DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(error_of(not_stored(1, "disk\nfull")).code, DecodeErrorCode::kBadText);
  EXPECT_EQ(error_of(not_stored(1, std::string(kMaxReasonBytes + 1, 'r'))).code, DecodeErrorCode::kTooLong);
}

TEST(Malformed, LadderRowsMustFitTheLadder) {
  auto code_of = [](const Ladder& ladder) {
    // Encode field by field, bypassing encode()'s asserts, so that inconsistent ladders can be written.
    ByteWriter w;
    w.u8(static_cast<std::uint8_t>(MessageId::kLadder));
    w.u8(ladder.ranked_games);
    w.u8(ladder.counted_best);
    w.varint(ladder.entrants);
    w.varint(ladder.rows.size());
    for (const LadderRow& r : ladder.rows) {
      w.varint(r.entrant.size());
      w.bytes(r.entrant);
      w.u8(r.ranked_played);
      w.varint(r.best.size());
      for (const LadderGame& g : r.best) {
        w.varint(g.game_id);
        w.varint(static_cast<std::uint64_t>(g.score));
        w.varint(static_cast<std::uint64_t>(g.lines));
      }
    }
    const DecodeResult r = decode(w.take());
    return r.ok() ? std::optional<DecodeErrorCode>{} : std::optional<DecodeErrorCode>{r.error().code};
  };
  const Ladder good{10, 3, 1, {{"ab", 2, {{5, 900, 2}, {6, 800, 1}}}}};
  EXPECT_EQ(code_of(good), std::nullopt);
  Ladder l = good;
  l.ranked_games = 2;  // fewer than counted_best
  l.rows[0].ranked_played = 2;
  EXPECT_EQ(code_of(l), DecodeErrorCode::kInconsistent);
  l = good;
  l.ranked_games = 20;
  l.counted_best = 11;  // more than kMaxLadderCountedBest
  EXPECT_EQ(code_of(l), DecodeErrorCode::kOutOfRange);
  l = good;
  l.ranked_games = 0;
  EXPECT_EQ(code_of(l), DecodeErrorCode::kOutOfRange);
  l = good;
  l.entrants = 0;  // fewer entrants than rows
  EXPECT_EQ(code_of(l), DecodeErrorCode::kInconsistent);
  l = good;
  l.rows[0].ranked_played = 11;  // more than ranked_games
  EXPECT_EQ(code_of(l), DecodeErrorCode::kInconsistent);
  l = good;
  l.rows[0].ranked_played = 1;  // fewer games played than best games
  EXPECT_EQ(code_of(l), DecodeErrorCode::kInconsistent);
  l = good;
  std::swap(l.rows[0].best[0], l.rows[0].best[1]);  // not best first
  EXPECT_EQ(code_of(l), DecodeErrorCode::kInconsistent);
  l = good;
  l.rows[0].ranked_played = 4;
  l.rows[0].best.push_back({7, 700, 1});
  l.rows[0].best.push_back({8, 600, 1});  // 4 best games, counted_best 3
  EXPECT_EQ(code_of(l), DecodeErrorCode::kInconsistent);
  l = good;
  l.rows[0].entrant = "a b\n";
  EXPECT_NE(code_of(l), std::nullopt);
}

TEST(Malformed, OversizedListsFail) {
  // RaceInput with one change more than kMaxInputsPerBatch.
  ByteWriter w;
  w.u8(static_cast<std::uint8_t>(MessageId::kRaceInput));
  w.varint(1);  // race_id
  w.varint(0);  // first_seq
  w.varint(0);  // now_us
  w.varint(kMaxInputsPerBatch + 1);
  for (std::size_t i = 0; i <= kMaxInputsPerBatch; ++i) {
    w.varint(0);
    w.varint(0);
  }
  const DecodeError e = error_of(w.take());
  EXPECT_EQ(e.code, DecodeErrorCode::kTooLong);
  EXPECT_EQ(e.offset, 4u);
  EXPECT_NE(e.message.find("RaceInput.changes"), std::string::npos) << e.message;

  ReplayChunk big{1, kMaxReplayChunkBytes + 1, 0, Bytes(kMaxReplayChunkBytes + 1, 0)};
  ASSERT_FALSE(validate(big).ok());
  EXPECT_EQ(validate(big).error().code, DecodeErrorCode::kTooLong);
}

TEST(Malformed, ValidateReportsWhatDecodeWould) {
  const sr::Status<DecodeError> e = validate(Hello{"this name is far too long", ""});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, DecodeErrorCode::kTooLong);
  EXPECT_EQ(e.error().offset, 1u);
  EXPECT_EQ(e.error().message, "Hello.name: 25 bytes, limit 16 (byte 1)");
  EXPECT_EQ(validate(Welcome{}), validate(Welcome{0, "", "", 0, ""}));
  EXPECT_EQ(validate(Welcome{}).error().message, "Welcome.player_id: value 0, must be 1..4294967295 (byte 1)");
}

#if !defined(NDEBUG) && GTEST_HAS_DEATH_TEST
TEST(MalformedDeathTest, EncodingAnInvalidMessageAsserts) { EXPECT_DEATH((void)encode(Hello{}), "invalid message"); }
#endif

}  // namespace
}  // namespace sr::protocol
