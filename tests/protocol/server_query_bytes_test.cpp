// The datagrams of common/protocol/DIRECTORY.md, section 1, byte for byte (common/protocol/server_query.h).
#include "common/protocol/server_query.h"

#include <gtest/gtest.h>

namespace sr::protocol {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(ServerQueryBytes, AQueryIsThePrefixTheVersionTheNonceAndZerosTo1024) {
  const Bytes query = encode_query(0x0102030405060708ull);
  ASSERT_EQ(query.size(), 1024u);
  const Bytes head = {
      0xFF, 0xFF, 0xFF, 0xFF, 's',  'r',  'q',         // prefix, kind 'q'
      0x01,                                            // version
      0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,  // nonce, big-endian
  };
  EXPECT_EQ(Bytes(query.begin(), query.begin() + 16), head);
  for (std::size_t i = 16; i < query.size(); ++i) ASSERT_EQ(query[i], 0) << i;
  EXPECT_EQ(decode_query(query), 0x0102030405060708ull);
}

TEST(ServerQueryBytes, AQueryOfAnotherLengthVersionOrKindIsNone) {
  Bytes query = encode_query(7);
  Bytes short_one(query.begin(), query.end() - 1);
  EXPECT_FALSE(decode_query(short_one));
  Bytes long_one = query;
  long_one.push_back(0);
  EXPECT_FALSE(decode_query(long_one));
  Bytes version = query;
  version[7] = 2;
  EXPECT_FALSE(decode_query(version));
  Bytes kind = query;
  kind[6] = 'x';
  EXPECT_FALSE(decode_query(kind));
  Bytes enet = query;
  enet[0] = 0x7F;
  EXPECT_FALSE(decode_query(enet));
  EXPECT_FALSE(has_query_prefix(enet));
  EXPECT_TRUE(has_query_prefix(kind));
}

TEST(ServerQueryBytes, AnInfoDatagramCarriesTheNonceAndTheJson) {
  const Bytes info = encode_info(0xA1B2C3D4E5F60718ull, R"({"a":1})");
  const Bytes want = {
      0xFF, 0xFF, 0xFF, 0xFF, 's',  'r',  'i',         // prefix, kind 'i'
      0x01,                                            // version
      0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6, 0x07, 0x18,  // the query's nonce
      '{',  '"',  'a',  '"',  ':',  '1',  '}',         // the info JSON
  };
  EXPECT_EQ(info, want);
  const auto decoded = decode_info(info);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->nonce, 0xA1B2C3D4E5F60718ull);
  EXPECT_EQ(decoded->json, R"({"a":1})");
  Bytes too_long = info;
  too_long.resize(1025, ' ');
  EXPECT_FALSE(decode_info(too_long));
  EXPECT_EQ(kMaxInfoJsonBytes, 1024u - 16u);
}

TEST(ServerQueryBytes, AChallengeCarries32LowerCaseHexDigits) {
  const std::string token = "0123456789abcdef0123456789abcdef";
  const Bytes challenge = encode_challenge(token);
  ASSERT_EQ(challenge.size(), 8u + 32u);
  const Bytes head = {0xFF, 0xFF, 0xFF, 0xFF, 's', 'r', 'h', 0x01};  // prefix, kind 'h', version
  EXPECT_EQ(Bytes(challenge.begin(), challenge.begin() + 8), head);
  EXPECT_EQ(decode_challenge(challenge), token);
  Bytes upper = challenge;
  upper[8 + 10] = 'A';
  EXPECT_FALSE(decode_challenge(upper));
  Bytes cut(challenge.begin(), challenge.end() - 1);
  EXPECT_FALSE(decode_challenge(cut));
}

}  // namespace
}  // namespace sr::protocol
