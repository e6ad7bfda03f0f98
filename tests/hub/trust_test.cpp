// hub/records/trust.h: --trust keys and --trust-file files, and the sentences for bad ones.
#include "hub/records/trust.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace sr::hub::records {
namespace {

const std::string kA = std::string(64, 'a');
const std::string kB = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

class TrustFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("stackrace-trust-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& text) {
    const std::filesystem::path p = dir_ / "trusted.txt";
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::filesystem::path dir_;
};

TEST(Trust, KeysAreSixtyFourHexDigitsOfEitherCase) {
  TrustList t;
  EXPECT_TRUE(t.add(kA));
  EXPECT_TRUE(t.add("0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef", "Bo's"));
  EXPECT_EQ(t.size(), 2u);
  EXPECT_TRUE(t.trusts_hex(kA));
  EXPECT_TRUE(t.trusts_hex(kB));
  EXPECT_EQ(t.name_of(kB), "Bo's");
  EXPECT_EQ(t.name_of(kA), "");
  EXPECT_FALSE(t.trusts_hex(std::string(64, 'b')));
  EXPECT_EQ(t.add("abc").error(), "\"abc\" is not a server key (64 hexadecimal digits)");
  EXPECT_FALSE(t.add(std::string(63, 'a') + "g"));
  EXPECT_FALSE(t.add(std::string(66, 'a')));
  EXPECT_FALSE(t.add(kA, std::string("bad\x01name")));
}

TEST(Trust, TheCommandLineNamesTheBadKey) {
  auto bad = load_trust({kA, "nope"}, {});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "--trust: \"nope\" is not a server key (64 hexadecimal digits)");
  auto good = load_trust({kA, kA}, {});
  ASSERT_TRUE(good);
  EXPECT_EQ(good.value().size(), 1u);
}

TEST_F(TrustFile, KeysNamesCommentsAndBlankLines) {
  const std::string file = write("# the servers we watch\n\n" + kA + "  Ada's server  # the first\n" + kB +
                                 "\r\n   \t\n" + std::string(64, 'c') + "\tCy\n");
  auto t = load_trust({}, {file});
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t.value().size(), 3u);
  EXPECT_EQ(t.value().name_of(kA), "Ada's server");
  EXPECT_EQ(t.value().name_of(kB), "");
  EXPECT_EQ(t.value().name_of(std::string(64, 'c')), "Cy");
}

TEST_F(TrustFile, ABadLineIsAnErrorNamingTheFileAndLine) {
  const std::string file = write(kA + "\n# fine\nnot-a-key Bo\n");
  auto t = load_trust({}, {file});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error(), file + " line 3: \"not-a-key\" is not a server key (64 hexadecimal digits)");
  TrustList list;
  EXPECT_FALSE(list.add_file(file));
  EXPECT_EQ(list.size(), 0u) << "nothing of a bad file is added";
}

TEST_F(TrustFile, AMissingFileIsAnError) {
  auto t = load_trust({}, {(dir_ / "missing.txt").string()});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error(),
            "cannot read the trust file " + (dir_ / "missing.txt").string() + ": it does not exist or is not readable");
}

}  // namespace
}  // namespace sr::hub::records
