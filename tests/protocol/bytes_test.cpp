// Exact bytes of a few messages, one comment per byte group: these pin the wire format (PROTOCOL.md) so that a
// change to it cannot go unnoticed.
#include <gtest/gtest.h>

#include <vector>

#include "common/protocol/codec.h"

namespace sr::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

void expect_bytes(const Message& m, const Bytes& expected) {
  EXPECT_EQ(encode(m), expected);
  const DecodeResult r = decode(expected);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r.value(), m);
}

// The byte tables keep one byte group per line.
// clang-format off

TEST(WireBytes, Hello) {
  Hello hello{"Ada", "sr 0.1", {}, {}};
  for (std::size_t i = 0; i < hello.key.size(); ++i) hello.key[i] = static_cast<std::uint8_t>(0xA0 + i);
  for (std::size_t i = 0; i < hello.signature.size(); ++i) hello.signature[i] = static_cast<std::uint8_t>(i);
  Bytes expected{
      0x01,                                     // id: Hello
      0x03, 'A', 'd', 'a',                      // name: length 3, bytes
      0x06, 's', 'r', ' ', '0', '.', '1',       // client_version: length 6, bytes
  };
  expected.insert(expected.end(), hello.key.begin(), hello.key.end());              // key: 32 bytes, no length
  expected.insert(expected.end(), hello.signature.begin(), hello.signature.end());  // signature: 64 bytes
  expect_bytes(hello, expected);
}

TEST(WireBytes, KeyChallenge) {
  KeyChallenge challenge;
  for (std::size_t i = 0; i < challenge.challenge.size(); ++i) challenge.challenge[i] = static_cast<std::uint8_t>(i * 3);
  Bytes expected{0x31};  // id: KeyChallenge (49)
  expected.insert(expected.end(), challenge.challenge.begin(), challenge.challenge.end());  // 32 bytes, no length
  expect_bytes(challenge, expected);
}

TEST(WireBytes, RunSigned) {
  RunSigned run{300, {}};
  for (std::size_t i = 0; i < run.signature.size(); ++i) run.signature[i] = static_cast<std::uint8_t>(0xC0 + i);
  Bytes expected{
      0x32,        // id: RunSigned (50)
      0xAC, 0x02,  // race_id 300
  };
  expected.insert(expected.end(), run.signature.begin(), run.signature.end());  // signature: 64 bytes, no length
  ASSERT_EQ(expected.size(), 67u);
  expect_bytes(run, expected);
}

TEST(WireBytes, RunSignedOfNoRaceOrWithAShortSignatureIsRefused) {
  Bytes no_race(66, 0x00);
  no_race[0] = 0x32;  // id: RunSigned; race_id 0, then 64 signature bytes
  const DecodeResult zero = decode(no_race);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().code, DecodeErrorCode::kOutOfRange);
  EXPECT_EQ(zero.error().offset, 1u);
  EXPECT_EQ(zero.error().message.rfind("RunSigned.race_id: ", 0), 0u) << zero.error().message;

  Bytes short_signature(66, 0x00);
  short_signature[0] = 0x32;
  short_signature[1] = 0x01;  // race_id 1, then 64 signature bytes less one
  const DecodeResult cut = decode(Bytes(short_signature.begin(), short_signature.end() - 1));
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.error().code, DecodeErrorCode::kTruncated);
  EXPECT_EQ(cut.error().offset, 2u);
  EXPECT_EQ(cut.error().message.rfind("RunSigned.signature: ", 0), 0u) << cut.error().message;
  EXPECT_TRUE(decode(short_signature).ok());
}

TEST(WireBytes, AKeyProofIsItsPrefixAZeroAndTheChallenge) {
  KeyChallengeBytes challenge{};
  challenge[0] = 0xFF;
  challenge[31] = 0x01;
  const std::vector<std::uint8_t> proof = key_proof_message(challenge);
  const std::string prefix = "stackrace key proof 1";
  ASSERT_EQ(proof.size(), prefix.size() + 1 + 32);
  EXPECT_EQ(std::string(proof.begin(), proof.begin() + static_cast<std::ptrdiff_t>(prefix.size())), prefix);
  EXPECT_EQ(proof[prefix.size()], 0);
  EXPECT_EQ(proof[prefix.size() + 1], 0xFF);
  EXPECT_EQ(proof.back(), 0x01);
}

TEST(WireBytes, Welcome) {
  expect_bytes(Welcome{300, "sr", "hi", 8080, "http://h/g"}, Bytes{
      0x02,                                                // id: Welcome
      0xAC, 0x02,                                          // player_id 300
      0x02, 's', 'r',                                      // server_name: length 2, bytes
      0x02, 'h', 'i',                                      // motd: length 2, bytes
      0x90, 0x3F,                                          // web_port 8080 (varint)
      0x0A, 'h', 't', 't', 'p', ':', '/', '/', 'h', '/', 'g', // web_url: length 10, bytes
  });
}

TEST(WireBytes, RaceInputDeltaEncodesTimes) {
  using namespace engine::button;
  const RaceInput m{3, 300, 1'000'000,
                    {{16'000, kMoveLeft}, {16'000, kMoveLeft | kRotateCw}, {150'000, 0}, {1'000'000, kHardDrop}}};
  expect_bytes(m, Bytes{
      0x1A,              // id: RaceInput (26)
      0x03,              // race_id 3
      0xAC, 0x02,        // first_seq 300 (varint: 0x2C | more, 0x02 << 7)
      0xC0, 0x84, 0x3D,  // now_us 1,000,000
      0x04,              // 4 changes
      0x80, 0x7D,        //   [0] time 16,000 (absolute)
      0x01,              //   [0] buttons: move left
      0x00,              //   [1] time +0
      0x11,              //   [1] buttons: move left | rotate cw
      0xF0, 0x96, 0x08,  //   [2] time +134,000 = 150,000
      0x00,              //   [2] buttons: none
      0xD0, 0xF0, 0x33,  //   [3] time +850,000 = 1,000,000
      0x08,              //   [3] buttons: hard drop
  });
}

TEST(WireBytes, ReplayNotStored) {
  expect_bytes(ReplayNotStored{300, "disk full"}, Bytes{
      0x2D,                                              // id: ReplayNotStored (45)
      0xAC, 0x02,                                        // race_id 300
      0x09, 'd', 'i', 's', 'k', ' ', 'f', 'u', 'l', 'l', // reason: length 9, bytes
  });
}

TEST(WireBytes, LadderEnter) {
  expect_bytes(LadderEnter{"ab", true, LadderSecret{0x0102030405060708, 0x1112131415161718}}, Bytes{
      0x2E,                                            // id: LadderEnter (46)
      0x02, 'a', 'b',                                  // entrant: length 2, bytes
      0x01,                                            // ranked: true
      0x01,                                            // legacy_secret: present
      0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  //   hi, fixed 8 bytes little-endian
      0x18, 0x17, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11,  //   lo
  });
  expect_bytes(LadderEnter{"ab", false, std::nullopt}, Bytes{
      0x2E,                                            // id: LadderEnter (46)
      0x02, 'a', 'b',                                  // entrant: length 2, bytes
      0x00,                                            // ranked: false
      0x00,                                            // legacy_secret: absent
  });
}

TEST(WireBytes, Ladder) {
  expect_bytes(Ladder{10, 3, 2, {{"ab", 2, {{300, 1'200, 1}, {0, 800, 1}}}}}, Bytes{
      0x30,                    // id: Ladder (48)
      0x0A,                    // ranked_games 10
      0x03,                    // counted_best 3
      0x02,                    // entrants 2
      0x01,                    // rows: 1
      0x02, 'a', 'b',          //   [0] entrant: length 2, bytes
      0x02,                    //   [0] ranked_played 2
      0x02,                    //   [0] best: 2 games
      0xAC, 0x02,              //     [0] game_id 300
      0xB0, 0x09,              //     [0] score 1,200
      0x01,                    //     [0] lines 1
      0x00,                    //     [1] game_id 0: replay not stored
      0xA0, 0x06,              //     [1] score 800
      0x01,                    //     [1] lines 1
  });
  expect_bytes(ListLadder{}, Bytes{0x2F});  // id: ListLadder (47), no fields
}

TEST(WireBytes, RejectLayoutIsFrozen) {
  // Clients of every protocol version must read this; see messages.h.
  expect_bytes(Reject{RejectReason::kVersionMismatch, 7, "v7"}, Bytes{
      0x03,                    // id: Reject (frozen)
      0x01,                    // reason: version mismatch (frozen)
      0x07, 0x00, 0x00, 0x00,  // server_version 7, fixed 4 bytes little-endian
      0x02, 'v', '7',          // text
  });
}

TEST(WireBytes, PingIsFixedLittleEndian) {
  expect_bytes(Ping{0x0102030405060708}, Bytes{
      0x04,                                            // id: Ping
      0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // sent_us, low byte first
  });
}

TEST(WireBytes, SetHandlingZigzagsSignedFields) {
  engine::Handling h;  // engine defaults: das 167 ms, arr 33 ms, sdf 20, irs and ihs on
  expect_bytes(SetHandling{h}, Bytes{
      0x13,              // id: SetHandling (19)
      0xB0, 0xB1, 0x14,  // das_us 167,000 (zigzag 334,000)
      0xD0, 0x83, 0x04,  // arr_us 33,000 (zigzag 66,000)
      0x28,              // sdf 20 (zigzag 40)
      0x00,              // dcd_us 0
      0x00,              // are_us 0
      0x00,              // line_clear_delay_us 0
      0x01,              // irs
      0x01,              // ihs
  });
}

TEST(WireBytes, JoinRoomByCode) {
  expect_bytes(JoinRoom{0, "K7PQ2X", Role::kSpectator}, Bytes{
      0x0B,                                // id: JoinRoom (11)
      0x00,                                // room_id 0: by code
      0x06, 'K', '7', 'P', 'Q', '2', 'X',  // code
      0x01,                                // role: spectator
  });
}

TEST(WireBytes, EmptyMessagesAreOneByte) {
  expect_bytes(LeaveRoom{}, Bytes{0x0D});
  expect_bytes(StartRace{}, Bytes{0x17});
}

// clang-format on

}  // namespace
}  // namespace sr::protocol
