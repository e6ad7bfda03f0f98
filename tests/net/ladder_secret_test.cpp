#include "net/identity/ladder_secret.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace sr::net {
namespace {

namespace fs = std::filesystem;

class LadderSecretFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("stackrace-ladder-secret-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string read(const fs::path& file) const {
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static unsigned mode_of(const fs::path& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_mode & 0777u : 0u;
  }
  fs::path dir_;
};

// A file of the name's exact spelling (kept by an earlier version) is still found; without it, the lower-case file.
TEST_F(LadderSecretFile, AFileOfTheExactSpellingIsStillFound) {
  EXPECT_EQ(ladder_secret_file_in(dir_, "Rocket"), dir_ / "rocket.secret");
  std::ofstream(dir_ / "Rocket.secret") << "0123456789abcdef0123456789abcdef\n";
  EXPECT_EQ(ladder_secret_file_in(dir_, "Rocket"), dir_ / "Rocket.secret");
  EXPECT_EQ(ladder_secret_file_in(dir_, "ROCKET"), dir_ / "rocket.secret") << "another spelling: the lower-case file";
  std::ofstream(dir_ / "rocket.secret") << "fedcba9876543210fedcba9876543210\n";
  EXPECT_EQ(ladder_secret_file_in(dir_, "Rocket"), dir_ / "rocket.secret") << "the lower-case file comes first";
}

TEST_F(LadderSecretFile, NoFileIsNoSecretAndNothingIsMade) {
  const fs::path file = dir_ / "config" / "ladder" / "rocket.secret";
  const auto secret = read_legacy_secret(file);
  ASSERT_TRUE(secret.ok()) << secret.error();
  EXPECT_EQ(secret.value(), std::nullopt);
  EXPECT_FALSE(fs::exists(file.parent_path()));
}

TEST_F(LadderSecretFile, AWrittenSecretIsReadExactly) {
  const fs::path file = dir_ / "rocket.secret";
  std::ofstream(file) << "0123456789ABCDEFfedcba9876543210\n";
  const auto secret = read_legacy_secret(file);
  ASSERT_TRUE(secret.ok()) << secret.error();
  EXPECT_EQ(secret.value(), (protocol::LadderSecret{0x0123456789abcdefULL, 0xfedcba9876543210ULL}));
}

TEST_F(LadderSecretFile, ADamagedFileIsAnErrorAndIsNeverOverwritten) {
  const fs::path file = dir_ / "rocket.secret";
  std::ofstream(file) << "not a secret\n";
  const auto secret = read_legacy_secret(file);
  ASSERT_FALSE(secret.ok());
  EXPECT_EQ(secret.error(),
            "the ladder secret file " + file.string() + " does not hold a secret (32 hexadecimal digits)");
  EXPECT_EQ(read(file), "not a secret\n");
}

TEST_F(LadderSecretFile, AFileThatCannotBeReadIsAnError) {
  const fs::path file = dir_ / "rocket.secret";
  fs::create_directories(file);  // a directory where the file should be
  const auto secret = read_legacy_secret(file);
  ASSERT_FALSE(secret.ok());
  EXPECT_EQ(secret.error(), "cannot read the ladder secret file " + file.string() + ": it is a directory");
  EXPECT_TRUE(fs::is_directory(file));
}

}  // namespace
}  // namespace sr::net
