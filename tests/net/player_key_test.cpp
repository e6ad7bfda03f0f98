#include "net/identity/player_key.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace sr::net {
namespace {

namespace fs = std::filesystem;

std::string hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

class KeyFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("stackrace-key-test-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  static unsigned mode(const fs::path& p) {
    struct stat st {};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return st.st_mode & 0777;
  }
  fs::path dir_;
};

// RFC 8032, section 7.1, TEST 1: the seed, its public key, and its signature of the empty message.
TEST(PlayerKey, MatchesTheEd25519TestVector) {
  auto key = PlayerKey::parse("stackrace-key 1 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60\n");
  ASSERT_TRUE(key.ok()) << key.error();
  EXPECT_EQ(hex(key.value().public_key()), "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  const Signature sig = key.value().sign({});
  EXPECT_EQ(hex(sig),
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f05"
            "95bbe24655141438e7a100b");
  EXPECT_TRUE(verify_signature(key.value().public_key(), {}, sig));
}

TEST(PlayerKey, ASignatureVerifiesOnlyForItsKeyAndMessage) {
  const PlayerKey a = PlayerKey::generate();
  const PlayerKey b = PlayerKey::generate();
  EXPECT_NE(a.public_key(), b.public_key());
  const std::vector<std::uint8_t> message = {1, 2, 3, 4};
  Signature sig = a.sign(message);
  EXPECT_TRUE(verify_signature(a.public_key(), message, sig));
  EXPECT_FALSE(verify_signature(b.public_key(), message, sig));  // a stolen public key signs nothing
  EXPECT_FALSE(verify_signature(a.public_key(), std::vector<std::uint8_t>{1, 2, 3, 5}, sig));
  sig[10] ^= 1;
  EXPECT_FALSE(verify_signature(a.public_key(), message, sig));
}

TEST(PlayerKey, TextRoundTripsAndTheShortIdIsEightHexDigitsOfItsHash) {
  const PlayerKey a = PlayerKey::generate();
  auto back = PlayerKey::parse(a.text());
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_EQ(back.value().public_key(), a.public_key());
  EXPECT_EQ(back.value().short_id(), a.short_id());
  EXPECT_EQ(a.short_id().size(), 8u);
  EXPECT_EQ(a.short_id().find_first_not_of("0123456789abcdef"), std::string::npos);
  // BLAKE2b-256 of the RFC 8032 key's public key, its first four bytes.
  auto rfc = PlayerKey::parse("stackrace-key 1 9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  ASSERT_TRUE(rfc.ok());
  EXPECT_EQ(rfc.value().short_id(), short_key_id(rfc.value().public_key()));
}

TEST(PlayerKey, ParseRefusesAnythingButAKeyWithAReason) {
  const std::string good = "stackrace-key 1 " + std::string(64, 'a');
  ASSERT_TRUE(PlayerKey::parse(good).ok());
  ASSERT_TRUE(PlayerKey::parse(good + "\r\n").ok());
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "does not start with \"stackrace-key 1\""},
      {"stackrace-key 2 " + std::string(64, 'a'), "does not start with \"stackrace-key 1\""},
      {"stackrace-key 1 " + std::string(63, 'a'),
       "does not hold a key (64 hexadecimal digits after \"stackrace-key 1\")"},
      {"stackrace-key 1 " + std::string(63, 'a') + "g",
       "does not hold a key (64 hexadecimal digits after \"stackrace-key 1\")"},
      {good + "\nmore", "does not hold a key (64 hexadecimal digits after \"stackrace-key 1\")"},
      {std::string(300, 'x'), "is too long to be a player key"},
  };
  for (const auto& [text, why] : bad) {
    auto got = PlayerKey::parse(text);
    ASSERT_FALSE(got.ok()) << text;
    EXPECT_EQ(got.error(), why) << text;
  }
}

TEST(PlayerKey, DerivedKeysAreStablePerNameAndDifferBetweenNames) {
  const PlayerKey base = PlayerKey::generate();
  EXPECT_EQ(base.derived("bot1").public_key(), base.derived("bot1").public_key());
  EXPECT_NE(base.derived("bot1").public_key(), base.derived("bot2").public_key());
  EXPECT_NE(base.derived("bot1").public_key(), PlayerKey::generate().derived("bot1").public_key());
  EXPECT_NE(base.derived("bot1").public_key(), base.public_key());
}

TEST_F(KeyFile, MadeOnFirstUseOwnerOnlyThenReadBack) {
  const fs::path file = dir_ / "config" / "player.key";
  bool created = false;
  auto made = load_or_create_key(file, created);
  ASSERT_TRUE(made.ok()) << made.error();
  EXPECT_TRUE(created);
  EXPECT_EQ(mode(file), 0600u);
  EXPECT_EQ(mode(file.parent_path()), 0700u);
  auto again = load_or_create_key(file, created);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_FALSE(created);
  EXPECT_EQ(again.value().public_key(), made.value().public_key());
}

TEST_F(KeyFile, ADamagedFileIsAnErrorAndIsNeverReplaced) {
  const fs::path file = dir_ / "player.key";
  fs::create_directories(dir_);
  std::ofstream(file) << "not a key\n";
  bool created = true;
  auto got = load_or_create_key(file, created);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.error(), "the player key file " + file.string() + " does not start with \"stackrace-key 1\"");
  std::stringstream kept;
  kept << std::ifstream(file).rdbuf();
  EXPECT_EQ(kept.str(), "not a key\n");
}

TEST_F(KeyFile, ImportReplacesTheKeyOwnerOnly) {
  const fs::path file = dir_ / "player.key";
  bool created = false;
  ASSERT_TRUE(load_or_create_key(file, created).ok());
  const PlayerKey other = PlayerKey::generate();
  auto saved = save_key(file, other);
  ASSERT_TRUE(saved.ok()) << saved.error();
  EXPECT_EQ(mode(file), 0600u);
  EXPECT_FALSE(fs::exists(dir_ / "player.key.new"));
  auto read = load_or_create_key(file, created);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read.value().public_key(), other.public_key());
}

}  // namespace
}  // namespace sr::net
