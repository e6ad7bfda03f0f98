#include "client/settings/paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "net/identity/ladder_secret.h"

namespace sr::client {
namespace {

namespace fs = std::filesystem;
using net::default_secret_file;
using net::ladder_secret_file_name;

TEST(LadderSecretPath, TheGameKeepsItUnderItsConfigDirAsTheBotDoesByDefault) {
  const Paths p = resolve_paths(fs::path("/tmp/cfg"), fs::path("/tmp/data"));
  EXPECT_EQ(p.ladder_secret_file("rocket"), fs::path("/tmp/cfg/ladder/rocket.secret"));
  // The server compares names ignoring case: one file holds "Team 7" and "team 7".
  EXPECT_EQ(p.ladder_secret_file("Team 7"), fs::path("/tmp/cfg/ladder/team 7.secret"));
  EXPECT_EQ(p.ladder_secret_file("TEAM 7"), fs::path("/tmp/cfg/ladder/team 7.secret"));
  // A '/' may be in a name but not in a file name.
  EXPECT_EQ(p.ladder_secret_file("a/b"), fs::path("/tmp/cfg/ladder/a_b.secret"));
  EXPECT_EQ(ladder_secret_file_name(".."), "...secret");

  // Without --config-dir, the game's file is the bot's default one.
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("XDG_CONFIG_HOME", "/xdg/config", 1);
  const auto bot = default_secret_file("rocket");
  const Paths game = resolve_paths(std::nullopt, std::nullopt);
  if (old != nullptr) {
    ::setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  } else {
    ::unsetenv("XDG_CONFIG_HOME");
  }
  ASSERT_TRUE(bot.ok()) << bot.error();
  EXPECT_EQ(bot.value(), fs::path("/xdg/config/stackrace/ladder/rocket.secret"));
  EXPECT_EQ(game.ladder_secret_file("rocket"), bot.value());
}

}  // namespace
}  // namespace sr::client
